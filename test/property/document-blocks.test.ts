import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BodyItem } from '../../src/core/content/blocks/model.js';
import { parseBlocks } from '../../src/core/content/blocks/parse.js';
import { documentToMarkdown, markdownToDocument } from '../../src/core/content/document.js';
import { ApiError } from '../../src/core/errors.js';
import { normalizeMarkdown } from '../../src/core/content/markdown.js';
import { anyBlocks, wellFormed } from './blocks/documents.js';
import { runs } from './runs.js';

/**
 * GitBook's blocks in the JSON document (content/document-blocks.ts): stored Markdown read as a document
 * (`?format=document`) and written back (a page's `document`) stores the same Markdown, whatever blocks it
 * holds and however its tags are broken; the document passes through JSON as a client would send it.
 */

/** Stored Markdown, through the document and back. */
const throughDocument = (stored: string) => documentToMarkdown(JSON.parse(JSON.stringify(markdownToDocument(stored))));

/** The document types of a document's blocks, nested ones included. */
function typesOf(nodes: readonly unknown[]): string[] {
  return nodes.flatMap((node) => {
    const { type, nodes: inner, fragments } = node as { type?: string; nodes?: unknown[]; fragments?: { nodes?: unknown[] }[] };
    return [...(type ? [type] : []), ...typesOf(inner ?? []), ...typesOf((fragments ?? []).flatMap((fragment) => fragment.nodes ?? []))];
  });
}

/** The document type each block of the content model becomes (code: a code block, as a fence is too). */
const TYPE = { hint: 'hint', alert: 'hint', tabs: 'tabs', tab: 'tabs-item', details: 'expandable', embed: 'embed', 'content-ref': 'content-ref', file: 'file' } as const;

/** The document types a body's blocks should make, as parse.ts reads them. */
function expectedTypes(items: readonly BodyItem[]): string[] {
  return items.flatMap((item) => (item.kind === 'markdown' ? [] : [...(item.kind in TYPE ? [TYPE[item.kind as keyof typeof TYPE]] : []), ...expectedTypes(item.children)]));
}

const sorted = (types: string[]) => types.filter((type) => Object.values(TYPE).includes(type as never)).sort();

/** The property, for any body: the same Markdown stored again, and each block a node of its own. */
function holdsThroughDocument(markdown: string): void {
  const stored = normalizeMarkdown(markdown);
  expect(throughDocument(stored), stored).toBe(stored);
  expect(sorted(typesOf(markdownToDocument(stored).nodes)), stored).toEqual(sorted(expectedTypes(parseBlocks(stored))));
}

/** Documents of GitBook's block types with fields of any shape, well-formed or not, nested a few deep. */
const hostileDocument = (() => {
  const text = fc.record({ object: fc.constant('text'), leaves: fc.array(fc.record({ object: fc.constant('leaf'), text: fc.oneof(fc.string(), fc.constantFrom('%}', '\n', '</summary>')), marks: fc.constant([]) }), { maxLength: 2 }) });
  const value = fc.oneof(fc.string(), fc.anything());
  const data = fc.oneof(
    fc.anything(),
    fc.record(
      {
        style: fc.oneof(fc.constantFrom('info', 'danger', 'loud'), value),
        alert: fc.constantFrom('NOTE', 'CAUTION', 'LOUD', 1),
        title: fc.oneof(fc.constantFrom('a %} b', 'two\nlines', 'ok'), value),
        url: value,
        ref: fc.oneof(fc.anything(), fc.record({ kind: fc.constantFrom('url', 'file', 'page', 'user'), url: fc.string(), file: fc.string(), page: fc.string() })),
        attributes: fc.oneof(fc.anything(), fc.array(fc.tuple(fc.constantFrom('style', 'title', 'x-y', '1bad'), value), { maxLength: 3 })),
        defaultExpanded: fc.anything(),
        overflow: fc.oneof(fc.constantFrom('wrap', 'scroll', 'hidden'), value),
        lineNumbers: fc.anything(),
      },
      { requiredKeys: [] },
    ),
  );
  const type = fc.constantFrom('hint', 'tabs', 'tabs-item', 'expandable', 'embed', 'content-ref', 'file', 'code', 'code-line', 'paragraph');
  const { block } = fc.letrec<{ block: unknown }>((tie) => ({
    block: fc.record(
      {
        object: fc.oneof(fc.constant('block'), fc.anything()),
        type,
        data,
        nodes: fc.oneof(fc.anything(), fc.array(fc.oneof(tie('block'), text), { maxLength: 3 })),
        fragments: fc.oneof(fc.anything(), fc.array(fc.record({ fragment: fc.constantFrom('expandable-title', 'expandable-body'), nodes: fc.oneof(fc.anything(), fc.array(tie('block'), { maxLength: 2 })) }), { maxLength: 3 })),
      },
      { requiredKeys: ['object', 'type'] },
    ),
  }));
  return fc.array(block, { maxLength: 4 }).map((nodes) => ({ object: 'document', data: {}, nodes }));
})();

describe('GitBook blocks round-trip through the JSON document', () => {
  it('stores the same Markdown for a well-formed body read as a document and written back, its blocks as nodes', () => {
    fc.assert(fc.property(wellFormed, holdsThroughDocument), { numRuns: runs(200) });
  }, 120_000);

  it('stores the same Markdown for any body of broken tags, its blocks as nodes', () => {
    fc.assert(fc.property(anyBlocks, holdsThroughDocument), { numRuns: runs(200) });
  }, 120_000);

  it('reads any document of block nodes, however malformed, as Markdown or a 400 naming the node, never another failure', () => {
    fc.assert(
      fc.property(hostileDocument, (document) => {
        try {
          const markdown = documentToMarkdown(document);
          // What it made reads back as the same Markdown through the document again.
          expect(throughDocument(normalizeMarkdown(markdown))).toBe(normalizeMarkdown(markdown));
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          expect(error.status).toBe(400);
          expect(error.message).toMatch(/^document\.nodes/);
        }
      }),
      { numRuns: runs(5000) },
    );
  }, 120_000);
});
