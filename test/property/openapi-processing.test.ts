import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify as stringifyYaml } from 'yaml';
import { manualClock } from '../../src/core/clock.js';
import type { Fetch } from '../../src/core/context.js';
import { ApiError } from '../../src/core/errors.js';
import { createPlatform, type Api, type Platform } from '../../src/core/platform.js';
import { createMemoryStore } from '../../src/store/memory.js';
import type { Store } from '../../src/store/types.js';
import { runs } from './runs.js';

/**
 * Processing an OpenAPI specification checked against a model (fast-check's musicPlayer pattern): random
 * sequences of PUTs whose source succeeds with one of three documents (in JSON or YAML), serves the latest
 * document again (unchanged), times out (with a fetch that honours its abort signal or one that ignores it),
 * fails to fetch, or is not OpenAPI; text sources; and runs that die because a store write fails (at the
 * claim or at the finish) and are taken over by a read once the deadline has passed.
 *
 * The model is plain data: the documents of the versions in order, the last error code, and whether the
 * specification exists. Its rules: a document other than the latest one adds a version; the latest one again
 * adds none; a failure adds none and records its code; a success clears it. After every step the API must
 * show `complete`, that error code, that many versions, newest first, each with its document, and the latest.
 */

const NUM_RUNS = runs(60);
const TIMEOUT_MS = 10;
/** processing.ts: a run is dead once it held the specification for the fetch timeout plus 60 seconds. */
const DEADLINE_MS = TIMEOUT_MS + 60_000;
const SLUG = 'subject';

/** Three different OpenAPI documents: 3.1, 3.0 and Swagger 2.0. */
const DOCUMENTS: Record<string, unknown>[] = [
  { openapi: '3.1.0', info: { title: 'A', version: '1' }, paths: { '/a': { get: { responses: { '200': { description: 'ok' } } } } } },
  { openapi: '3.0.3', info: { title: 'B', version: '2' }, paths: {} },
  { swagger: '2.0', info: { title: 'C', version: '3' }, paths: { '/c': { get: { responses: { '200': { description: 'ok' } } } } } },
];

type ErrorCode = 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR';

/** What the source of one PUT does. */
type Outcome =
  | { kind: 'document'; document: number; yaml: boolean }
  | { kind: 'unchanged'; yaml: boolean }
  | { kind: 'timeout'; honoursAbort: boolean }
  | { kind: 'fetch-error'; status: 'network' | 404 | 500 }
  | { kind: 'parse-error'; text: string };

interface Model {
  exists: boolean;
  /** The document index of each version, oldest first. */
  versions: number[];
  error: ErrorCode | undefined;
}

interface Real {
  platform: Platform;
  clock: ReturnType<typeof manualClock>;
  organizationId: string;
  owner: Api;
  /** What each source URL answers. */
  script: Map<string, () => Promise<Response>>;
  /** Makes the store fail its n-th write from now (1: the next one). */
  failWrite(n: number): void;
  /** Errors that escaped background runs. */
  escaped: unknown[];
  urls: number;
}

const texts = (document: number, yaml: boolean) => (yaml ? stringifyYaml(DOCUMENTS[document]) : JSON.stringify(DOCUMENTS[document], null, 1));

/** The model after an outcome. `unchanged` serves the latest document, so it is a document outcome. */
function apply(model: Model, outcome: Outcome): void {
  model.exists = true;
  if (outcome.kind === 'document' || outcome.kind === 'unchanged') {
    const document = outcome.kind === 'document' ? outcome.document : model.versions[model.versions.length - 1];
    if (model.versions[model.versions.length - 1] !== document) model.versions.push(document);
    model.error = undefined;
    return;
  }
  model.error = outcome.kind === 'timeout' ? 'FETCH_TIMEOUT' : outcome.kind === 'fetch-error' ? 'FETCH_ERROR' : 'PARSE_ERROR';
}

/** The response a scripted source gives. */
function respond(outcome: Outcome, model: Model): (init?: RequestInit) => Promise<Response> {
  switch (outcome.kind) {
    case 'document':
      return async () => new Response(texts(outcome.document, outcome.yaml));
    case 'unchanged':
      return async () => new Response(texts(model.versions[model.versions.length - 1], outcome.yaml));
    case 'timeout':
      return (init) =>
        new Promise((_, reject) => {
          if (outcome.honoursAbort) init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        });
    case 'fetch-error':
      return async () => {
        if (outcome.status === 'network') throw new TypeError('fetch failed');
        return new Response('{}', { status: outcome.status });
      };
    case 'parse-error':
      return async () => new Response(outcome.text);
  }
}

