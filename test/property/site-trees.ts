import fc from 'fast-check';
import type { Api } from '../../src/core/platform.js';

/** Random sites for the reader's properties: page trees of spaces, and sites showing them at their root or in sections. */

/** A page to insert: a document, a hidden document, or (top level only) a group; with subpages. */
export interface PageSpec {
  readonly kind: 'document' | 'hidden' | 'group';
  readonly pages: readonly PageSpec[];
}

export const leaf = fc.constantFrom<PageSpec>({ kind: 'document', pages: [] }, { kind: 'hidden', pages: [] });
export const child = fc.record({ kind: fc.constantFrom<'document' | 'hidden'>('document', 'hidden'), pages: fc.array(leaf, { maxLength: 2 }) });
export const topLevel = fc.record({ kind: fc.constantFrom<PageSpec['kind']>('document', 'hidden', 'group'), pages: fc.array(child, { maxLength: 3 }) });
/** A space's tree: a first visible document, so that the space's own URL shows a page, then anything. */
export const tree = fc.tuple(fc.array(child, { maxLength: 2 }), fc.array(topLevel, { maxLength: 3 })).map(([pages, rest]) => [{ kind: 'document' as const, pages }, ...rest]);

/** A site: site spaces at its root, or sections (some in groups), each with one or two site spaces. */
export const siteShape = fc.oneof(
  fc.record({ kind: fc.constant('root' as const), siteSpaces: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('sections' as const), sections: fc.array(fc.record({ siteSpaces: fc.integer({ min: 1, max: 2 }), grouped: fc.boolean() }), { minLength: 1, maxLength: 3 }) }),
);

let titles = 0;

/** Inserts a tree of pages into a space through a merged change request. */
export async function fill(api: Api, spaceId: string, pages: readonly PageSpec[]): Promise<void> {
  const changes: Record<string, unknown>[] = [];
  const add = (specs: readonly PageSpec[], into?: string) => {
    for (const spec of specs) {
      const ref = `p${++titles}`;
      changes.push({
        operation: 'insert_page',
        ref,
        title: `Page ${titles}`,
        ...(into !== undefined && { into }),
        ...(spec.kind === 'group' ? { type: 'group' } : { document: { markdown: `Body of page ${titles}.\n` } }),
        ...(spec.kind === 'hidden' && { hidden: true }),
      });
      add(spec.pages, ref);
    }
  };
  add(pages);
  const request = await api.createChangeRequest({ spaceId });
  await api.updateChangeRequestContent({ spaceId, changeRequestId: request.id, changes } as never);
  await api.mergeChangeRequest({ spaceId, changeRequestId: request.id } as never);
}

/** A published site of that shape over new public spaces with those trees (one space per site space, in order); answers its id. */
export async function publishedSiteOf(api: Api, organizationId: string, shape: SiteShape, trees: readonly (readonly PageSpec[])[]): Promise<string> {
  const spaces: string[] = [];
  for (const pages of trees) {
    const space = await api.createSpace({ organizationId, title: `Space ${spaces.length}` });
    await api.updateSpace({ spaceId: space.id, visibility: 'public' } as never);
    await fill(api, space.id, pages);
    spaces.push(space.id);
  }
  let next = 0;
  let site;
  if (shape.kind === 'root') {
    site = await api.createSite({ organizationId, title: 'Docs', spaces: spaces.slice(0, shape.siteSpaces) } as never);
  } else {
    site = await api.createSite({ organizationId, title: 'Docs' } as never);
    const grouped: string[] = [];
    for (const [at, section] of shape.sections.entries()) {
      const added = await api.addSectionToSite({ organizationId, siteId: site.id, spaceId: spaces[next++], title: `Section ${at}` } as never);
      for (let i = 1; i < section.siteSpaces; i++) await api.addSpaceToSite({ organizationId, siteId: site.id, spaceId: spaces[next++], sectionId: added.id } as never);
      if (section.grouped) grouped.push(added.id);
    }
    if (grouped.length > 0) await api.addSectionGroupToSite({ organizationId, siteId: site.id, title: 'Group', sections: grouped } as never);
  }
  await api.publishSite({ organizationId, siteId: site.id });
  return site.id;
}

/** A site's shape, as siteShape draws it. */
export type SiteShape = typeof siteShape extends fc.Arbitrary<infer T> ? T : never;
