import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOutboundFetch, OutboundRefusal, type Resolve } from '../../src/outbound/fetch.js';

/**
 * The outbound fetch on node:http: what it refuses (before any socket connects: every test of a refusal
 * makes connecting throw, so it could send nothing anywhere even if the fetch were wrong), and what it does
 * with what it allows, against a fixture server on 127.0.0.1 that the allow list names explicitly.
 * Host names are resolved by an injected lookup: no test asks DNS.
 */

/** What the injected lookup knows; any other name fails as an unknown one does. */
const NAMES: Record<string, string[]> = {
  'inside.test': ['10.0.0.1'],
  'meta.test': ['169.254.169.254'],
  'mapped.test': ['::ffff:127.0.0.1'],
  'unique-local.test': ['fd00::1'],
  'mixed.test': ['192.0.2.10', '10.0.0.1'],
  localhost: ['127.0.0.1', '::1'],
  'localhost.': ['127.0.0.1'],
  'fixture.test': ['127.0.0.1'],
};

/** The injected lookup, counting the names it was asked. */
function fakeLookup(names: Record<string, string[]> = NAMES) {
  const asked: string[] = [];
  const lookup: Resolve = async (hostname) => {
    asked.push(hostname);
    const addresses = names[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { lookup, asked };
}

/** Makes every attempt to connect a socket throw (and so send nothing), and records it. */
function forbidConnecting() {
  return vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(() => {
    throw new Error('this test must not connect anywhere');
  });
}

/** The cause a refused fetch carries (for logs): what was refused and why. */
async function refusal(promise: Promise<Response>): Promise<string> {
  const error = await promise.then(
    () => expect.unreachable('the fetch should have been refused'),
    (error: unknown) => error as TypeError,
  );
  expect(error).toBeInstanceOf(TypeError);
  expect(error.message).toBe('fetch failed');
  expect(error.cause).toBeInstanceOf(OutboundRefusal);
  return (error.cause as Error).message;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('refused before connecting', () => {
  it('refuses IP literals of inside addresses, in every form URL parsing accepts', async () => {
    const connect = forbidConnecting();
    const { lookup, asked } = fakeLookup();
    const fetch = createOutboundFetch({ lookup });
    const cases: [string, string][] = [
      ['http://127.0.0.2/', '127.0.0.2 is a loopback address'],
      ['http://0.0.0.0:8080/', '0.0.0.0 is a unspecified ("this network") address'],
      ['http://2130706433/', '127.0.0.1 is a loopback address'],
      ['http://0x7f.1/', '127.0.0.1 is a loopback address'],
      ['http://017700000001/', '127.0.0.1 is a loopback address'],
      ['http://[::1]/', '::1 is a loopback address'],
      ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1 is a loopback address'],
      ['http://[fe80::1]/', 'fe80::1 is a link-local address'],
      ['https://169.254.169.254/latest/meta-data/', '169.254.169.254 is a link-local address'],
      ['http://10.0.0.1/', '10.0.0.1 is a private address'],
      ['http://192.168.0.1/', '192.168.0.1 is a private address'],
      ['http://[64:ff9b::a00:1]/', '64:ff9b::a00:1 is a private, carried in IPv6 address'],
    ];
    for (const [url, why] of cases) expect(await refusal(fetch(url)), url).toBe(why);
    expect(asked).toEqual([]);
    expect(connect).not.toHaveBeenCalled();
  });

  it('refuses host names that resolve inside: checked after the lookup, before any socket', async () => {
    const connect = forbidConnecting();
    const { lookup, asked } = fakeLookup();
    const fetch = createOutboundFetch({ lookup });
    const cases: [string, string][] = [
      ['http://inside.test/', 'inside.test resolves to 10.0.0.1, a private address'],
      ['http://meta.test/latest/meta-data/', 'meta.test resolves to 169.254.169.254, a link-local address'],
      ['https://mapped.test/', 'mapped.test resolves to ::ffff:127.0.0.1, a loopback address'],
      ['http://unique-local.test/', 'unique-local.test resolves to fd00::1, a unique-local address'],
      // One inside address is enough to refuse the name: the socket could pick any of them.
      ['http://mixed.test/', 'mixed.test resolves to 10.0.0.1, a private address'],
      ['http://localhost:8080/', 'localhost resolves to 127.0.0.1, a loopback address'],
      ['http://LOCALHOST./', 'localhost. resolves to 127.0.0.1, a loopback address'],
    ];
    for (const [url, why] of cases) expect(await refusal(fetch(url)), url).toBe(why);
    expect(asked).toEqual(['inside.test', 'meta.test', 'mapped.test', 'unique-local.test', 'mixed.test', 'localhost', 'localhost.']);
    expect(connect).not.toHaveBeenCalled();
  });

  it('refuses other schemes and other methods', async () => {
    const connect = forbidConnecting();
    const fetch = createOutboundFetch({ lookup: fakeLookup().lookup });
    expect(await refusal(fetch('file:///etc/passwd'))).toBe('file: URLs are not fetched');
    expect(await refusal(fetch('ftp://example.test/x'))).toBe('ftp: URLs are not fetched');
    expect(await refusal(fetch('http://fixture.test/', { method: 'POST', body: 'x' }))).toBe('only GET and HEAD requests without a body are sent');
    expect(connect).not.toHaveBeenCalled();
  });

  it('fails an unknown name as any other failure: a TypeError "fetch failed" with the cause inside', async () => {
    const connect = forbidConnecting();
    const fetch = createOutboundFetch({ lookup: fakeLookup().lookup });
    const error = await fetch('http://nowhere.test/').catch((error: unknown) => error as TypeError);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe('fetch failed');
    expect(((error as TypeError).cause as Error).message).toBe('getaddrinfo ENOTFOUND nowhere.test');
    expect(connect).not.toHaveBeenCalled();
  });
});

/** A fixture server on 127.0.0.1: `/ok`, `/gzip`, redirects, a body that never ends, and the headers it got. */
let fixture: Server;
let base: string;
let other: Server;
let otherBase: string;
const received: { path: string; headers: IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  const start = async (server: Server) => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  fixture = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    received.push({ path: url.pathname, headers: req.headers });
    const to = url.searchParams.get('to');
    if (url.pathname === '/redirect' && to) return void res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: to }).end();
    if (url.pathname === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
    if (url.pathname === '/ok') return void res.writeHead(200, { 'content-type': 'text/plain', 'x-kind': 'ok' }).end('hello');
    if (url.pathname === '/gzip') return void res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('a'.repeat(100_000)));
    if (url.pathname === '/endless') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write('x'.repeat(1024)), 5);
      res.on('close', () => clearInterval(timer));
      return;
    }
    res.writeHead(404).end('no');
  });
  other = createServer((req, res) => {
    received.push({ path: `other${req.url}`, headers: req.headers });
    res.writeHead(200).end('other');
  });
  base = await start(fixture);
  otherBase = await start(other);
});

