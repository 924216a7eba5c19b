/**
 * `npm start`: the bundled server, configured by PORT, HOST, DOCS_PLATFORM_DATA (a JSON file or a
 * PostgreSQL URL), DOCS_PLATFORM_BASE_URL, DOCS_PLATFORM_FETCH_ALLOW (what outbound fetches may reach
 * besides the public internet) and DOCS_PLATFORM_WORKERS (server processes, PostgreSQL only).
 */
import { ClusterNeedsPostgresError, runCluster } from './cli/cluster.js';
import { serverEnvironment } from './cli/environment.js';
import { runServer } from './cli/run-server.js';
import { reportFatal } from './cli/fatal.js';

const port = Number(process.env.PORT ?? 8080);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, not ${JSON.stringify(process.env.PORT)}`);
  process.exit(2);
}

const workers = process.env.DOCS_PLATFORM_WORKERS ? Number(process.env.DOCS_PLATFORM_WORKERS) : undefined;
if (workers !== undefined && (!Number.isInteger(workers) || workers < 1 || workers > 64)) {
  console.error(`DOCS_PLATFORM_WORKERS must be 1 to 64, not ${JSON.stringify(process.env.DOCS_PLATFORM_WORKERS)}`);
  process.exit(2);
}

let environment: ReturnType<typeof serverEnvironment>;
try {
  environment = serverEnvironment();
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}

const settings = {
  data: process.env.DOCS_PLATFORM_DATA || './data/docs-platform.json',
  port,
  host: process.env.HOST || '127.0.0.1',
  ...environment,
};
const print = (line: string) => console.log(line);

(workers === undefined ? runServer(settings, print) : runCluster(settings, workers, print)).then(
  () => process.exit(0),
  (error) => {
    if (error instanceof ClusterNeedsPostgresError) {
      console.error(`error: DOCS_PLATFORM_WORKERS ${error.message}`);
      process.exit(2);
    }
    reportFatal(error);
  },
);
