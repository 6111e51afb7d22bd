import type { AdminChallenge } from '@ctf/contract';
import { expect } from 'vitest';
import { makeZip } from '../src/lib/zip.js';
import type { TestClient } from './build-test-app.js';

// What the challenge.yml archive tests share: sample challenge.yml files, ZIPs of them, the upload
// as the admin panel sends it, and the admin list read back.

const BOUNDARY = '----archiveTestBoundary';

/** A multipart body with one file in the given field, as a browser's FormData sends it. */
export function multipart(filename: string, content: Buffer, field = 'file') {
  return {
    payload: Buffer.concat([
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/zip\r\n\r\n`,
      ),
      content,
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  };
}

/** POST /api/admin/ctf/import[?dry_run=1] with a ZIP. */
export function postImport(client: TestClient, zip: Buffer, dryRun = false, filename = 'challenges.zip') {
  const { payload, headers } = multipart(filename, zip);
  return client.post(`/api/admin/ctf/import${dryRun ? '?dry_run=1' : ''}`, payload, headers);
}

export const BASICS = `name: Warmup
author: club
category: General
description: |
  Say **hello**.

  Then submit.
value: 100
flags:
  - flag{warm}
`;

export const DYNAMIC = `name: Falling Star
author: Ada
category: cryptography
description: Decrypt *it*.
type: dynamic
value: 500
extra:
  initial: 500
  decay: 10
  minimum: 100
  function: linear
flags:
  - type: static
    content: flag{Star}
    data: case_insensitive
  - type: regex
    content: 'flag\\{star-[0-9]+\\}'
  - exact{one}
hints:
  - Look up.
  - title: Second
    content: The key is \`k\`.
    cost: 25
files:
  - dist/cipher.txt
  - notes.md
state: hidden
scheduled_at: '2026-05-01T10:00:00+02:00'
requirements:
  - Warmup
attempts: 5
tags: [crypto]
`;

/** A ZIP of these entries (path -> content). */
export function archive(entries: Record<string, string | Buffer>): Buffer {
  return makeZip(Object.entries(entries).map(([name, content]) => ({ name, content })));
}

/** Warmup and Falling Star (which requires Warmup, with two files), each in its own folder. */
export const TWO = () =>
  archive({
    'warmup/challenge.yml': BASICS,
    'falling-star/challenge.yml': DYNAMIC,
    'falling-star/dist/cipher.txt': 'uryyb',
    'falling-star/notes.md': '# notes',
  });

export async function adminList(admin: TestClient): Promise<AdminChallenge[]> {
  const res = await admin.get('/api/admin/ctf/fetch_challenges');
  expect(res.status).toBe(200);
  return res.body;
}
