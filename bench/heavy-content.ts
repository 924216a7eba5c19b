import { zipSync } from 'fflate';

/**
 * The content of the heavy-work case: pages of about 1 KB (a heading, paragraphs of words from a 5,000-word
 * vocabulary, a list, a link), a large OpenAPI document, and a zip archive of Markdown pages. Everything is
 * made from a fixed seed: the same run after run.
 */

const VOCABULARY = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}${'aeiou'[i % 5]}`);

/** A small deterministic generator (a linear congruential one), so that contents do not change between runs. */
function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

/** A sentence of `words` words, common words more often (the square of a uniform number skews towards 0). */
function sentence(next: () => number, words: number): string {
  return Array.from({ length: words }, () => VOCABULARY[Math.floor(next() * next() * VOCABULARY.length)]).join(' ');
}

/** The Markdown of page `i`: about 1 KB, with two sections, a list and a link. */
export function pageMarkdown(i: number): string {
  const next = random(i + 1);
  return [
    `Page ${i} is about ${sentence(next, 3)}.`,
    '',
    `## Overview`,
    '',
    `${sentence(next, 40)}. See [the guide](https://example.com/guide/${i}).`,
    '',
    `- ${sentence(next, 6)}`,
    `- ${sentence(next, 6)}`,
    '',
    `## Details`,
    '',
    `${sentence(next, 60)}.`,
    '',
  ].join('\n');
}

/** A word that many pages contain, for the search. */
export const COMMON_WORD = VOCABULARY[0];

/** A valid OpenAPI 3.1 document of at least `bytes` bytes of JSON: many paths, each with parameters, responses and a schema. */
export function largeOpenAPIDocument(bytes: number): string {
  const paths: Record<string, unknown> = {};
  const document = { openapi: '3.1.0', info: { title: 'Large', version: '1.0.0', description: 'A large document for the bench.' }, paths };
  const next = random(7);
  for (let i = 0; JSON.stringify(document).length < bytes; i += 100) {
    for (let j = i; j < i + 100; j++) {
      paths[`/resources/${j}/{id}`] = {
        get: {
          operationId: `getResource${j}`,
          summary: `Get resource ${j}`,
          description: sentence(next, 20),
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': {
              description: 'The resource',
              content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, size: { type: 'integer' } } } } },
            },
            '404': { description: 'Not found' },
          },
        },
      };
    }
  }
  return JSON.stringify(document);
}

/**
 * A zip archive of `pages` pages: folders of 100, each with a README.md (the folder's page) and 99 more
 * files, so that the import makes exactly `pages` pages (a multiple of 100).
 */
export function zipOfPages(pages: number): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const encoder = new TextEncoder();
  for (let i = 0; i < pages; i++) {
    const folder = `part-${Math.floor(i / 100)}`;
    const name = i % 100 === 0 ? 'README.md' : `page-${i}.md`;
    files[`${folder}/${name}`] = encoder.encode(`# Imported ${i}\n\n${pageMarkdown(i)}`);
  }
  return zipSync(files, { level: 6 });
}
