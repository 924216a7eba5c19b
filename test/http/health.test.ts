/**
 * `/healthz` and `/readyz` through both transports (the Fetch handler with `health`, serve() by default):
 * answered without a token, 200 `{"status":"ok"}`, or 503 in the error shape with the reason.
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createFetchHandler } from '../../src/adapters/fetch/index.js';
import { createHealth } from '../../src/adapters/health.js';
import { createPlatform } from '../../src/core/platform.js';
import { ErrorSchema } from '../../src/core/schemas.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { StoreUnavailableError } from '../../src/store/types.js';
import { httpSuite } from './harness.js';

/** An answer's status and parsed body. */
async function read(response: Response): Promise<{ status: number; body: any; headers: Headers }> {
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text), headers: response.headers };
}

httpSuite(
  'health',
  (h) => {
    it('answers /healthz and /readyz without a token: 200 {"status":"ok"}, not cached, with a request id', async () => {
      for (const path of ['/healthz', '/readyz']) {
        const reply = await read(await h().send(path));
        expect(reply.status).toBe(200);
        expect(reply.body).toEqual({ status: 'ok' });
        expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
        expect(reply.headers.get('cache-control')).toBe('no-store');
        expect(reply.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
        expect((await h().send(path, { method: 'HEAD' })).status).toBe(200);
      }
    });

    it('refuses other methods with 405 and Allow', async () => {
      const reply = await read(await h().send('/readyz', { method: 'POST' }));
      expect(reply.status).toBe(405);
      expect(reply.headers.get('allow')).toBe('GET, HEAD');
      expect(v.safeParse(ErrorSchema, reply.body).success).toBe(true);
    });

    it('answers /readyz 503 with the reason when the store does not take writes, while /healthz stays 200', async () => {
      h().platform.store.ready = async () => {
        throw new StoreUnavailableError('The database cannot be reached (connect ECONNREFUSED); try again');
      };
      const reply = await read(await h().send('/readyz'));
      expect(reply.status).toBe(503);
      expect(reply.body).toEqual({ error: { code: 503, message: 'Not ready: The database cannot be reached (connect ECONNREFUSED); try again' } });
      expect((await h().send('/healthz')).status).toBe(200);
    });
  },
  { pipeline: { health: true } },
);

describe('health in an embedding app (Fetch handler)', () => {
  it('is off by default: /healthz is the API 404', async () => {
    const platform = createPlatform({ store: createMemoryStore(), signingKey: 'k' });
    const handler = createFetchHandler(platform);
    expect((await handler(new Request('http://x/healthz'))).status).toBe(404);
  });

  it('takes a Health the app stops: /readyz answers 503 once stop() is called', async () => {
    const platform = createPlatform({ store: createMemoryStore(), signingKey: 'k' });
    const health = createHealth(platform);
    const handler = createFetchHandler(platform, { health });
    expect((await handler(new Request('http://x/readyz'))).status).toBe(200);
    health.stop();
    const reply = await read(await handler(new Request('http://x/readyz')));
    expect(reply).toMatchObject({ status: 503, body: { error: { code: 503, message: 'Not ready: The server is stopping' } } });
    expect((await handler(new Request('http://x/healthz'))).status).toBe(200);
  });

  it('is not ready once the store is closed', async () => {
    const platform = createPlatform({ store: createMemoryStore(), signingKey: 'k' });
    const handler = createFetchHandler(platform, { health: true });
    await platform.close();
    expect(await read(await handler(new Request('http://x/readyz')))).toMatchObject({ status: 503, body: { error: { message: 'Not ready: The store is closed' } } });
  });
});
