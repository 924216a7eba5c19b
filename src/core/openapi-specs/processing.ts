import type { Context, Ports } from '../context.js';
import type { ReadTransaction, WriteTransaction } from '../../store/types.js';
import { TABLES, type OpenAPIProcessErrorCode, type OpenAPISpecRecord, type OpenAPISpecVersionRecord } from '../records.js';
import { fetchSource } from './fetch-source.js';
import { parseSpecificationJob, type ParsedSpecification } from './parse.js';
import { JobLimitError } from '../workers.js';

/**
 * Processing a specification: `pending` (asked for, committed with the request) → `progress` (a run has
 * claimed it) → `complete` (a new version, the same document again, or a failure code). It runs in the
 * background, after the response: fetching a URL must never hold a store transaction open.
 *
 * A run that dies (a crash, a store write that fails) leaves `pending` or `progress` behind. Such a state
 * older than the deadline is taken over: every read of the specification schedules a new run, whose claim
 * replaces the dead one's, so a late finish of the old run is discarded.
 */

/** How long past the fetch timeout a run may hold a specification before it counts as dead. */
const PROCESSING_GRACE_MS = 60_000;

/** Where a specification comes from, as a request gives it. */
export interface SpecSourceInput {
  readonly url?: string;
  readonly text?: string;
}

/** What a run produced: a document (its JSON text's key in the blob store), or why there is none. */
type RunOutcome = { readonly parsed: ParsedSpecification; readonly documentKey: string } | { readonly error: OpenAPIProcessErrorCode };

/** The latest version of a specification, if it has one. */
export async function latestVersion(tx: ReadTransaction, spec: OpenAPISpecRecord): Promise<OpenAPISpecVersionRecord | undefined> {
  if (spec.lastVersion === undefined) return undefined;
  return (await tx.get(TABLES.openAPISpecVersions, spec.lastVersion)) as OpenAPISpecVersionRecord | undefined;
}

/** The JSON text (UTF-8) of a version's document: from the blob store, or the record of an older version. */
export async function versionDocument(ctx: Pick<Context, 'blobs'>, version: OpenAPISpecVersionRecord): Promise<Uint8Array> {
  if (version.documentKey === undefined) return new TextEncoder().encode(version.document ?? '');
  const bytes = await ctx.blobs.get(version.documentKey);
  if (!bytes) throw new Error(`The document ${version.documentKey} of OpenAPI specification version ${version.id} is missing from the blob store`);
  return bytes;
}

/** Whether a specification's `pending` or `progress` state belongs to a run that died. */
export function isStale(spec: OpenAPISpecRecord, now: string, fetchTimeoutMs: number): boolean {
  return spec.processingState !== 'complete' && Date.parse(now) - Date.parse(spec.processingSince) >= fetchTimeoutMs + PROCESSING_GRACE_MS;
}

/**
 * The specification with a new source, waiting to be processed: `pending`, held by no run (a run still
 * going on the old source will find its claim gone and discard what it produced).
 */
export function withSource(spec: OpenAPISpecRecord, source: SpecSourceInput, now: string): OpenAPISpecRecord {
  const { sourceURL: _url, pendingText: _text, claim: _claim, ...rest } = spec;
  return {
    ...rest,
    ...(source.url !== undefined ? { sourceURL: source.url } : { pendingText: source.text ?? '' }),
    processingState: 'pending',
    processingSince: now,
    updatedAt: now,
  };
}

/** Schedules a run for the specification once the operation's transaction has committed. */
export function scheduleProcessing(ctx: Context, specId: string): void {
  ctx.defer((ports) => processSpec(ports, specId));
}

/** Schedules a run again when the specification's last one died (called by every read of it). */
export function resumeIfStale(ctx: Context, spec: OpenAPISpecRecord): void {
  if (isStale(spec, ctx.now, ctx.fetchTimeoutMs)) scheduleProcessing(ctx, spec.id);
}

