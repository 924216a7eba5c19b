/**
 * A ceiling: a bare node:http server that answers every request with one fixed JSON document, run as
 * a child process exactly like the server under test. `small` answers a small object; `list` answers
 * a list envelope of 100 objects of about 300 bytes each, shaped like the member objects the API
 * returns. The document is stringified on every request, as any real handler must, so that a ratio to
 * a ceiling measures what the platform adds (routing, authentication, validation, the store,
 * presenting) and not the JSON rendering that any server of that response pays.
 */
import { createServer } from 'node:http';
import { LIST_ENVELOPE, SMALL_OBJECT } from './ceiling-documents.js';
import { runAsChild } from './child.js';

/** What a ceiling child reports. */
export interface CeilingInfo {
  url: string;
  /** The size of the answer in bytes. */
  bytes: number;
}

const HEADERS = { 'content-type': 'application/json; charset=utf-8' };

runAsChild<CeilingInfo>(async () => {
  const kind = process.argv[2];
  if (kind !== 'small' && kind !== 'list') throw new Error(`usage: ceiling-server.ts small|list, not ${kind}`);
  const document = kind === 'small' ? SMALL_OBJECT : LIST_ENVELOPE;
  const server = createServer((req, res) => {
    // Drain any body, as the platform's adapter does before answering.
    req.resume();
    res.writeHead(200, HEADERS);
    res.end(JSON.stringify(document));
  });
  server.keepAliveTimeout = 5_000; // as serve() sets it
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    info: { url: `http://127.0.0.1:${port}`, bytes: Buffer.byteLength(JSON.stringify(document)) },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
});
