import type { LinksIndex } from '../../src/core/content/links/links-index.js';

/** A links index as plain, ordered data, for comparing two of them with toEqual. */
export function plainIndex(index: LinksIndex) {
  return {
    pages: [...index.pages.values()]
      .map((facts) => ({ ...facts, anchors: [...facts.anchors].sort() }))
      .sort((a, b) => (a.id < b.id ? -1 : 1)),
    files: [...index.files].sort(),
    keys: index.keys,
    targets: index.keys.map((key) => index.targets.get(key)),
    size: index.targets.size,
  };
}
