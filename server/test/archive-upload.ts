import type { TestClient } from './build-test-app.js';

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
