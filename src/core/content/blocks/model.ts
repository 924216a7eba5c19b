/**
 * GitBook's Markdown blocks as core's content model reads them: the Liquid-like tags of the hosted platform
 * (`{% hint %}`, tabs, `{% code %}` around a fence, `{% embed %}`, `{% content-ref %}`, `{% file %}`), the
 * `<details>` expandable, and GitHub's `> [!NOTE]` alerts. A body is a list of items: Markdown text that
 * each consumer reads with its own Markdown parser (mdast for the PDF and the API, markdown-it for the
 * reader and the indexes), and blocks that hold items in turn. parse.ts makes it; nothing else decides
 * what is a block.
 */

/** The styles of a hint. */
export const HINT_STYLES = ['info', 'success', 'warning', 'danger'] as const;
export type HintStyle = (typeof HINT_STYLES)[number];

/** GitHub's alert types, as written after `[!`. */
export const ALERT_TYPES = ['NOTE', 'TIP', 'IMPORTANT', 'WARNING', 'CAUTION'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

/** A tag's attributes, in the order written (unknown ones kept, so that printing loses nothing). */
export type Attributes = readonly (readonly [name: string, value: string])[];

/** Markdown text between blocks. */
export interface MarkdownItem {
  readonly kind: 'markdown';
  readonly text: string;
  /** Its first line in the body, from 1 (an alert's lines keep theirs, their `>` taken off). */
  readonly line: number;
  /** Whether it opens the body, where YAML frontmatter may stand. */
  readonly opensBody: boolean;
}

/** The fields every block has. */
interface BlockBase {
  /** Its first line in the body, from 1. */
  readonly line: number;
  /** The attributes of its opening tag, as written. */
  readonly attributes: Attributes;
  readonly children: readonly BodyItem[];
}

export interface HintBlock extends BlockBase { readonly kind: 'hint'; readonly style: HintStyle }
export interface TabsBlock extends BlockBase { readonly kind: 'tabs'; readonly children: readonly TabBlock[] }
export interface TabBlock extends BlockBase { readonly kind: 'tab'; readonly title: string }
/** `{% code %}` around a fenced code block. */
export interface CodeBlock extends BlockBase {
  readonly kind: 'code';
  readonly title?: string;
  readonly lineNumbers: boolean;
  /** `wrap`: long lines wrap instead of scrolling. */
  readonly wrap: boolean;
}
/** A `<details>` expandable. */
export interface DetailsBlock extends BlockBase { readonly kind: 'details'; readonly summary: string; readonly open: boolean }
/** An embed (a link card: nothing is fetched); its children are an optional caption. */
export interface EmbedBlock extends BlockBase { readonly kind: 'embed'; readonly url: string }
/** A reference to a page or a URL; its children usually are one link. */
export interface ContentRefBlock extends BlockBase { readonly kind: 'content-ref'; readonly url: string }
/** A file to download; its children are an optional caption. */
export interface FileBlock extends BlockBase { readonly kind: 'file'; readonly url: string }
/** GitHub's `> [!NOTE]` alert. */
export interface AlertBlock extends BlockBase { readonly kind: 'alert'; readonly alert: AlertType }

export type Block = HintBlock | TabsBlock | TabBlock | CodeBlock | DetailsBlock | EmbedBlock | ContentRefBlock | FileBlock | AlertBlock;
export type BlockKind = Block['kind'];
export type BodyItem = MarkdownItem | Block;

/** The kinds that point somewhere, by the attribute that holds the URL. */
export const URL_ATTRIBUTES = { embed: 'url', 'content-ref': 'url', file: 'src' } as const;

/** The label of a hint or an alert, as the reader and the PDF show it. */
export function calloutLabel(block: Pick<HintBlock, 'kind' | 'style'> | Pick<AlertBlock, 'kind' | 'alert'>): string {
  if (block.kind === 'alert') return block.alert.charAt(0) + block.alert.slice(1).toLowerCase();
  return { info: 'Info', success: 'Success', warning: 'Warning', danger: 'Danger' }[block.style];
}

/** The hint style an alert looks like. */
export function alertStyle(alert: AlertType): HintStyle {
  return ({ NOTE: 'info', TIP: 'success', IMPORTANT: 'info', WARNING: 'warning', CAUTION: 'danger' } as const)[alert];
}
