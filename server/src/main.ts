import cluster from 'node:cluster';
import { buildApp } from './app.js';
import { warmSharedAnswers } from './warm-up.js';
import { ConfigError, LOCAL_SIGN_IN_WARNING, loadConfig, type Config } from './config.js';
import { connectDatabase } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { serveClusterMetrics } from './modules/metrics/cluster-metrics.js';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
}

/** One serving process: build the app, listen, close gracefully on SIGTERM/SIGINT. */
async function serve(config: Config): Promise<void> {
  const { app } = await buildApp(config);
  // The answers every first page asks for, made before the first player arrives.
  await warmSharedAnswers(app);
  const close = async () => {
    await app.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void close());
  process.once('SIGINT', () => void close());
  // Fastify's own line would print the socket's address first ("Server listening at
  // http://127.0.0.1:3000"), which is not what people must open: the one address printed is
  // PUBLIC_URL's, and the socket is named without a scheme, as no address to open.
  await app.listen({
    port: config.port,
    host: config.host,
    listenTextResolver: (address) =>
      `Listening on ${address.replace(/^https?:\/\//, '')} (open the site at ${config.publicUrl})`,
  });
  if (cluster.isPrimary) {
    if (config.localLogin) app.log.warn(LOCAL_SIGN_IN_WARNING);
    app.log.info(`CTF site ready at ${config.publicUrl}${config.localLogin ? ' (local sign-in is on)' : ''}`);
  }
}

/**
 * WORKERS=N: the primary migrates once, then forks N processes that share the port (node:cluster)
 * and restarts any that dies. Every piece of state lives in the database (and Redis), so the
 * workers behave as one process.
 */
async function supervise(config: Config): Promise<void> {
  const database = await connectDatabase(config.database);
  await migrateToLatest(database.db as never);
  await database.close();
  // GET /metrics reaches one worker; the primary sums every worker's metrics for it.
  if (config.metricsToken !== null) await serveClusterMetrics();
  let stopping = false;
  for (let i = 0; i < config.workers; i++) cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    process.stderr.write(`worker ${worker.process.pid} exited (${signal ?? code}); starting another\n`);
    setTimeout(() => cluster.fork(), 500);
  });
  let ready = 0;
  cluster.on('listening', () => {
    ready += 1;
    if (ready === config.workers) {
      process.stdout.write(`CTF site ready at ${config.publicUrl} with ${config.workers} workers\n`);
    }
  });
  const stop = () => {
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    setTimeout(() => process.exit(0), 5000).unref();
    cluster.on('exit', () => {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    });
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

const config = readConfig();
const run = config.workers > 1 && cluster.isPrimary ? supervise(config) : serve(config);
run.catch((err: unknown) => fail(`Start-up failed: ${err instanceof Error ? err.message : String(err)}`));
