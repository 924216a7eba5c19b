import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * How long one parse of hostile Markdown holds the thread, on both parsers (mdast: markdown.ts, and the
 * format=document conversion; markdown-it: the outline and the reader's rendering), and in the HTTP path
 * (an insert_page through the Fetch handler, then a format=document read), with the longest pause of the
 * event loop meanwhile. Each measure runs in a child process with a time limit, so that a parse that
 * overflows or never ends is reported as such.
 *
 *   npx tsx bench/markdown-limits.ts [--root <checkout>] [--size <bytes>] [--timeout <s>] [--parsers a,b] [case ...]
 *
 * `--root` measures another checkout (its src/), such as the main branch before the limits.
 */

/** A deterministic paragraph of ordinary prose (the baseline). */
const prose = (i: number) => `Paragraph ${i} has *some* **bold** words, a [link](https://example.com/${i}) and \`code\`.`;

/** The cases: hostile Markdown of about `size` characters. */
export const CASES: Record<string, (size: number) => string> = {
  'prose (baseline)': (size) => Array.from({ length: Math.ceil(size / 90) }, (_, i) => prose(i)).join('\n\n'),
  '> x50,000': () => `${'>'.repeat(50_000)} x`,
  'list 600 deep': () => Array.from({ length: 600 }, (_, i) => `${'  '.repeat(i)}- x`).join('\n'),
  '*a x50,000 + _ x100,000': () => `${'*a'.repeat(50_000)}\n${'_'.repeat(100_000)}`,
  '[ x50,000': () => '['.repeat(50_000),
  '] flood': (size) => '] '.repeat(size / 2),
  '*a* flood': (size) => '*a* '.repeat(size / 4),
  '~a flood': (size) => '~a'.repeat(size / 2),
  'table 5,000 columns': () => `|${' a |'.repeat(5000)}\n|${'-|'.repeat(5000)}\n|${' b |'.repeat(5000)}\n`,
  'table rows': (size) => `| a | b | c |\n|---|---|---|\n${'| *x* | [y](u) | z |\n'.repeat(size / 22)}`,
  'link definitions': (size) => Array.from({ length: Math.ceil(size / 30) }, (_, i) => (i % 2 ? `[x][r${i - 1}]` : `[r${i}]: /u/${i}`)).join('\n'),
  'backticks x100,000': () => '`'.repeat(100_000),
  'backtick runs': (size) => '`a``b'.repeat(size / 5),
  'headings': (size) => '# a\n'.repeat(size / 4),
  'paragraphs at the delimiter limit': (size) => Array.from({ length: Math.ceil(size / 1024) }, () => `${'w '.repeat(320)}${'*a* '.repeat(64)}`).join('\n\n'),
};

const PARSERS = ['mdast', 'document', 'outline', 'reader', 'http', 'scan'] as const;
type Parser = (typeof PARSERS)[number];

/** Runs one case on one parser in this process; prints what it measured as JSON. */
async function one(root: string, name: string, parser: Parser, size: number) {
  const src = resolve(root, 'src');
  let text = CASES[name](size);
  // Through HTTP, the request (JSON, newlines escaped) must fit the body limit: the text is cut to fit.
  if (parser === 'http') while (JSON.stringify(text).length > 1_040_000) text = text.slice(0, Math.floor(text.length * 0.95));
  const cpu = () => process.cpuUsage();
  const spent = (from: NodeJS.CpuUsage) => {
    const used = process.cpuUsage(from);
    return Math.round((used.user + used.system) / 1000);
  };
  const run: Record<Exclude<Parser, 'http'>, () => Promise<(text: string) => unknown>> = {
    mdast: async () => (await import(`${src}/core/content/markdown.ts`)).parseMarkdown,
    document: async () => (await import(`${src}/core/content/document.ts`)).markdownToDocument,
    outline: async () => (await import(`${src}/core/content/outline.ts`)).outlineOf,
    reader: async () => {
      const { renderBody } = await import(`${src}/reader/markdown.ts`);
      const { layoutWordsOf } = await import(`${src}/reader/layout-words.ts`);
      // The reader renders what the core's reader body gives it: bounded, where the limits exist.
      const bounded: (markdown: string) => string = await import(`${src}/core/content/markdown-limits.ts`).then((module) => module.boundedMarkdown, () => (markdown: string) => markdown);
      return (markdown: string) => renderBody({ markdown: bounded(markdown), links: {}, anchors: [], pageTitles: {} }, layoutWordsOf('en'));
    },
    scan: async () => (await import(`${src}/core/content/markdown-limits.ts`)).markdownExcess,
  };
  if (parser !== 'http') {
    const parse = await run[parser]();
    // Warm the parser up on ordinary text, so that the first measure is not its compilation.
    for (let i = 0; i < 3; i++) parse(CASES['prose (baseline)'](20_000));
    const from = cpu();
    const started = performance.now();
    let outcome = 'ok';
    try {
      parse(text);
    } catch (error) {
      outcome = (error as Error).name;
    }
    console.log(JSON.stringify({ ms: Math.round(performance.now() - started), cpu: spent(from), outcome }));
    return;
  }
  const { createPlatform } = await import(`${src}/platform.ts`);
  const { createFetchHandler } = await import(`${src}/adapters/fetch/index.ts`);
  const { createMemoryStore } = await import(`${src}/store/memory.ts`);
  const platform = createPlatform({ store: createMemoryStore(), signingKey: 'bench' });
  const init = await platform.initialize({ title: 'Bench', email: 'bench@example.com', name: 'Bench' });
  const token = init.token as string;
  const handler = createFetchHandler(platform);
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await handler(
      new Request(`http://bench${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }),
    );
    return { status: response.status, body: await response.json().catch(() => undefined) };
  };
  const space = await call('POST', `/v1/orgs/${init.organizationId}/spaces`, { title: 'Bench' });
  const cr = await call('POST', `/v1/spaces/${space.body.id}/change-requests`, {});
  const content = `/v1/spaces/${space.body.id}/change-requests/${cr.body.id}/content`;
  // The longest the event loop waited for its turn while the requests ran: what /healthz would have waited.
  let longest = 0;
  let last = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  const started = performance.now();
  const written = await call('POST', `${content}?compat=false`, { changes: [{ operation: 'insert_page', title: 'Bench', document: { markdown: text } }] });
  const writeMs = performance.now() - started;
  let readMs = 0;
  let readStatus = 0;
  if (written.status === 200) {
    const page = written.body.changes[0].page.id;
    const reading = performance.now();
    readStatus = (await call('GET', `${content}/page/${page}?format=document`)).status;
    readMs = performance.now() - reading;
  }
  clearInterval(probe);
  console.log(JSON.stringify({ ms: Math.round(writeMs), status: written.status, readMs: Math.round(readMs), readStatus, longestPause: Math.round(longest) }));
  await platform.close();
}

/** Runs the cases in child processes and prints a table. */
function drive(root: string, size: number, timeout: number, parsers: readonly Parser[], names: string[]) {
  const self = fileURLToPath(import.meta.url);
  console.log(`root ${root}, size ${size}, time limit ${timeout} s (cpu: CPU ms of the parse; wall ms)`);
  for (const name of names) {
    const cells = parsers.map((parser) => {
      try {
        const out = execFileSync(process.execPath, ['--import', 'tsx', self, 'one', root, name, parser, String(size)], { timeout: timeout * 1000, stdio: ['ignore', 'pipe', 'ignore'] });
        const result = JSON.parse(out.toString().trim().split('\n').pop()!);
        if (parser === 'http') return `${result.status} in ${result.ms} ms, read ${result.readStatus || '-'} in ${result.readMs} ms, loop paused ${result.longestPause} ms`;
        return `${result.cpu}/${result.ms}${result.outcome === 'ok' ? '' : ` ${result.outcome}`}`;
      } catch (error) {
        return (error as { code?: string }).code === 'ETIMEDOUT' ? `>${timeout} s` : 'failed';
      }
    });
    console.log([name, ...parsers.map((parser, i) => `${parser}: ${cells[i]}`)].join(' | '));
  }
}

const args = process.argv.slice(2);
if (args[0] === 'one') await one(args[1], args[2], args[3] as Parser, Number(args[4]));
else {
  const option = (flag: string, fallback: string) => {
    const at = args.indexOf(flag);
    return at < 0 ? fallback : args.splice(at, 2)[1];
  };
  const root = resolve(option('--root', resolve(fileURLToPath(import.meta.url), '../..')));
  const size = Number(option('--size', String(1024 * 1024)));
  const timeout = Number(option('--timeout', '120'));
  const parsers = option('--parsers', PARSERS.join(',')).split(',') as Parser[];
  drive(root, size, timeout, parsers, args.length > 0 ? args : Object.keys(CASES));
}
