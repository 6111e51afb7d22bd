import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// find* and waitFor wait for a condition; under a busy machine a lazy page can take more than the
// library's default second to appear, so they may wait up to 10 s (a passing test never waits that
// long; only a failing one does).
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => cleanup());
