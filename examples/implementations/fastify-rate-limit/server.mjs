import { buildApp } from './src/app.mjs';

const app = await buildApp();
const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 8080);
await app.listen({ host, port });
console.log(`listening on http://${host}:${app.server.address().port}/v1`);

process.on('SIGTERM', async () => {
  await app.close();
  process.exit(0);
});
