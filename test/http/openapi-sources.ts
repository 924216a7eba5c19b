import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server of OpenAPI sources for the OpenAPI specification tests, on 127.0.0.1 and port 0:
 * good documents in each format, and sources that are slow, broken, unparseable or not OpenAPI.
 */

/** A good OpenAPI 3.1 document, with an internal `$ref`. */
export const PETSTORE_31 = {
  openapi: '3.1.0',
  info: { title: 'Petstore', version: '1.0.0' },
  paths: {
    '/pets': {
      get: {
        operationId: 'listPets',
        responses: {
          '200': { description: 'The pets', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } } } },
        },
      },
    },
  },
  components: { schemas: { Pet: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, tag: { type: ['string', 'null'] } } } } },
};

/** A good OpenAPI 3.0 document written in YAML (with a comment, an anchor and an alias), and what it reads as. */
export const INVENTORY_30_YAML = `# The inventory API
openapi: 3.0.3
info:
  title: Inventory
  version: "2.1"
paths:
  /items:
    get:
      responses:
        "200": &ok
          description: OK
  /items/{id}:
    get:
      parameters:
        - name: id
          in: path
          required: true
          schema:
            type: integer
      responses:
        "200": *ok
`;
export const INVENTORY_30 = {
  openapi: '3.0.3',
  info: { title: 'Inventory', version: '2.1' },
  paths: {
    '/items': { get: { responses: { '200': { description: 'OK' } } } },
    '/items/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '200': { description: 'OK' } },
      },
    },
  },
};

/** A good Swagger 2.0 document. */
export const SWAGGER_20 = {
  swagger: '2.0',
  info: { title: 'Legacy', version: '0.9' },
  host: 'legacy.example.com',
  basePath: '/v1',
  paths: { '/ping': { get: { responses: { '200': { description: 'pong' } } } } },
};

/** Texts that are not OpenAPI documents, each a `PARSE_ERROR`. */
export const NOT_OPENAPI: Record<string, string> = {
  'truncated.json': JSON.stringify(PETSTORE_31).slice(0, 80),
  'bad.yaml': 'openapi: 3.1.0\ninfo: [unclosed\n  title: x\n',
  'plain.txt': 'Just some words, not a document.',
  'array.json': '[1, 2, 3]',
  'other.json': JSON.stringify({ hello: 'world' }),
  'no-info.json': JSON.stringify({ openapi: '3.1.0', paths: {} }),
  'numeric-version.yaml': 'openapi: 3.1\ninfo:\n  title: x\n  version: "1"\npaths: {}\n',
  'openapi-4.json': JSON.stringify({ ...PETSTORE_31, openapi: '4.0.0' }),
  'broken-ref.json': JSON.stringify({ ...PETSTORE_31, components: { schemas: {} } }),
  'external-ref.json': JSON.stringify({ ...PETSTORE_31, components: { schemas: { Pet: { $ref: 'https://example.com/pet.json' } } } }),
  'two-docs.yaml': `${INVENTORY_30_YAML}---\n${INVENTORY_30_YAML}`,
};

/** The running server: its base URL, a document the test can change, and a gate that holds one source. */
export interface SourceServer {
  readonly base: string;
  /** The text served at `/mutable.json`. */
  mutable: string;
  /** How many requests each path received. */
  readonly hits: Map<string, number>;
  /** Resolves when `/gated.json` has been requested; `release(text)` answers it. */
  gate(): { arrived: Promise<void>; release: (text: string) => void };
  /** A URL on a port nobody listens on. */
  readonly refused: string;
  close(): Promise<void>;
}

const json = (res: ServerResponse, value: unknown) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(typeof value === 'string' ? value : JSON.stringify(value));
};

/** Starts the source server. */
export async function startSourceServer(): Promise<SourceServer> {
  const hits = new Map<string, number>();
  let pendingGate: { arrive: () => void; answer?: (text: string) => void } | undefined;
  const state = { mutable: JSON.stringify(PETSTORE_31) };
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const name = path.slice(1);
    if (path === '/petstore-31.json') return json(res, PETSTORE_31);
    if (path === '/inventory-30.yaml') {
      res.writeHead(200, { 'content-type': 'application/yaml' });
      return res.end(INVENTORY_30_YAML);
    }
    if (path === '/swagger-20.json') return json(res, SWAGGER_20);
    if (path === '/mutable.json') return json(res, state.mutable);
    if (path === '/redirect') {
      res.writeHead(302, { location: '/petstore-31.json' });
      return res.end();
    }
    if (path === '/slow.json') return void setTimeout(() => !res.destroyed && json(res, PETSTORE_31), 10_000).unref();
    if (path === '/slow-body.json') {
      // Headers and the start of the body at once, the rest never: the timeout covers the body too.
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.write(JSON.stringify(PETSTORE_31).slice(0, 20));
    }
    if (path === '/reset') return void req.socket.destroy();
    if (path === '/error.json') {
      res.writeHead(500, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(PETSTORE_31));
    }
    if (path === '/huge.json') {
      // A valid document padded past the 5 MiB limit.
      res.writeHead(200, { 'content-type': 'application/json' });
      const head = JSON.stringify(PETSTORE_31).slice(0, -1);
      return res.end(`${head}, "x-padding": "${'x'.repeat(5 * 1024 * 1024)}"}`);
    }
    if (path === '/gated.json') {
      const gate = pendingGate;
      if (!gate) return json(res, PETSTORE_31);
      gate.answer = (text) => json(res, text);
      gate.arrive();
      return;
    }
    if (name in NOT_OPENAPI) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end(NOT_OPENAPI[name]);
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  // A port that was free a moment ago: connecting to it is refused.
  const spare = createServer();
  await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
  const sparePort = (spare.address() as AddressInfo).port;
  await new Promise<void>((resolve) => spare.close(() => resolve()));
  return {
    base: `http://127.0.0.1:${port}`,
    get mutable() {
      return state.mutable;
    },
    set mutable(text: string) {
      state.mutable = text;
    },
    hits,
    gate() {
      let arrive!: () => void;
      const arrived = new Promise<void>((resolve) => (arrive = resolve));
      const gate: NonNullable<typeof pendingGate> = { arrive };
      pendingGate = gate;
      return {
        arrived,
        release: (text) => {
          pendingGate = undefined;
          gate.answer?.(text);
        },
      };
    },
    refused: `http://127.0.0.1:${sparePort}/petstore-31.json`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
