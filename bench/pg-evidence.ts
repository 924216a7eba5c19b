/**
 * PostgreSQL's evidence for the contended writes of issue 28 (`npx tsx bench/pg-evidence.ts`): for each kind of
 * contention-kinds.ts, on a platform in this process over a database of its own (so that nothing else counts in
 * its statistics):
 *
 * - the plans of the reads one write makes (EXPLAIN ANALYZE of each read statement it sent, run as the store
 *   runs it: prepared, generic plan), summed up as the scans they make;
 * - pg_stat_database's commits, rollbacks, deadlocks and recovery conflicts, and the store's retries by reason
 *   (store.figures), before and after 16 writers write for EVIDENCE_SECONDS (default 3);
 * - what the busy connections waited for meanwhile (pg_stat_activity's wait events, pg_locks not granted),
 *   sampled every 20 ms.
 *
 * Settings: BENCH_POSTGRES (a database URL of the server to use; the script creates and drops a database
 * `docs_platform_evidence_<pid>` there), EVIDENCE_SECONDS, EVIDENCE_KINDS (comma-separated kinds). Prints Markdown.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createFetchHandler } from '../src/adapters/fetch/index.js';
import { createPlatform } from '../src/core/platform.js';
import { postgresOptions } from '../src/cli/open-data.js';
import { createPostgresStore } from '../src/postgres.js';
import { fetchClient, KINDS, MEMBERS_NEEDED, prepareKind, type ContentionKind, type Send } from './contention-kinds.js';
import { copyToPostgres } from './postgres-case.js';
import { databaseFigures, describeWaits, figuresBetween, sampleWaits } from './pg-waits.js';
import { seedDataFile } from './seed.js';

const WRITERS = 16;
const seconds = Number(process.env.EVIDENCE_SECONDS ?? 3);
const kinds = (process.env.EVIDENCE_KINDS?.split(',') ?? KINDS) as ContentionKind[];
const server = new URL(process.env.BENCH_POSTGRES || 'postgres://postgres@127.0.0.1:5432/test');

/** A statement the store sent: its text and values. */
interface Sent {
  text: string;
  values: unknown[];
}

/** Every statement a pg client sends while `capturing` is set (the store's, its numbers' and probes'). */
const captured: Sent[] = [];
let capturing = false;
/**
 * The writes to the database's sockets while capturing: the store sends a turn's statements in one write and
 * waits for their answers before it sends more, so each is a round trip (as test/postgres/counting-pool.ts).
 */
let roundTrips = 0;
const counted = new WeakSet<object>();
type Writes = { _write?: (...args: unknown[]) => unknown; _writev?: (...args: unknown[]) => unknown };
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const stream = (this as unknown as { connection?: { stream?: Writes & object } }).connection?.stream;
  if (stream && !counted.has(stream)) {
    counted.add(stream);
    for (const method of ['_write', '_writev'] as const) {
      const original = stream[method];
      if (original)
        stream[method] = function (this: unknown, ...written: unknown[]) {
          if (capturing) roundTrips++;
          return original.apply(this, written);
        };
    }
  }
  if (capturing) {
    const [first, second] = args as [string | { text: string; values?: unknown[] }, unknown];
    captured.push(typeof first === 'string' ? { text: first, values: Array.isArray(second) ? second : [] } : { text: first.text, values: first.values ?? [] });
  }
  return query.apply(this, args);
} as typeof pg.Client.prototype.query;

