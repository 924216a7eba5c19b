import type * as v from 'valibot';
import type { Context } from '../context.js';
import type { SearchPageSchema } from './schemas.js';
import type { Hit } from './search-index.js';

/** A search hit in responses. */
export type SearchPageOutput = v.InferInput<typeof SearchPageSchema>;

/**
 * A hit in responses. Its sections: the heading's anchor as `id` and `<page path>#<anchor>` as `path`; the
 * text before the first heading is the page's own section, with the page's id, title and path.
 */
export function presentHit(ctx: Context, spaceId: string, hit: Hit): SearchPageOutput {
  // The app path of a space's live pages, as content/target.ts makes it.
  const appUrl = (path: string) => ctx.urls.app(`/s/${spaceId}/${path}`);
  return {
    id: hit.id,
    title: hit.title,
    path: hit.path,
    sections: hit.sections.map((section) => {
      const path = section.anchor === null ? hit.path : `${hit.path}#${section.anchor}`;
      return {
        id: section.anchor ?? hit.id,
        title: section.anchor === null ? hit.title : section.heading,
        path,
        body: section.excerpt,
        urls: { app: appUrl(path) },
      };
    }),
    urls: { app: appUrl(hit.path) },
  };
}
