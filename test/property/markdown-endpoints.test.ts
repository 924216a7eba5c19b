import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_LENGTH } from '../../src/core/comments/schemas.js';
import { createHarness, type Caller, type Harness, type TestResponse } from '../http/harness.js';
import { startImportSources, type ImportSourceServer } from '../http/import-sources.js';
import { hostileMarkdown } from './markdown/hostile.js';

/**
 * Every endpoint that takes Markdown, fed generated hostile Markdown (content/markdown-limits.ts's
 * targets: deep quotes and lists, emphasis and brackets, floods of delimiters, wide tables), through the
 * Fetch handler: a page's body (update_page), a comment and a reply (post, then put), an import of a
 * Markdown file. Each answers a 2xx or a 4xx, never a 5xx; what a page, a comment or a reply stored reads
 * back in both formats, and written again as it was read stores the same text. MARKDOWN_ENDPOINT_RUNS sets the number of runs
 * (default 8, a few seconds; try 500 for a deeper search).
 */

const NUM_RUNS = Number(process.env.MARKDOWN_ENDPOINT_RUNS ?? 8);

/**
 * Tried first on every run: what overflowed or held the parsers before the limits, and what read back as
 * another tree once stored (content/print-stability.ts).
 */
const EXAMPLES: [string][] = [
  [`${'>'.repeat(3000)} x`],
  [Array.from({ length: 300 }, (_, i) => `${'  '.repeat(i)}- x`).join('\n')],
  [`${'*a'.repeat(5000)}\n${'_'.repeat(10_000)}`],
  ['[^a]:\n\n\\[r]: /u "t\n\n[^a]:\n'],
  ['[^a]:\n\n[r]: /u "t\n    [^a]:'],
  ['[^a]: [^a]\\:*'],
  ['- x\n* - -'],
  ['* \n    [^a]: ~~\n<span>\n  *'],
  [`-     >[\n<span>\n${'~'.repeat(33)}a`],
];

let web: ImportSourceServer;
let h: Harness;
let commenter: Caller;
let spaceId: string;
let changeRequestId: string;
let pageId: string;
let commentId: string;

const content = () => `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content`;
const comments = () => `/v1/spaces/${spaceId}/comments`;

/** A 2xx or a 4xx in the error shape, never a 5xx. */
function answered(response: TestResponse, what: string): boolean {
  expect(response.status, `${what}: ${response.text.slice(0, 300)}`).toBeLessThan(500);
  return response.status < 300;
}

/** Writes a page body; when it is taken, reads it in both formats and writes it back as read: the same text is stored. */
async function pageRoundTrip(markdown: string) {
  const write = (text: string) => h.owner.post(content(), { changes: [{ operation: 'update_page', page: pageId, document: { markdown: text } }] });
  const read = async (format: string) => {
    const response = await h.owner.get(`${content()}/page/${pageId}?format=${format}`);
    expect(response.status, response.text.slice(0, 300)).toBe(200);
    return response.body;
  };
  if (!answered(await write(markdown), 'update_page')) return;
  const stored = (await read('markdown')).markdown as string;
  await read('document');
  const again = await write(stored);
  expect(again.status, `writing back what was read: ${again.text.slice(0, 300)}`).toBe(200);
  expect((await read('markdown')).markdown).toBe(stored);
}

/** Posts a comment or reply and puts it again as read: the same text is stored. */
async function discussionRoundTrip(path: string, markdown: string) {
  const posted = await commenter.post(path, { body: { markdown } });
  if (!answered(posted, `post ${path}`)) return;
  const at = `${path}/${posted.body.id}`;
  const stored = (await commenter.get(at)).body.body.markdown as string;
  const put = await commenter.put(at, { body: { markdown: stored } });
  expect(put.status, `putting back what was read: ${put.text.slice(0, 300)}`).toBe(200);
  expect((await commenter.get(at)).body.body.markdown).toBe(stored);
  expect((await commenter.get(`${at}?format=document`)).status).toBe(200);
}

/** Imports the text as a Markdown file (what it stores is read as authoring's, checked above). */
async function importAnswers(markdown: string, run: number) {
  const url = web.serve(`/hostile-${run}.md`, { body: markdown, type: 'text/markdown' });
  answered(await h.owner.post(`${content()}/import`, { source: 'markdown', url }), 'import');
}

describe('endpoints that take Markdown', () => {
  beforeAll(async () => {
    web = await startImportSources();
    h = await createHarness('fetch', { fetchAllow: ['127.0.0.1'] });
    commenter = await h.user('comment');
    spaceId = (await h.owner.post(`/v1/orgs/${h.organizationId}/spaces`, { title: 'Hostile' })).body.id;
    changeRequestId = (await h.owner.post(`/v1/spaces/${spaceId}/change-requests`, {})).body.id;
    const made = await h.owner.post(`${content()}?compat=false`, { changes: [{ operation: 'insert_page', title: 'Target', document: { markdown: 'x' } }] });
    pageId = made.body.changes[0].page.id;
    commentId = (await commenter.post(comments(), { body: { markdown: 'Thread' } })).body.id;
  });
  afterAll(async () => {
    await h.close();
    await web.close();
  });

  it('answer a 2xx or a 4xx, and store what reads back and writes back the same', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(hostileMarkdown(3000), async (markdown) => {
        run++;
        h.clock.advance(1000);
        await pageRoundTrip(markdown);
        const short = markdown.slice(0, MAX_BODY_LENGTH);
        await discussionRoundTrip(comments(), short);
        await discussionRoundTrip(`${comments()}/${commentId}/replies`, short);
        await importAnswers(markdown, run);
      }),
      { numRuns: NUM_RUNS + EXAMPLES.length, examples: EXAMPLES },
    );
  }, 60_000 + (NUM_RUNS + EXAMPLES.length) * 2000);
});