/** A value as an SQL literal, for EXECUTE (each parameter's type comes from its cast in the statement). */
function literal(value: unknown): string {
  const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
  const text = (item: unknown): string => (Buffer.isBuffer(item) ? `\\x${item.toString('hex')}` : typeof item === 'object' ? JSON.stringify(item) : String(item));
  if (value === null || value === undefined) return 'NULL';
  if (Array.isArray(value)) return quote(`{${value.map((item) => (item === null ? 'NULL' : `"${text(item).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)).join(',')}}`);
  return quote(text(value));
}

/** Whether a statement only reads records (not a transaction's control, a lock, a snapshot or a write). */
const isRead = (text: string) => /^\s*(SELECT|WITH)\b/i.test(text) && !/\b(INSERT|UPDATE|DELETE)\b/i.test(text) && !/pg_advisory|pg_current_snapshot|pg_is_in_recovery/.test(text);

/**
 * The plan of a read as the store runs it (prepared, planned generically: plan_cache_mode), executed: its scan
 * lines, each with the rows it gave and the buffers it touched.
 */
async function planOf(client: pg.Client, sent: Sent, at: number): Promise<string[]> {
  const name = `evidence_${at}`;
  await client.query(`PREPARE ${name} AS ${sent.text}`);
  try {
    const args = sent.values.length > 0 ? `(${sent.values.map(literal).join(', ')})` : '';
    const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE ${name}${args}`);
    return rows.map((row) => row['QUERY PLAN'] as string).filter((line) => /Scan|Seq|Buffers: shared hit=\d+ read|->  (Aggregate|Sort|Limit)/.test(line) && !/Planning/.test(line));
  } finally {
    await client.query(`DEALLOCATE ${name}`);
  }
}

/** A scan line of a plan, short: `Index Scan t_spaces_pkey (1 row)`, `Seq Scan t_members (1000 rows)`. */
function describeScan(line: string): string {
  const match = /(Index Only Scan|Index Scan Backward|Index Scan|Bitmap Heap Scan|Bitmap Index Scan|Seq Scan)(?: using ("?[^ ]+"?))? on ("?[^ ]+"?)[^(]*\(actual rows=(\d+) loops=(\d+)\)/.exec(line);
  if (!match) return line.trim();
  const [, scan, index, table, rows, loops] = match;
  const unquote = (name: string) => name.replace(/"/g, '');
  return `${scan} ${unquote(index ?? table)}${index ? '' : ''} (${rows} row${rows === '1' ? '' : 's'}${loops === '1' ? '' : ` x${loops}`})`;
}

/** Runs `writers` writers for `seconds`: the writes done, and the first failures. */
async function writeFor(send: Send, writers: number): Promise<{ done: number; failed: number; failures: string[] }> {
  let done = 0;
  let failed = 0;
  const failures: string[] = [];
  const stopAt = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: writers }, async (_, writer) => {
      while (performance.now() < stopAt) {
        const answer = await send(writer);
        if (answer.status === send.expected) done++;
        else if (failed++ < 3) failures.push(`${answer.status} ${JSON.stringify(answer.json).slice(0, 160)}`);
      }
    }),
  );
  return { done, failed, failures };
}

async function main() {
  const database = `docs_platform_evidence_${process.pid}`;
  const admin = new pg.Client({ connectionString: server.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(server);
  url.pathname = `/${database}`;
  const folder = await mkdtemp(join(tmpdir(), 'pg-evidence-'));
  let close = async () => undefined as unknown;
  try {
    const seeded = await seedDataFile(join(folder, 'data.json'), MEMBERS_NEEDED + 1);
    const copy = await copyToPostgres(url.toString(), join(folder, 'data.json'));
    const store = await createPostgresStore({ ...postgresOptions(copy.url), log: () => undefined });
    const platform = createPlatform({ store, blobs: store.blobs });
    close = () => platform.close();
    const call = fetchClient(seeded.token, createFetchHandler(platform));
    const explainer = new pg.Client({ connectionString: url.toString() });
    // Ended before the database is dropped; an error after that (the drop's termination) is no news.
    explainer.on('error', () => undefined);
    await explainer.connect();
    const closeStore = close;
    close = async () => {
      await explainer.end().catch(() => undefined);
      await closeStore();
    };
    await explainer.query('SET plan_cache_mode = force_generic_plan');
    console.log(`# PostgreSQL evidence: ${WRITERS} writers for ${seconds} s a kind, one process (load average ${loadavg()[0].toFixed(1)})\n`);
    for (const kind of kinds) {
      const send = await prepareKind(call, seeded, kind, WRITERS);
      // Warm: the token is known and each statement prepared on some connections.
      for (let at = 0; at < 2; at++) await send(0);
      captured.length = 0;
      roundTrips = 0;
      capturing = true;
      const one = await send(0);
      capturing = false;
      if (one.status !== send.expected) throw new Error(`${kind}: ${one.status} ${JSON.stringify(one.json)}`);
      const reads = captured.filter((sent) => isRead(sent.text));
      console.log(`## ${kind}\n\nOne write: ${captured.length} statements in ${roundTrips} round trips, ${reads.length} of them reads.\n`);
      // Each read as its scans, one line; reads of the same shape (a list per section) once, with their number.
      const shapes = new Map<string, number>();
      for (const [at, sent] of reads.entries()) {
        const scans = (await planOf(explainer, sent, at)).filter((line) => /Scan/.test(line) && !/Function Scan/.test(line)).map(describeScan);
        const shape = scans.join('; ') || 'no table';
        shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
      }
      for (const [shape, n] of shapes) console.log(`- ${n > 1 ? `${n} reads: ` : ''}${shape}`);
      const single = await writeFor(send, 1);
      const retriesBefore = { ...store.figures().writeRetries };
      const before = await databaseFigures(url.toString());
      const sampling = await sampleWaits(url.toString());
      const { done, failed, failures } = await writeFor(send, WRITERS);
      const waits = await sampling.stop();
      const figures = figuresBetween(before, await databaseFigures(url.toString()), waits);
      const retries = Object.entries(store.figures().writeRetries ?? {})
        .map(([reason, n]) => [reason, n - (retriesBefore[reason] ?? 0)] as const)
        .filter(([, n]) => n > 0);
      console.log(
        `\n1 writer: ${(single.done / seconds).toFixed(0)} writes/s; ${WRITERS} writers: ${(done / seconds).toFixed(0)} writes/s, ${failed + single.failed} failed${failures.length ? ` (${failures.join(' | ')})` : ''}; ` +
          `database: ${figures.committed} committed, ${figures.rolledBack} rolled back, ${figures.deadlocks} deadlocks, ${figures.conflicts} conflicts; ` +
          `store retries: ${retries.length ? retries.map(([reason, n]) => `${reason} ${n}`).join(', ') : 'none'}; ` +
          `waits: ${describeWaits(waits)} (load average ${loadavg()[0].toFixed(1)})\n`,
      );
    }
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  } finally {
    await close().catch(() => undefined);
    await rm(folder, { recursive: true, force: true });
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
