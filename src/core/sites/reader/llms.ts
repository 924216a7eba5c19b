import * as v from 'valibot';
import { readOperation } from '../../operation.js';
import { LLMS_FULL_SEGMENT, LLMS_SEGMENT, MCP_SEGMENT, shareQueryOf } from './ai-paths.js';
import { fingerprintOf } from './fingerprint.js';
import { llmsFullStart } from './llms-full.js';
import { unauthorized } from './read-published.js';
import { siteIndexOf, type SiteIndex } from './site-index.js';
import { siteScopeOf } from './site-scope.js';
import type { ReaderAnswer, ReaderRequest } from './view.js';

/**
 * `llms.txt` and `llms-full.txt` of a published site and of each of its sections (llmstxt.org): the index
 * of its pages with their `.md` URLs, one `##` per section (site space, page group), and all their
 * Markdown in one text, in tree order (llms-full.ts). What they list is what the visitor may read (site-scope.ts).
 */

/** The summary line of an index: the section's description, else the first page's, else what the file is. */
function summaryOf(index: SiteIndex, sectionDescription: string | undefined): string {
  const first = index.siteSpaces[0]?.groups[0]?.pages[0];
  const text = sectionDescription ?? first?.description ?? `The documentation of ${index.title}, as Markdown for AI tools.`;
  return text.replace(/\s+/g, ' ').trim();
}

/** A title or description on one line, without the brackets that would end a Markdown link's text early. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
const linkText = (text: string) => oneLine(text).replace(/([\\[\]])/g, '\\$1');

/** The head of both files: the title, the summary, and where the rest is; its URLs carry `query` (shareQueryOf). */
function headOf(index: SiteIndex, summary: string, query: string): string {
  return [
    `# ${oneLine(index.title)}`,
    '',
    `> ${summary}`,
    '',
    `Each page is Markdown at its URL plus \`.md\`. All pages in one file: ${index.url}/${LLMS_FULL_SEGMENT}${query}. ` +
      `An MCP server to search and read this site: ${index.url}/${MCP_SEGMENT}${query}.`,
    '',
  ].join('\n');
}

/** llms.txt: the head, then one `##` per group with a line per page. */
function indexText(index: SiteIndex, summary: string, query: string): string {
  const lines = [headOf(index, summary, query)];
  for (const siteSpace of index.siteSpaces) {
    for (const group of siteSpace.groups) {
      lines.push(`## ${oneLine(group.title)}`, '');
      for (const page of group.pages) lines.push(`- [${linkText(page.title)}](${page.markdownUrl}${query})${page.description !== undefined ? `: ${oneLine(page.description)}` : ''}`);
      lines.push('');
    }
  }
  return lines.join('\n');
}

/** The input of the operation: the reader's request, whose last segment is llms.txt or llms-full.txt. */
const LlmsInput = v.custom<ReaderRequest>((value) => typeof value === 'object' && value !== null);

/**
 * Reads `llms.txt` or `llms-full.txt` (the request's last segment) of a published site or section; answers
 * undefined when the path is no site's or section's (a page's, or nothing), for the reader to read as a page.
 */
export const readPublishedLlms = readOperation({
  name: 'readPublishedLlms',
  summary: 'Read the llms.txt or llms-full.txt of a published site',
  body: { request: LlmsInput },
  response: v.custom<ReaderAnswer | undefined>(() => true),
  async run(ctx, { request }): Promise<ReaderAnswer | undefined> {
    const last = request.segments[request.segments.length - 1];
    if (last !== LLMS_SEGMENT && last !== LLMS_FULL_SEGMENT) return undefined;
    const scope = await siteScopeOf(ctx, request);
    if (scope === undefined) return undefined;
    if ('kind' in scope) return scope.kind === 'missing' ? scope : unauthorized(ctx, scope.site, request.segments);
    const index = await siteIndexOf(ctx, scope.site, scope.visible, scope.section);
    const summary = summaryOf(index, scope.section?.node.section.description || undefined);
    const query = shareQueryOf(scope.admitted.share);
    const answer = { kind: 'llms' as const, indexable: scope.site.visibility === 'public', cookiePath: scope.cookiePath, admitted: scope.admitted };
    if (last === LLMS_SEGMENT) {
      const text = indexText(index, summary, query);
      return { ...answer, text, fingerprint: `llms.${await fingerprintOf(text)}` };
    }
    const { text, fingerprint, more } = await llmsFullStart(ctx, index, headOf(index, summary, query), query);
    return { ...answer, text, fingerprint, ...(more && { more }) };
  },
});