/** One run: claim the specification, fetch and parse its source outside any transaction, record the outcome. */
export async function processSpec(ports: Ports, specId: string): Promise<void> {
  const claimed = await ports.store.write((tx) => claim(tx, ports, specId));
  if (!claimed) return;
  const outcome = await produce(ports, claimed.source);
  // Closing: leave the claim to expire, rather than record a failure the source did not cause.
  if (ports.closing.aborted) return;
  await ports.store.write((tx) => finish(tx, ports, specId, claimed.claim, outcome));
}

/** Takes a pending (or dead) specification into `progress` under a new claim; undefined when there is nothing to do. */
async function claim(tx: WriteTransaction, ports: Ports, specId: string) {
  const spec = (await tx.get(TABLES.openAPISpecs, specId)) as OpenAPISpecRecord | undefined;
  const now = ports.clock.now().toISOString();
  if (!spec || spec.processingState === 'complete') return undefined;
  if (spec.processingState === 'progress' && !isStale(spec, now, ports.fetchTimeoutMs)) return undefined;
  const token = ports.ids.id();
  await tx.put(TABLES.openAPISpecs, { ...spec, processingState: 'progress', processingSince: now, claim: token });
  const source: SpecSourceInput = spec.sourceURL !== undefined ? { url: spec.sourceURL } : { text: spec.pendingText ?? '' };
  return { claim: token, source };
}

/**
 * Fetches (for a URL) and parses a source, the parsing as a job (off the main thread where there are worker
 * threads). A document whose parsing goes over the time or memory of one job is a `PARSE_ERROR` too.
 */
async function produce(ports: Ports, source: SpecSourceInput): Promise<RunOutcome> {
  let input: string | readonly Uint8Array[] = source.text ?? '';
  if (source.url !== undefined) {
    const fetched = await fetchSource(ports, source.url);
    if (!fetched.ok) return { error: fetched.code };
    input = fetched.chunks;
  }
  try {
    const parsed = await ports.workers.run(parseSpecificationJob, input, ports.closing);
    // Stored before the transaction, as file bytes are: a document equal to the latest leaves an unused blob.
    return parsed ? { parsed, documentKey: await ports.blobs.put(parsed.json) } : { error: 'PARSE_ERROR' };
  } catch (error) {
    if (error instanceof JobLimitError) return { error: 'PARSE_ERROR' };
    throw error;
  }
}

/**
 * Records a run's outcome if the run still holds the specification: a failure keeps the previous version;
 * a document equal to the latest version's adds none; any other document becomes a new version.
 */
async function finish(tx: WriteTransaction, ports: Ports, specId: string, token: string, outcome: RunOutcome): Promise<void> {
  const spec = (await tx.get(TABLES.openAPISpecs, specId)) as OpenAPISpecRecord | undefined;
  if (!spec || spec.claim !== token) return;
  const now = ports.clock.now().toISOString();
  const { claim: _claim, pendingText: _text, lastProcessErrorCode: _code, ...rest } = spec;
  const done: OpenAPISpecRecord = { ...rest, processingState: 'complete', processingSince: now, lastProcessedAt: now };
  if ('error' in outcome) {
    await tx.put(TABLES.openAPISpecs, { ...done, lastProcessErrorCode: outcome.error });
    return;
  }
  const latest = await latestVersion(tx, spec);
  if (latest?.digest === outcome.parsed.digest) {
    await tx.put(TABLES.openAPISpecs, done);
    return;
  }
  const version: OpenAPISpecVersionRecord = {
    id: ports.ids.id(),
    specId,
    number: (latest?.number ?? 0) + 1,
    documentKey: outcome.documentKey,
    digest: outcome.parsed.digest,
    createdAt: now,
  };
  await tx.insert(TABLES.openAPISpecVersions, version);
  await tx.put(TABLES.openAPISpecs, { ...done, lastVersion: version.id, updatedAt: now });
}
