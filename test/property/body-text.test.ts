import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler } from '../../src/adapters/fetch/index.js';
import { manualClock } from '../../src/core/clock.js';
import { createPlatform } from '../../src/core/platform.js';
import { routes } from '../../src/core/routes.js';
import { Router } from '../../src/adapters/router.js';
import type { TablesData } from '../../src/store/engine.js';
import { assertMatchesSchema } from '../http/harness.js';
import { inspectableStore } from '../store/inspectable-store.js';
import { buildFixture, offlineFetch, type BodyRequest, type Fixture } from './body-text/fixture.js';
import { runs } from './runs.js';

/**
 * Whatever text a client puts in a JSON body, the answer is a success or a 4xx in the error shape, never a
 * 5xx, and a 4xx changes nothing stored. Every route with a body has a valid request (body-text/fixture.ts).
 * A run takes one and, at a slot chosen by position, replaces a value (a string one in half of the runs),
 * renames a key or adds one, with arbitrary text: any code points, lone surrogates among them (JSON allows
 * `"\ud800"`), alone or put inside the text that was there (so that it often still passes the field's rules
 * and reaches the operation and the presenters). Text that is not well-formed must be refused with a 400
 * saying so. Each run starts from the same stored state, on a platform of its own; work it starts in the
 * background must not fail either.
 */

const NUM_RUNS = Number(process.env.BODY_TEXT_RUNS ?? runs(1000));

/** Where in a body a run changes something: a value (any, nested ones too), a key, or a new key in an object. */
type Slot =
  | { readonly kind: 'value'; readonly path: readonly (string | number)[] }
  | { readonly kind: 'key'; readonly path: readonly (string | number)[]; readonly key: string }
  | { readonly kind: 'add'; readonly path: readonly (string | number)[] };

/** Every slot of a body, outside in. */
function slotsOf(value: unknown, path: readonly (string | number)[] = []): Slot[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => [{ kind: 'value', path: [...path, index] } as Slot, ...slotsOf(item, [...path, index])]);
  if (value === null || typeof value !== 'object') return [];
  const slots: Slot[] = [{ kind: 'add', path }];
  for (const [key, item] of Object.entries(value)) {
    slots.push({ kind: 'value', path: [...path, key] }, { kind: 'key', path, key }, ...slotsOf(item, [...path, key]));
  }
  return slots;
}

/** The slots of a body that hold a string, where most runs put their text; all slots when there is none. */
function stringSlotsOf(body: Record<string, unknown>): Slot[] {
  const slots = slotsOf(body).filter((slot) => slot.kind === 'value' && typeof slot.path.reduce<any>((node, key) => node[key], body) === 'string');
  return slots.length > 0 ? slots : slotsOf(body);
}

/** `text` put inside `old` at a position (modulo its length): the result often still passes the field's rules. */
function insertAt(old: string, text: string, at: number): string {
  const index = at % (old.length + 1);
  return old.slice(0, index) + text + old.slice(index);
}

/** The body with one slot changed to `text` (put inside the string or key there when `at` is given). */
function changed(body: Record<string, unknown>, slot: Slot, text: string, at: number | undefined): Record<string, unknown> {
  const copy = structuredClone(body);
  const parentPath = slot.kind === 'value' ? slot.path.slice(0, -1) : slot.path;
  const parent = parentPath.reduce<any>((node, key) => node[key], copy);
  if (slot.kind === 'value') {
    const key = slot.path[slot.path.length - 1];
    const old = parent[key];
    parent[key] = typeof old === 'string' && at !== undefined ? insertAt(old, text, at) : text;
  } else if (slot.kind === 'key') {
    const value = parent[slot.key];
    delete parent[slot.key];
    parent[at === undefined ? text : insertAt(slot.key, text, at)] = value;
  } else {
    parent[text] = at === undefined ? text : {};
  }
  return copy;
}

