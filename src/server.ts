/** `npm start`: the bundled server, configured by PORT, HOST and DOCS_PLATFORM_DATA. */
import { runServer } from './cli/run-server.js';
import { reportFatal } from './cli/fatal.js';

const port = Number(process.env.PORT ?? 8080);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, not ${JSON.stringify(process.env.PORT)}`);
  process.exit(2);
}

runServer(
  {
    data: process.env.DOCS_PLATFORM_DATA || './data/docs-platform.json',
    port,
    host: process.env.HOST || '127.0.0.1',
    baseUrl: process.env.DOCS_PLATFORM_BASE_URL || undefined,
  },
  (line) => console.log(line),
).then(() => process.exit(0), reportFatal);
