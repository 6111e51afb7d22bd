import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MemoryRouter } from 'react-router';
import { afterEach, expect, it, vi } from 'vitest';
import { createQueryClient } from '../lib/query';
import { AppRoutes } from './router';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Markup with the spaces between tags and the comments taken out. */
const squeeze = (html: string) =>
  html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/>\s+</g, '><')
    .trim();

it("index.html's first paint is the app's first render, tag for tag", () => {
  // The session and site calls are still on their way, and the page's code is still loading.
  vi.stubGlobal(
    'fetch',
    vi.fn(() => new Promise(() => undefined)),
  );
  const { container } = render(
    <QueryClientProvider client={createQueryClient()}>
      {/* A page no navbar link points to: the shell is the same for every page. */}
      <MemoryRouter initialEntries={['/no-such-page']}>
        <AppRoutes />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  const indexHtml = readFileSync(path.join(__dirname, '../../index.html'), 'utf8');
  const shell = /<div id="root">([\s\S]*)<\/div>\s*(?:<script[^>]*><\/script>\s*)?<\/body>/.exec(
    indexHtml,
  )?.[1];
  expect(shell).toBeDefined();
  expect(squeeze(shell!)).toBe(squeeze(container.innerHTML));
});
