// The baseline: a bare Fastify server answering a small JSON object. Every scenario's throughput
// is reported as a ratio to this, measured in the same run on the same machine.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.stdout.write('ready\n');
