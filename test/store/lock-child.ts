/**
 * A child process for the lock tests. It takes the lock of the data file argv[2] (at once, or on SIGUSR1
 * after printing `ready` when argv[3] is `on-signal`), prints `locked <pid>` and holds the lock until
 * killed, or prints `refused <message>` and exits 1.
 */
import { acquireLock } from '../../src/store/lock-file.js';

const [path, when] = process.argv.slice(2);
if (when === 'on-signal') {
  const waiting = setInterval(() => undefined, 1 << 30); // a signal handler alone does not keep node running
  await new Promise((resolve) => {
    process.once('SIGUSR1', resolve);
    console.log('ready');
  });
  clearInterval(waiting);
}
try {
  await acquireLock(path!);
  console.log(`locked ${process.pid}`);
  setInterval(() => undefined, 1 << 30);
} catch (error) {
  console.log(`refused ${(error as Error).message}`);
  process.exitCode = 1;
}
