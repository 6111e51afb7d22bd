import type { FastifyBaseLogger } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type Options = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;

/**
 * Fastify's per-request logger (its `childLoggerFactory`), made only when the request logs: pino's
 * child with the request id costs about 1.5 µs, and with request lines off (app.ts) most requests
 * log nothing. The first line at any level makes the real child, so every line still carries the
 * request id; its level is the route's when it sets one, otherwise the server's. One small object
 * a request: the methods are the class's, not closures made per request.
 */
class LazyChildLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: Options,
  ) {}

  private get real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real.level = level;
  }

  fatal(...args: Parameters<FastifyBaseLogger['fatal']>): void {
    this.real.fatal(...args);
  }
  error(...args: Parameters<FastifyBaseLogger['error']>): void {
    this.real.error(...args);
  }
  warn(...args: Parameters<FastifyBaseLogger['warn']>): void {
    this.real.warn(...args);
  }
  info(...args: Parameters<FastifyBaseLogger['info']>): void {
    this.real.info(...args);
  }
  debug(...args: Parameters<FastifyBaseLogger['debug']>): void {
    this.real.debug(...args);
  }
  trace(...args: Parameters<FastifyBaseLogger['trace']>): void {
    this.real.trace(...args);
  }
  silent(...args: Parameters<FastifyBaseLogger['silent']>): void {
    this.real.silent(...args);
  }
  child(...args: Parameters<FastifyBaseLogger['child']>): FastifyBaseLogger {
    return this.real.child(...args);
  }
}

export function lazyChildLogger(parent: FastifyBaseLogger, bindings: Bindings, options: Options): FastifyBaseLogger {
  return new LazyChildLogger(parent, bindings, options);
}
