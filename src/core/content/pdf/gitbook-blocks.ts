import type { BlockContent, DefinitionContent, Paragraph, PhrasingContent } from 'mdast';
import { calloutLabel } from '../blocks/model.js';
import type { GitbookBlock } from '../blocks/mdast.js';

/**
 * GitBook's blocks as the PDF prints them, in the blocks the printer has already (blocks.ts): a hint or an
 * alert is a box (a quote) opened by its label in bold; tabs are their sections one after another, each
 * under its title; an expandable is its summary then its content, open; a code block's title stands above
 * it; an embed and a file are a link (the file by its name) above their caption; a content reference is
 * its link.
 */

type Flow = BlockContent | DefinitionContent;

const bold = (text: string): Paragraph => ({ type: 'paragraph', children: [{ type: 'strong', children: [{ type: 'text', value: text }] }] });
const line = (children: PhrasingContent[]): Paragraph => ({ type: 'paragraph', children });
const link = (url: string, text: string): PhrasingContent => ({ type: 'link', url, children: [{ type: 'text', value: text }] });

/** The last segment of a URL's path: a file's name. */
function nameOf(url: string): string {
  const path = url.split(/[?#]/)[0];
  return path.slice(path.lastIndexOf('/') + 1) || url;
}

/** The blocks a GitBook block prints as. */
export function lowerBlock(node: GitbookBlock): Flow[] {
  const block = node.block;
  const url = node.url ?? '';
  switch (block.kind) {
    case 'hint':
    case 'alert':
      return [{ type: 'blockquote', children: [bold(calloutLabel(block)), ...node.children] }];
    case 'tabs':
    case 'tab':
      // Each tab (a gitbookBlock of its own) lowers again when printed.
      return block.kind === 'tab' ? [bold(block.title), ...node.children] : node.children;
    case 'code':
      return block.title ? [line([{ type: 'emphasis', children: [{ type: 'text', value: block.title }] }]), ...node.children] : node.children;
    case 'details':
      return [...(block.summary ? [bold(block.summary)] : []), ...node.children];
    case 'embed':
      return [line([link(url, url)]), ...node.children];
    case 'file':
      return [line([{ type: 'text', value: 'File: ' }, link(url, nameOf(url))]), ...node.children];
    case 'content-ref':
      return node.children.length > 0 ? node.children : [line([link(url, url)])];
  }
}
