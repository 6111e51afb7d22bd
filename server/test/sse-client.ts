import http from 'node:http';

export interface ReceivedEvent {
  id: string | undefined;
  event: string;
  data: unknown;
}

export interface SseClient {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Events received so far, in order. */
  events: ReceivedEvent[];
  /** Comment lines received (heartbeats). */
  comments: number;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** The body of a non-stream answer (429). */
  body(): string;
  close(): void;
}

/** Opens GET /api/events on a listening server and parses what arrives (a real HTTP client). */
export function openEventStream(baseUrl: string, headers: Record<string, string> = {}): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${baseUrl}/api/events`,
      { headers: { accept: 'text/event-stream', ...headers } },
      (res) => {
        let buffer = '';
        let raw = '';
        let endedResolve!: () => void;
        const client: SseClient = {
          status: res.statusCode ?? 0,
          headers: res.headers,
          events: [],
          comments: 0,
          ended: new Promise<void>((r) => (endedResolve = r)),
          body: () => raw,
          close: () => req.destroy(),
        };
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          raw += chunk;
          buffer += chunk;
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const fields: Record<string, string> = {};
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) {
                client.comments += 1;
                continue;
              }
              const i = line.indexOf(':');
              if (i > 0) fields[line.slice(0, i)] = line.slice(i + 1).replace(/^ /, '');
            }
            if (fields.data !== undefined) {
              client.events.push({
                id: fields.id,
                event: fields.event ?? 'message',
                data: JSON.parse(fields.data),
              });
            }
          }
        });
        res.on('end', () => endedResolve());
        res.on('close', () => endedResolve());
        resolve(client);
      },
    );
    req.on('error', (err) => {
      if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(err);
    });
  });
}
