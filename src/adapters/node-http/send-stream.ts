import type { ServerResponse } from 'node:http';
import type { BodyStream } from '../plain.js';

/** Resolves once the socket took what was written (drain), or the connection closed. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Writes a body that comes in pieces (chunked, after writeHead): each piece as soon as it comes, the next
 * asked for only once the socket took the last, so that a slow client holds no more than a piece in memory.
 * A client that went away stops it (the pieces' iterator is returned: no more is made). An error while the
 * pieces are made cuts the answer short, as the status is already sent, and goes to `failed`.
 */
export async function writeStream(res: ServerResponse, body: BodyStream, failed: (error: unknown) => void): Promise<void> {
  try {
    for await (const piece of body) {
      if (res.destroyed) return;
      if (!res.write(piece)) await drained(res);
      if (res.destroyed) return;
    }
    res.end();
  } catch (error) {
    failed(error);
    res.destroy();
  }
}
