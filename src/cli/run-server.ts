import { createPlatform } from '../core/platform.js';
import { isInitialized } from '../core/setup/operator.js';
import { serve } from '../adapters/node-http/index.js';
import { createJsonFileStore } from '../store/json-file.js';

/** Where the server keeps its data and where it listens. */
export interface ServerSettings {
  data: string;
  port: number;
  host: string;
  /** The public base URL for the URLs in responses; default the origin of each request. */
  baseUrl?: string;
}

/**
 * Runs the bundled server over the JSON-file store until SIGTERM or SIGINT, then stops accepting,
 * lets in-flight requests finish, flushes the store and resolves. On a first start it creates an
 * organization, its owner and a token, and prints the token once.
 */
export async function runServer(settings: ServerSettings, print: (line: string) => void): Promise<void> {
  const store = await createJsonFileStore({ path: settings.data });
  const platform = createPlatform({ store, baseUrl: settings.baseUrl });
  if (!(await isInitialized(store))) {
    const created = await platform.initialize();
    print(`First start: created organization ${created.organizationId} and its owner ${created.userId} (role admin).`);
    print(`API token of the owner (shown once, keep it safe): ${created.token}`);
  }
  const running = await serve({
    platform,
    port: settings.port,
    host: settings.host,
    log: (line) => process.stderr.write(`${new Date().toISOString()} ${line}\n`),
  });
  print(`docs-platform listening on ${running.url} (data: ${settings.data})`);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      print(`${signal}: finishing in-flight requests, then stopping`);
      process.once(signal, () => process.exit(1));
      resolve();
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  await running.close();
  await platform.close();
}
