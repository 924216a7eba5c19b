import type { DocumentBlock, DocumentInline, DocumentText } from '../content/document.js';
import { innerNodes, markdownToDocument } from '../content/document.js';
import { markdownWork } from '../content/markdown-work.js';
import { defineJob } from '../job.js';
import type { Workers } from '../workers.js';
import { cutText } from '../well-formed.js';

/**
 * The node a comment is about (a block or an inline, by its `key` in the page's JSON document) and its short
 * text, found where the document is made: in a job when the page is long (content/markdown-work.ts), so that
 * only the preview comes back, not the page's whole document (7 to 14 MB of JSON for 1 MiB of Markdown).
 */

/** The longest node preview, in characters. */
const PREVIEW_LENGTH = 100;

type DocumentNode = DocumentBlock | DocumentInline | DocumentText;

/** The node with `key` in a tree of document nodes. */
function findNode(nodes: readonly DocumentNode[] | undefined, key: string): DocumentNode | undefined {
  for (const node of nodes ?? []) {
    if (node.object === 'text') continue;
    if (node.key === key) return node;
    const inner = findNode(innerNodes<DocumentNode>(node), key);
    if (inner) return inner;
  }
  return undefined;
}

/** The text of a document node, lines of blocks joined by spaces. */
function textOf(node: DocumentNode): string {
  if (node.object === 'text') return node.leaves.map((leaf) => leaf.text).join('');
  if (node.object === 'inline' && node.type === 'inline-image') return node.data.alt ?? '';
  const inner = innerNodes<DocumentNode>(node);
  return inner.map(textOf).join(node.object === 'block' && inner[0]?.object !== 'text' && inner[0]?.object !== 'inline' && inner.length > 0 ? ' ' : '');
}

/** A one-line preview of a node, at most PREVIEW_LENGTH characters. */
function previewOf(node: DocumentNode): string {
  const text = textOf(node).replace(/\s+/g, ' ').trim();
  return text.length <= PREVIEW_LENGTH ? text : `${cutText(text, PREVIEW_LENGTH - 1)}…`;
}

/** What the job reads: a page's Markdown and the key of one of its nodes. */
export interface NodePreviewInput {
  readonly markdown: string;
  readonly node: string;
}

/** The preview of the node `node` of a page's body, or null when its document has no such node. */
export const nodePreviewJob = defineJob<NodePreviewInput, string | null>({
  name: 'node-preview',
  what: 'finding a node of a page',
  run: ({ markdown, node }) => {
    const found = findNode(markdownToDocument(markdown).nodes, node);
    return found ? previewOf(found) : null;
  },
});

/** nodePreviewJob's answer, off the event loop when the page is long. */
export const nodePreview = (workers: Workers, input: NodePreviewInput): Promise<string | null> => markdownWork(workers, nodePreviewJob, input, input.markdown.length);