/** Whether every string in a value, keys included, is well-formed. */
function wellFormed(value: unknown): boolean {
  if (typeof value === 'string') return value.isWellFormed();
  if (value === null || typeof value !== 'object') return true;
  return Object.entries(value).every(([key, item]) => key.isWellFormed() && wellFormed(item));
}

/** The tables without the empty ones (a store may make a table when it is first read). */
function nonEmpty(tables: TablesData): TablesData {
  return Object.fromEntries(Object.entries(tables).filter(([, records]) => Object.keys(records).length > 0));
}

/** One code unit of a lone surrogate. */
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit));
/** Any code point (fast-check's `binary` unit leaves out surrogates), or a lone surrogate now and then. */
const unit = fc.oneof({ weight: 12, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) }, { weight: 1, arbitrary: loneSurrogate });
const text = fc.oneof(fc.string({ unit, maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 12 }), fc.constantFrom('', '\ud800', '\udc00', 'a\ud83d', '\ude00b'));

let fixture: Fixture;
const router = new Router(routes);

/** Sends one request to a new platform over a copy of the fixture's state; returns the answer and the state after. */
async function send(request: BodyRequest) {
  const store = inspectableStore(fixture.tables);
  const backgroundErrors: unknown[] = [];
  const platform = createPlatform({
    store,
    clock: manualClock(fixture.now),
    signingKey: 'test-signing-key',
    blobs: fixture.blobs,
    fetch: offlineFetch,
    onBackgroundError: (error) => void backgroundErrors.push(error),
  });
  try {
    const response = await createFetchHandler(platform)(
      new Request(`http://docs.test${request.path}`, {
        method: request.method,
        headers: { authorization: `Bearer ${fixture.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(request.body),
      }),
    );
    const responseText = await response.text();
    const answer = { status: response.status, headers: response.headers, text: responseText, body: responseText === '' ? undefined : JSON.parse(responseText) };
    await platform.settle();
    expect(backgroundErrors).toEqual([]);
    return { answer, tables: store.tables() };
  } finally {
    await platform.close();
  }
}

describe('any text in any body field', () => {
  beforeAll(async () => {
    fixture = await buildFixture();
  }, 30_000);

  it('has a valid request for every route with a body, and each one succeeds', async () => {
    const withBody = routes.filter((route) => route.operation.body !== null && Object.keys(route.operation.body).length > 0);
    const covered = new Set(fixture.requests.map((request) => {
      const match = router.match(request.method, request.path);
      return match.kind === 'route' ? match.route : undefined;
    }));
    expect(withBody.filter((route) => !covered.has(route)).map((route) => `${route.method} ${route.path}`)).toEqual([]);
    const failures: string[] = [];
    for (const request of fixture.requests) {
      const { answer } = await send(request);
      if (answer.status >= 300) failures.push(`${request.method} ${request.path}: ${answer.text}`);
    }
    expect(failures).toEqual([]);
  });

  it('answers 2xx, or a 4xx in the error shape that changes nothing; never a 5xx', async () => {
    const before = nonEmpty(fixture.tables);
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.boolean(), fc.nat(), text, fc.option(fc.nat(), { freq: 2 }), async (which, anySlot, where, value, at) => {
        const request = fixture.requests[which % fixture.requests.length];
        const slots = anySlot ? slotsOf(request.body) : stringSlotsOf(request.body);
        const slot = slots[where % slots.length];
        const body = changed(request.body, slot, value, at ?? undefined);
        const label = `${request.method} ${request.path} ${JSON.stringify(body).slice(0, 300)}`;
        const { answer, tables } = await send({ ...request, body });
        expect(answer.status, `${label}: ${answer.text}`).toBeLessThan(500);
        assertMatchesSchema(request.method, request.path, answer);
        if (!wellFormed(body)) {
          expect(answer.status, label).toBe(400);
          expect(answer.body.error.message, label).toMatch(/must be well-formed Unicode text/);
        }
        if (answer.status >= 400) expect(nonEmpty(tables), label).toEqual(before);
      }),
      { numRuns: NUM_RUNS },
    );
  }, 60_000);
});
