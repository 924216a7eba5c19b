import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BodyItem } from '../../src/core/content/blocks/model.js';
import { parseBlocks } from '../../src/core/content/blocks/parse.js';
import { documentToMarkdown, markdownToDocument } from '../../src/core/content/document.js';
import { normalizeMarkdown } from '../../src/core/content/markdown.js';
import { anyBlocks, wellFormed } from './blocks/documents.js';
import { runs } from './runs.js';

/**
 * GitBook's blocks in the JSON document (content/document-blocks.ts): stored Markdown read as a document
 * (`?format=document`) and written back (a page's `document`) stores the same Markdown, whatever blocks it
 * holds and however its tags are broken; the document passes through JSON as a client would send it.
 */

/**
 * Whether a body has a line break between two inlines with nothing else: a leaf that is one line break reads
 * back as a hard break, since the document's text cannot tell a soft one from it (a limit of the plain
 * format, not of blocks).
 */
const loneSoftBreak = (stored: string) => /[)\]`*_]\n[![`*_]/.test(stored);

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
  fc.pre(!loneSoftBreak(stored));
  expect(throughDocument(stored), stored).toBe(stored);
  expect(sorted(typesOf(markdownToDocument(stored).nodes)), stored).toEqual(sorted(expectedTypes(parseBlocks(stored))));
}

describe('GitBook blocks round-trip through the JSON document', () => {
  it('stores the same Markdown for a well-formed body read as a document and written back, its blocks as nodes', () => {
    fc.assert(fc.property(wellFormed, holdsThroughDocument), { numRuns: runs(200) });
  }, 120_000);

  it('stores the same Markdown for any body of broken tags, its blocks as nodes', () => {
    fc.assert(fc.property(anyBlocks, holdsThroughDocument), { numRuns: runs(200) });
  }, 120_000);
});