afterAll(async () => {
  for (const server of [fixture, other]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Lets the first `allowed` connections through (to the fixture on 127.0.0.1) and makes any later one throw. */
function connectAtMost(allowed: number) {
  const original = net.Socket.prototype.connect;
  let made = 0;
  return vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(function (this: net.Socket, ...args: unknown[]) {
    if (++made > allowed) throw new Error(`connection ${made} must not be made`);
    return (original as (...args: unknown[]) => net.Socket).apply(this, args);
  });
}

describe('allowed explicitly: 127.0.0.1 for the local fixture', () => {
  it('refuses the fixture when the allow list does not name it, before connecting', async () => {
    const connect = forbidConnecting();
    expect(await refusal(createOutboundFetch()(`${base}/ok`))).toBe('127.0.0.1 is a loopback address');
    expect(connect).not.toHaveBeenCalled();
  });

  it('fetches from an allowed address: status, headers, body, and the request headers given', async () => {
    const fetch = createOutboundFetch({ allow: '127.0.0.1' });
    const response = await fetch(`${base}/ok`, { headers: { accept: 'text/plain' } });
    expect([response.status, response.headers.get('x-kind'), await response.text()]).toEqual([200, 'ok', 'hello']);
    expect(received.at(-1)!.headers).toMatchObject({ accept: 'text/plain', 'user-agent': 'docs-platform', host: base.slice('http://'.length) });
    expect((await fetch(`${base}/missing`)).status).toBe(404);
  });

  it('allows a host name entry whatever it resolves to, and asks the lookup once per hop (no second resolution to rebind)', async () => {
    let calls = 0;
    // Resolves to 127.0.0.1 once, then to an address that must never be reached.
    const rebinding: Resolve = async () => [{ address: calls++ === 0 ? '127.0.0.1' : '10.0.0.1', family: 4 }];
    const port = new URL(base).port;
    const byName = createOutboundFetch({ allow: ['rebind.test'], lookup: rebinding });
    connectAtMost(1);
    expect(await (await byName(`http://rebind.test:${port}/ok`)).text()).toBe('hello');
    expect(calls).toBe(1);
    expect(received.at(-1)!.headers.host).toBe(`rebind.test:${port}`);
  });

  it('decodes a gzip body and drops the headers that described the encoding', async () => {
    const response = await createOutboundFetch({ allow: '127.0.0.1' })(`${base}/gzip`);
    expect(response.headers.get('content-encoding')).toBeNull();
    expect((await response.text()).length).toBe(100_000);
  });

  it('follows redirects, checking each hop: a hop to an inside host is refused before it connects', async () => {
    const { lookup } = fakeLookup();
    const fetch = createOutboundFetch({ allow: '127.0.0.1', lookup });
    expect(await (await fetch(`${base}/redirect?to=/ok`)).text()).toBe('hello');
    for (const [to, why] of [
      ['http://inside.test/x', 'inside.test resolves to 10.0.0.1, a private address'],
      ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is a link-local address'],
      ['http://[::1]:1/', '::1 is a loopback address'],
      ['file:///etc/passwd', 'file: URLs are not fetched'],
    ]) {
      const hits = received.length;
      const connect = connectAtMost(1);
      expect(await refusal(fetch(`${base}/redirect?status=307&to=${encodeURIComponent(to)}`)), to).toBe(why);
      expect(connect).toHaveBeenCalledTimes(1);
      expect(received.length).toBe(hits + 1);
      vi.restoreAllMocks();
    }
  });

  it('stops after 10 redirects, and follows none when told', async () => {
    const fetch = createOutboundFetch({ allow: '127.0.0.1' });
    expect(await refusal(fetch(`${base}/loop`))).toBe('more than 10 redirects');
    const manual = await fetch(`${base}/loop`, { redirect: 'manual' });
    expect([manual.status, manual.headers.get('location')]).toEqual([302, '/loop']);
    expect(await refusal(fetch(`${base}/loop`, { redirect: 'error' }))).toBe('redirected to /loop');
  });

  it('drops credentials on a redirect to another origin', async () => {
    const fetch = createOutboundFetch({ allow: '127.0.0.1' });
    const response = await fetch(`${base}/redirect?to=${encodeURIComponent(`${otherBase}/x`)}`, { headers: { authorization: 'Bearer secret', accept: 'x/y' } });
    expect(await response.text()).toBe('other');
    const last = received.at(-1)!;
    expect([last.path, last.headers.authorization, last.headers.accept]).toEqual(['other/x', undefined, 'x/y']);
  });

  it('ends the exchange when the signal aborts, before the answer or while the body streams', async () => {
    const fetch = createOutboundFetch({ allow: '127.0.0.1' });
    const before = new AbortController();
    before.abort(new Error('stop'));
    await expect(fetch(`${base}/ok`, { signal: before.signal })).rejects.toThrow('stop');
    const during = new AbortController();
    const response = await fetch(`${base}/endless`, { signal: during.signal });
    const reader = response.body!.getReader();
    expect((await reader.read()).value!.byteLength).toBeGreaterThan(0);
    during.abort(new Error('enough'));
    await expect(
      (async () => {
        for (;;) if ((await reader.read()).done) return;
      })(),
    ).rejects.toThrow('enough');
  });
});