/** Runs an operation and returns the status it failed with, or its result. */
async function attempt<T>(action: () => Promise<T>): Promise<T | number> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    throw error;
  }
}

/** Compares what the API shows about the specification with the model. */
async function verify(model: Model, real: Real, state: 'pending' | 'progress' | 'complete' = 'complete') {
  const { owner, organizationId } = real;
  const at = { organizationId, specSlug: SLUG };
  const spec = await attempt(() => owner.getOpenAPISpec(at));
  if (!model.exists) {
    expect(spec).toBe(404);
    return;
  }
  if (typeof spec === 'number') throw new Error(`GET answered ${spec}`);
  expect(spec.processingState).toBe(state);
  expect(spec.lastProcessErrorCode).toBe(model.error);
  const list = await owner.listOpenAPISpecVersions({ ...at, limit: 1000 });
  expect(list.count).toBe(model.versions.length);
  const documents = await Promise.all(
    list.items.map(async (version) => (await owner.getOpenAPISpecVersionContent({ ...at, versionId: version.id })).filesystem['openapi.json']),
  );
  expect(documents).toEqual([...model.versions].reverse().map((document) => DOCUMENTS[document]));
  const latest = await attempt(() => owner.getLatestOpenAPISpecVersionContent(at));
  if (model.versions.length === 0) {
    expect(latest).toBe(404);
    expect(spec.lastVersion).toBeUndefined();
  } else {
    expect(typeof latest === 'number' ? latest : latest.filesystem['openapi.json']).toEqual(DOCUMENTS[model.versions[model.versions.length - 1]]);
    expect(spec.lastVersion).toBe(list.items[0].id);
  }
}

/** PUTs a new source URL that does `outcome`, and waits for the run. */
class PutUrl implements fc.AsyncCommand<Model, Real> {
  constructor(readonly outcome: Outcome) {}
  check = (model: Readonly<Model>) => this.outcome.kind !== 'unchanged' || model.versions.length > 0;
  async run(model: Model, real: Real) {
    const url = `http://source.test/${++real.urls}.json`;
    real.script.set(url, respond(this.outcome, model) as () => Promise<Response>);
    const put = await real.owner.putOpenAPISpec({ organizationId: real.organizationId, specSlug: SLUG, source: { url } });
    expect(put.processingState).toBe('pending');
    expect(put.sourceURL).toBe(url);
    await real.platform.settle();
    apply(model, this.outcome);
    await verify(model, real);
  }
  toString() {
    return `putUrl(${JSON.stringify(this.outcome).slice(0, 80)})`;
  }
}

/** PUTs a text source: a document or not. */
class PutText implements fc.AsyncCommand<Model, Real> {
  constructor(readonly outcome: Extract<Outcome, { kind: 'document' | 'parse-error' }>) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const text = this.outcome.kind === 'document' ? texts(this.outcome.document, this.outcome.yaml) : this.outcome.text;
    const put = await real.owner.putOpenAPISpec({ organizationId: real.organizationId, specSlug: SLUG, source: { text } });
    expect(put.processingState).toBe('pending');
    expect(put.sourceURL).toBeUndefined();
    await real.platform.settle();
    apply(model, this.outcome);
    await verify(model, real);
  }
  toString() {
    return `putText(${JSON.stringify(this.outcome).slice(0, 80)})`;
  }
}

/**
 * A PUT whose run dies: the store fails the claim (left `pending`) or the finish (left `progress`). Reads
 * before the deadline leave it so; the first read past it starts a new run, which records the outcome.
 */
