import { createApp } from './src/app.mjs';

const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 8080);

const server = createApp().listen(port, host, () => {
  console.log(`listening on http://${host}:${server.address().port}/v1`);
});

process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
