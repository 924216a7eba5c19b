import type { Definition, PhrasingContent, Root, RootContent } from 'mdast';
import type { FontStyle } from './fonts.js';

/**
 * The inline content of a block (mdast phrasing content) flattened into what a PDF writes: runs of text
 * with one style and one link target, and images, which print as blocks of their own between runs.
 */

/** A run of text with one style. */
export interface TextRun {
  readonly kind: 'text';
  readonly text: string;
  readonly style: FontStyle;
  readonly strike?: boolean;
  /** The Markdown URL it links to. */
  readonly url?: string;
}

/** An image in the text. */
export interface ImageRun {
  readonly kind: 'image';
  readonly url: string;
  readonly alt: string;
}

/** A piece of inline content. */
export type Run = TextRun | ImageRun;

/** The link definitions of a document by identifier (`[text][id]` and `![alt][id]` resolve through them). */
export type Definitions = ReadonlyMap<string, string>;

/** Collects the link definitions of a document. */
export function definitionsOf(root: Root): Definitions {
  const found = new Map<string, string>();
  const visit = (node: Root | RootContent) => {
    if (node.type === 'definition') {
      const definition = node as Definition;
      // The first definition of an identifier wins, as CommonMark says.
      if (!found.has(definition.identifier)) found.set(definition.identifier, definition.url);
    }
    if ('children' in node) for (const child of node.children as RootContent[]) visit(child);
  };
  visit(root);
  return found;
}

/** Flattens phrasing content into runs, in order. */
export function runsOf(nodes: readonly PhrasingContent[], definitions: Definitions): Run[] {
  const runs: Run[] = [];
  const walk = (node: PhrasingContent, style: FontStyle, strike: boolean, url: string | undefined) => {
    const text = (value: string, runStyle: FontStyle = style) =>
      runs.push({ kind: 'text', text: value, style: runStyle, ...(strike && { strike }), ...(url !== undefined && { url }) });
    const children = (childStyle: FontStyle, childStrike = strike, childUrl = url) => {
      for (const child of (node as { children: PhrasingContent[] }).children) walk(child, childStyle, childStrike, childUrl);
    };
    switch (node.type) {
      case 'text':
        return text(node.value);
      case 'strong':
        return children({ ...style, bold: true });
      case 'emphasis':
        return children({ ...style, italic: true });
      case 'delete':
        return children(style, true);
      case 'inlineCode':
        return text(node.value, { code: true });
      case 'break':
        return text('\n');
      case 'link':
        return children(style, strike, node.url);
      case 'linkReference':
        return children(style, strike, definitions.get(node.identifier) ?? url);
      case 'image':
        return runs.push({ kind: 'image', url: node.url, alt: node.alt ?? '' });
      case 'imageReference': {
        const target = definitions.get(node.identifier);
        return target === undefined ? text(node.alt ?? '') : runs.push({ kind: 'image', url: target, alt: node.alt ?? '' });
      }
      case 'footnoteReference':
        return text(`[${node.label ?? node.identifier}]`);
      case 'html':
        // Inline HTML prints as its text: tags are not rendered.
        return text(node.value.replace(/<[^>]*>/g, ''));
      default:
        return undefined;
    }
  };
  for (const node of nodes) walk(node, {}, false, undefined);
  return runs;
}
