import type { TestClient } from './build-test-app.js';

// What the writeup tests share: a multipart body as the challenge page's form sends it (the fields
// in order, then at most one file), and the calls around it.

const BOUNDARY = '----writeupTestBoundary';

export function writeupForm(
  fields: Record<string, string>,
  file?: { name: string; content: Buffer | string; type?: string; field?: string },
) {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  if (file)
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content),
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  };
}

/** POST /api/ctf/writeup with a link or a file. */
export function handIn(
  client: TestClient,
  challengeId: number | string,
  what: { url: string } | { file: { name: string; content: Buffer | string; type?: string } },
) {
  const { payload, headers } =
    'url' in what
      ? writeupForm({ challenge_id: String(challengeId), url: what.url })
      : writeupForm({ challenge_id: String(challengeId) }, what.file);
  return client.post('/api/ctf/writeup', payload, headers);
}

/** A small valid PDF's bytes (what the content check needs: the %PDF- signature). */
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

/** Opens (or closes) writeup collection through the admin's settings. */
export async function setWriteups(
  admin: TestClient,
  writeups: { open: boolean; deadline?: string | null; note?: string },
) {
  const res = await admin.post('/api/admin/settings', {
    writeups: { open: writeups.open, deadline: writeups.deadline ?? null, note: writeups.note ?? '' },
  });
  if (res.status !== 200) throw new Error(`settings: ${res.status} ${JSON.stringify(res.body)}`);
}
