import { buildApp } from '../app.js';
import { ConfigError, loadConfig } from '../config.js';
import type { AppContext } from '../context.js';

type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * Runs a command-line script's work. A refusal it expects (a wrong configuration, or an error of
 * one of the `expected` classes) is written to stderr as its message and the script exits with
 * code 1; anything else is thrown on.
 */
export async function exitOnRefusal<T>(
  work: () => T | Promise<T>,
  expected: readonly ErrorClass[] = [],
): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ConfigError || expected.some((kind) => err instanceof kind)) {
      process.stderr.write(`${(err as Error).message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

/**
 * Loads the configuration (a wrong one: its message, exit code 1), builds the app without a
 * logger, runs `work` against it and closes it again.
 */
export async function withApp<T>(work: (ctx: AppContext) => Promise<T>): Promise<T> {
  const config = await exitOnRefusal(() => loadConfig());
  const { app, ctx } = await buildApp({ ...config, logLevel: 'silent' }, { logger: false });
  try {
    return await work(ctx);
  } finally {
    await app.close();
  }
}

/** Whether the module at `moduleUrl` is the script node was started with (not an import of it). */
export function isEntryPoint(moduleUrl: string): boolean {
  const started = process.argv[1];
  return started !== undefined && started !== '' && moduleUrl === new URL(`file://${started}`).href;
}
