import * as v from 'valibot';

/**
 * A page's layout options: Part 2's `layout` (cover, title, description, tableOfContents, outline,
 * pagination, coverSize) with the rest of the public API's `RevisionPageLayoutOptions` (width, coverMask,
 * metadata, tags, actions, anchors), every field always answered. A page stores only the options it sets
 * away from the defaults, so that equal layouts store equal values and the defaults stay in one place.
 */

/** The widths of a page. */
export const PAGE_WIDTHS = ['default', 'wide'] as const;
/** The sizes of a cover image (Part 2 shows `hero`; the public API adds `full` and `background`). */
export const COVER_SIZES = ['hero', 'full', 'background'] as const;
/** The masks over a cover image. */
export const COVER_MASKS = ['none', 'radial'] as const;

/** The layout options of a page, as answered. */
export interface PageLayout {
  readonly width: (typeof PAGE_WIDTHS)[number];
  readonly cover: boolean;
  readonly coverSize: (typeof COVER_SIZES)[number];
  readonly coverMask: (typeof COVER_MASKS)[number];
  readonly title: boolean;
  readonly description: boolean;
  readonly tableOfContents: boolean;
  readonly outline: boolean;
  readonly pagination: boolean;
  readonly metadata: boolean;
  readonly tags: boolean;
  readonly actions: boolean;
  readonly anchors: boolean;
}

/** The layout options a page stores: those it sets away from the defaults. */
export type PageLayoutSettings = Partial<PageLayout>;

/** The layout of a page that sets nothing: the public API's `docs` preset, everything shown, a `hero` cover. */
export const DEFAULT_LAYOUT: PageLayout = {
  width: 'default',
  cover: true,
  coverSize: 'hero',
  coverMask: 'none',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: true,
  actions: true,
  anchors: true,
};

const LAYOUT_FIELDS = Object.keys(DEFAULT_LAYOUT) as (keyof PageLayout)[];

const fields = {
  width: v.picklist(PAGE_WIDTHS, `must be one of ${PAGE_WIDTHS.join(', ')}`),
  cover: v.boolean(),
  coverSize: v.picklist(COVER_SIZES, `must be one of ${COVER_SIZES.join(', ')}`),
  coverMask: v.picklist(COVER_MASKS, `must be one of ${COVER_MASKS.join(', ')}`),
  title: v.boolean(),
  description: v.boolean(),
  tableOfContents: v.boolean(),
  outline: v.boolean(),
  pagination: v.boolean(),
  metadata: v.boolean(),
  tags: v.boolean(),
  actions: v.boolean(),
  anchors: v.boolean(),
};

/** A page's layout in responses: every option. */
export const PageLayoutSchema = v.object(fields);

/** The layout options a change sets: any of them; the others stay as they are. Unknown options are a 400. */
export const PageLayoutInput = v.strictObject(
  Object.fromEntries(Object.entries(fields).map(([name, schema]) => [name, v.optional(schema)])) as { [K in keyof typeof fields]: v.OptionalSchema<(typeof fields)[K], undefined> },
);

/** A page's layout as answered: its settings over the defaults. */
export function layoutOf(settings: PageLayoutSettings | undefined): PageLayout {
  return settings === undefined ? DEFAULT_LAYOUT : { ...DEFAULT_LAYOUT, ...settings };
}

/**
 * The settings a page stores after `changes` (absent options stay): only the options away from the
 * defaults, in a fixed order; undefined when it is left with none.
 */
export function settleLayout(current: PageLayoutSettings | undefined, changes: PageLayoutSettings | undefined): PageLayoutSettings | undefined {
  const merged: Record<string, unknown> = {};
  for (const field of LAYOUT_FIELDS) {
    const value = changes?.[field] ?? current?.[field];
    if (value !== undefined && value !== DEFAULT_LAYOUT[field]) merged[field] = value;
  }
  return Object.keys(merged).length === 0 ? undefined : (merged as PageLayoutSettings);
}
