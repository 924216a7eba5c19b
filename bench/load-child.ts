/**
 * Child process: a paced load (load.ts, startPacedLoad) in a process of its own, started with its settings as
 * JSON in argv[2]; any message asks for its figures, which it sends back once its requests are answered.
 */
import { runAsChild } from './child.js';
import { startPacedLoad } from './load.js';

interface LoadSettings {
  url: string;
  path: string;
  headers: Record<string, string>;
  rate: number;
  expectedStatus: number;
  pid?: number;
}

runAsChild(async () => {
  const { url, path, headers, rate, expectedStatus, pid } = JSON.parse(process.argv[2]) as LoadSettings;
  const load = startPacedLoad(url, path, headers, rate, expectedStatus, pid);
  process.once('message', () => void load.stop().then((figures) => process.send!(figures)));
  return { info: {} };
});
