/**
 * Where the server's log lines go when no test gives a stream: on a terminal, pino-pretty's
 * readable lines with local ISO 8601 times (an organiser trying the site reads them); otherwise
 * (a container, a service manager, a pipe) pino's JSON, one object a line, for log collectors.
 */

/** The pretty printer's options: local time with its offset, no pid or host name on every line. */
export const PRETTY_OPTIONS = {
  translateTime: "SYS:yyyy-mm-dd'T'HH:MM:ss.lo",
  ignore: 'pid,hostname',
  // Written as they come, so the last lines before an exit are not lost.
  sync: true,
} as const;

/** pino-pretty's stream when `output` is a terminal; undefined (pino's own JSON) otherwise. */
export async function terminalLogStream(
  output: { isTTY?: boolean } = process.stdout,
): Promise<NodeJS.WritableStream | undefined> {
  if (output.isTTY !== true) return undefined;
  const { default: pretty } = await import('pino-pretty');
  return pretty(PRETTY_OPTIONS);
}
