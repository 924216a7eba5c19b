import * as v from 'valibot';

/**
 * A page's cover image (Part 2's Page `cover`: `ref` to a file, `yPos`; the public API's
 * RevisionPageDocumentCover also allows a URL): shown above a document page when its layout's `cover` is
 * on, at its layout's `coverSize`.
 */

/** Where a cover image is: a file of the revision, or an http(s) URL. */
export type CoverRef = { readonly kind: 'file'; readonly file: string } | { readonly kind: 'url'; readonly url: string };

/** A page's cover as stored and answered. */
export interface PageCover {
  readonly ref: CoverRef;
  /** The vertical position of the image (the public API's default 0). */
  readonly yPos: number;
}

/** A page's cover in responses. */
export const PageCoverSchema = v.object({
  ref: v.variant('kind', [v.object({ kind: v.literal('file'), file: v.string() }), v.object({ kind: v.literal('url'), url: v.string() })]),
  yPos: v.number(),
});

/** A cover a change sets: a file (its id, or the ref of a file the batch inserts) or an http(s) URL, and `yPos` (default 0). */
export const PageCoverInput = v.strictObject({
  ref: v.variant('kind', [
    v.strictObject({ kind: v.literal('file'), file: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(200, 'must be at most 200 characters')) }),
    v.strictObject({
      kind: v.literal('url'),
      url: v.pipe(v.string(), v.maxLength(2048, 'must be at most 2048 characters'), v.regex(/^https?:\/\/\S+$/i, 'must be an http(s) URL')),
    }),
  ]),
  yPos: v.optional(v.pipe(v.number(), v.finite('must be a finite number')), 0),
});
