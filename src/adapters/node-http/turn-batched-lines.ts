import { pino } from 'pino';
import type { LogDestination } from './log-destination.js';

/** Lines held at most before they are written mid-turn, in characters: a turn of many answers writes in parts. */
const MAX_HELD = 64 * 1024;

/**
 * A log file (or 1, stdout) whose lines are written together at the end of each turn of the event loop: under
 * load a turn answers several requests, and each write is a system call (a write a line cost ~1.5 µs a
 * request more, in process with 10 requests a turn). A line waits only for the rest of its turn, so a
 * `tail -f` sees it at once. Lines still held when the process exits (a fatal error included) are written
 * by its 'exit' handler; a kill -9 loses the lines of the turn it lands in.
 */
export function turnBatchedLines(dest: number | string): LogDestination {
  // Synchronous writes, which retry a pipe that is full (EAGAIN) rather than drop the lines.
  const out = pino.destination({ dest, sync: true });
  let held = '';
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (held === '') return;
    const lines = held;
    held = '';
    out.write(lines);
  };
  process.once('exit', flush);
  return {
    write(line) {
      held += line;
      if (held.length >= MAX_HELD) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
  };
}