class DeadRun implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly outcome: Extract<Outcome, { kind: 'document' }>,
    readonly failAt: 'claim' | 'finish',
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const url = `http://source.test/${++real.urls}.json`;
    real.script.set(url, respond(this.outcome, model) as () => Promise<Response>);
    const escaped = real.escaped.length;
    // The PUT is the next write, the run's claim the one after it, then its finish.
    real.failWrite(this.failAt === 'claim' ? 2 : 3);
    await real.owner.putOpenAPISpec({ organizationId: real.organizationId, specSlug: SLUG, source: { url } });
    await real.platform.settle();
    expect(real.escaped.length).toBe(escaped + 1);
    model.exists = true;
    const stuck = this.failAt === 'claim' ? 'pending' : 'progress';
    await verify(model, real, stuck);
    real.clock.advance(DEADLINE_MS - 1);
    await real.platform.settle();
    await verify(model, real, stuck);
    real.clock.advance(1);
    // This read finds the run dead and schedules a new one.
    await real.owner.getOpenAPISpec({ organizationId: real.organizationId, specSlug: SLUG });
    await real.platform.settle();
    apply(model, this.outcome);
    await verify(model, real);
  }
  toString() {
    return `deadRun(${JSON.stringify(this.outcome)}, fails at ${this.failAt})`;
  }
}

/** Deletes the specification: its versions go with it. */
class Delete implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real) {
    const result = await attempt(() => real.owner.deleteOpenAPISpec({ organizationId: real.organizationId, specSlug: SLUG }));
    expect(result).toBe(model.exists ? undefined : 404);
    Object.assign(model, { exists: false, versions: [], error: undefined });
    await real.platform.settle();
    await verify(model, real);
  }
  toString() {
    return 'delete';
  }
}

const document = fc.record({ kind: fc.constant('document' as const), document: fc.nat({ max: DOCUMENTS.length - 1 }), yaml: fc.boolean() });
const parseError = fc.record({
  kind: fc.constant('parse-error' as const),
  text: fc.constantFrom('not: [closed', '[1, 2]', '{"openapi": "3.1.0"}', 'openapi: 3.1\ninfo: {title: x, version: "1"}\npaths: {}', '{"swagger": "2.0",'),
});
const outcome: fc.Arbitrary<Outcome> = fc.oneof(
  { arbitrary: document, weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('unchanged' as const), yaml: fc.boolean() }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('timeout' as const), honoursAbort: fc.boolean() }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('fetch-error' as const), status: fc.constantFrom('network' as const, 404 as const, 500 as const) }), weight: 1 },
  { arbitrary: parseError, weight: 1 },
);

const commands = [
  outcome.map((o) => new PutUrl(o)),
  fc.oneof(document, parseError).map((o) => new PutText(o)),
  fc.tuple(document, fc.constantFrom('claim' as const, 'finish' as const)).map(([o, at]) => new DeadRun(o, at)),
  fc.constant(new Delete()),
];

/** A store that can be told to fail one of its next writes, as a full disk or a lost database would. */
function failingStore(inner: Store) {
  let countdown = 0;
  const store: Store = {
    read: (fn) => inner.read(fn),
    write(fn, options) {
      if (countdown > 0 && --countdown === 0) return Promise.reject(new Error('injected store failure'));
      return inner.write(fn, options);
    },
    ready: () => inner.ready(),
    close: () => inner.close(),
  };
  return { store, failWrite: (n: number) => void (countdown = n) };
}

async function setup(): Promise<{ model: Model; real: Real }> {
  const clock = manualClock('2026-03-01T10:00:00.000Z');
  const script = new Map<string, () => Promise<Response>>();
  const fetch: Fetch = (url, init) => {
    const answer = script.get(url) as ((init?: RequestInit) => Promise<Response>) | undefined;
    return answer ? answer(init) : Promise.reject(new TypeError(`no script for ${url}`));
  };
  const { store, failWrite } = failingStore(createMemoryStore());
  const escaped: unknown[] = [];
  const platform = createPlatform({ store, clock, signingKey: 'property-key', fetch, fetchTimeoutMs: TIMEOUT_MS, onBackgroundError: (error) => escaped.push(error) });
  const init = await platform.initialize({ title: 'Acme Docs', email: 'owner@acme.test', name: 'Olive Owner' });
  return {
    model: { exists: false, versions: [], error: undefined },
    real: { platform, clock, organizationId: init.organizationId, owner: platform.as(init.userId), script, failWrite, escaped, urls: 0 },
  };
}

describe('OpenAPI specification processing against a model', () => {
  it('keeps the state, error code, versions and latest document as the model says', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 15 }), async (cmds) => {
        const { model, real } = await setup();
        await fc.asyncModelRun(() => ({ model, real }), cmds);
        for (const error of real.escaped) expect(String(error)).toMatch(/injected store failure/);
        await real.platform.close();
      }),
      { numRuns: NUM_RUNS },
    );
  }, 120_000);
});
