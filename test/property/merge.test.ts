import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PageEntry } from '../../src/core/content/model.js';
import { OWN_FIELDS, changedFrom } from '../../src/core/change-requests/merge/pages.js';
import { bodiesToRead, mergeContent } from '../../src/core/change-requests/merge/three-way.js';
import type { MergedContent } from '../../src/core/change-requests/merge/types.js';
import { applyScript, contendedScriptArb, emptySide, insertsArb, scriptArb, textOf, treeProblems, type Docs, type Side } from './merge-trees.js';
import { runs } from './runs.js';

/**
 * The three-way merge (src/core/change-requests/merge/three-way.ts) over random page trees: a base made by
 * a random script, then two random scripts applied to it, one as the space (ours) and one as the change
 * request (theirs). The merge is called with only the bodies it asks for (bodiesToRead), so reading
 * any other body fails the run.
 */

const NUM_RUNS = runs(300);

interface Case {
  docs: Docs;
  base: Side;
  ours: Side;
  theirs: Side;
}

/** Either any scripts, or edits of the same few pages on both sides (conflicts, cycles, line merges). */
const scriptsArb = fc.oneof(
  fc.record({ base: scriptArb(14), ours: scriptArb(10), theirs: scriptArb(10) }),
  fc.record({ base: insertsArb, ours: contendedScriptArb(8), theirs: contendedScriptArb(8) }),
);

const caseArb = scriptsArb
  .map(({ base, ours, theirs }): Case => {
    const docs: Docs = new Map();
    const root = applyScript(emptySide(), base, docs, 'b', '2024-01-01T00:00:00.000Z');
    return {
      docs,
      base: root,
      ours: applyScript(root, ours, docs, 'o', '2024-01-02T00:00:00.000Z'),
      theirs: applyScript(root, theirs, docs, 't', '2024-01-03T00:00:00.000Z'),
    };
  });

/** Runs the merge with only the bodies it declares it needs. */
function merge(docs: Docs, base: Side, ours: Side, theirs: Side): MergedContent {
  const needed = new Map(bodiesToRead(base, ours, theirs).map((page) => [page.document!, docs.get(page.document!)!]));
  return mergeContent(base, ours, theirs, needed);
}

/** The result's body of a page: a body the merge wrote, else its document's. */
const resultText = (docs: Docs, result: MergedContent, page: PageEntry) => result.bodies.get(page.id) ?? textOf(docs, page);

/** A side's content in the result's shape, to compare with toEqual. */
const asResult = (side: Side) => ({
  pages: new Map([...side.byId].sort(([a], [b]) => (a < b ? -1 : 1))),
  bodies: new Map(),
  files: new Map(side.files.map((file) => [file.id, file])),
  conflicts: [],
});

/** The same side with its maps built in reverse order, to show the result does not depend on it. */
const reversed = (side: Side): Side => ({ byId: new Map([...side.byId].reverse()), files: [...side.files].reverse() });

describe('three-way merge of page trees', () => {
  it('gives exactly the change request when the space has not moved since its base', () => {
    fc.assert(
      fc.property(caseArb, ({ docs, base, theirs }) => {
        expect(merge(docs, base, base, theirs)).toEqual(asResult(theirs));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('gives x for merge(base, x, x), and the space as it is when the request changed nothing', () => {
    fc.assert(
      fc.property(caseArb, ({ docs, base, ours }) => {
        expect(merge(docs, base, ours, ours)).toEqual(asResult(ours));
        expect(merge(docs, base, ours, base)).toEqual(asResult(ours));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('is deterministic, whatever the order of its inputs', () => {
    fc.assert(
      fc.property(caseArb, ({ docs, base, ours, theirs }) => {
        const first = merge(docs, base, ours, theirs);
        expect(merge(docs, base, ours, theirs)).toEqual(first);
        expect(merge(docs, reversed(base), reversed(ours), reversed(theirs))).toEqual(first);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('always gives a valid tree: a forest, groups on top, unique slugs, orders and paths', () => {
    fc.assert(
      fc.property(caseArb, ({ docs, base, ours, theirs }) => {
        const result = merge(docs, base, ours, theirs);
        expect(treeProblems(result.pages)).toBe('');
        for (const id of result.bodies.keys()) expect(result.pages.get(id)?.document).toBeUndefined();
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('never loses a page changed on only one side, nor drops what that side did to it', () => {
    fc.assert(
      fc.property(caseArb, ({ docs, base, ours, theirs }) => {
        const result = merge(docs, base, ours, theirs);
        const reasons = (id: string) => new Set(result.conflicts.filter((c) => c.id === id && c.kind === 'page').map((c) => c.reason));
        const ids = new Set([...base.byId.keys(), ...ours.byId.keys(), ...theirs.byId.keys()]);
        for (const id of ids) {
          const [b, o, t] = [base.byId.get(id), ours.byId.get(id), theirs.byId.get(id)];
          let side: PageEntry | undefined;
          if (!b) side = o && !t ? o : t && !o ? t : undefined;
          else if (o && t && changedFrom(b, o) !== changedFrom(b, t)) side = changedFrom(b, o) ? o : t;
          else if (o && t && !changedFrom(b, o)) side = b;
          else if (!o !== !t && !changedFrom(b, (o ?? t)!)) {
            // Deleted on one side, left alone on the other: deleted.
            expect(result.pages.has(id), `${id} deleted on one side`).toBe(false);
          }
          if (!side) continue;
          const page = result.pages.get(id);
          expect(page, `page ${id} changed on one side`).toBeDefined();
          for (const field of OWN_FIELDS) expect(page![field], `${id}.${field}`).toEqual(side[field]);
          expect(resultText(docs, result, page!), `body of ${id}`).toBe(textOf(docs, side));
          if (!reasons(id).has('slug-taken')) expect(page!.slug).toBe(side.slug);
          if (!reasons(id).has('parent-deleted') && !reasons(id).has('cycle')) expect(page!.parent).toBe(side.parent);
          expect(reasons(id).has('deleted') || reasons(id).has('field') || reasons(id).has('body')).toBe(false);
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('reports a conflict, won by the change request, when both sides change the same field differently', () => {
    const docs: Docs = new Map();
    const base = applyScript(emptySide(), [{ op: 'insert', type: 'document', parent: 0, top: true, at: 0, title: 'intro', lines: ['a', '', 'b'] }], docs, 'b', 'T0');
    const ours = applyScript(base, [{ op: 'title', page: 0, title: 'guide' }, { op: 'body', page: 0, line: 0, kind: 'replace', text: 'beta' }], docs, 'o', 'T1');
    const theirs = applyScript(base, [{ op: 'title', page: 0, title: 'api' }, { op: 'body', page: 0, line: 2, kind: 'replace', text: 'gamma' }], docs, 't', 'T2');
    const result = merge(docs, base, ours, theirs);
    expect(result.conflicts).toEqual([{ kind: 'page', id: 'b1', reason: 'field', field: 'title' }]);
    const page = result.pages.get('b1')!;
    expect(page.title).toBe('api');
    // Different lines of the body combine.
    expect(resultText(docs, result, page)).toBe('beta\n\ngamma\n');
  });
});

/** A side from a few pages given by id, parent, order and slug (paths computed, title = slug). */
function sideOf(pages: { id: string; parent?: string; order?: string; slug?: string; type?: PageEntry['type']; document?: string }[]): Side {
  const byId = new Map<string, PageEntry>();
  for (const p of pages) {
    const slug = p.slug ?? p.id;
    byId.set(p.id, { id: p.id, type: p.type ?? 'document', title: slug, slug, path: '', parent: p.parent ?? null, order: p.order ?? 'a0', ...(p.document && { document: p.document }), createdAt: 'T0', updatedAt: 'T0' });
  }
  const pathOf = (id: string): string => {
    const page = byId.get(id)!;
    return page.parent === null ? page.slug : `${pathOf(page.parent)}/${page.slug}`;
  };
  for (const [id, page] of byId) byId.set(id, { ...page, path: pathOf(id) });
  return { byId, files: [] };
}

describe('three-way merge: the documented resolutions', () => {
  const docs: Docs = new Map([['d0', 'one\n\ntwo\n'], ['d1', 'ONE\n\ntwo\n'], ['d2', 'uno\n\ntwo\n']]);

  it('breaks a cycle by putting the page the space moved back where the change request has it', () => {
    const base = sideOf([{ id: 'a', order: 'a0' }, { id: 'b', order: 'a1' }]);
    const ours = sideOf([{ id: 'a', parent: 'b' }, { id: 'b', order: 'a1' }]);
    const theirs = sideOf([{ id: 'a', order: 'a0' }, { id: 'b', parent: 'a' }]);
    const result = merge(docs, base, ours, theirs);
    expect(result.conflicts).toEqual([{ kind: 'page', id: 'a', reason: 'cycle' }]);
    expect(result.pages.get('a')).toMatchObject({ parent: null, path: 'a' });
    expect(result.pages.get('b')).toMatchObject({ parent: 'a', path: 'a/b' });
  });

  it('moves a page whose parent the other side deleted up to the nearest ancestor still there', () => {
    const base = sideOf([{ id: 'top' }, { id: 'mid', parent: 'top' }]);
    const ours = sideOf([{ id: 'top' }]);
    const theirs = sideOf([{ id: 'top' }, { id: 'mid', parent: 'top' }, { id: 'new', parent: 'mid' }]);
    const result = merge(docs, base, ours, theirs);
    expect(result.conflicts).toEqual([{ kind: 'page', id: 'new', reason: 'parent-deleted' }]);
    expect([...result.pages.keys()]).toEqual(['new', 'top']);
    expect(result.pages.get('new')).toMatchObject({ parent: 'top', path: 'top/new' });
  });

  it('lets the page that has a slug in the space keep it; the other gets the first free suffix', () => {
    const base = sideOf([]);
    const ours = sideOf([{ id: 'x', slug: 'intro', order: 'a0' }, { id: 'y', slug: 'intro-2', order: 'a1' }]);
    const theirs = sideOf([{ id: 'w', slug: 'intro', order: 'a0' }]);
    const result = merge(docs, base, ours, theirs);
    expect(result.conflicts).toEqual([{ kind: 'page', id: 'w', reason: 'slug-taken' }]);
    expect(result.pages.get('x')!.path).toBe('intro');
    expect(result.pages.get('w')!.path).toBe('intro-3');
    // Same ordering key on both sides: the space's page first, the request's right after it.
    const order = (id: string) => result.pages.get(id)!.order;
    expect(order('x') < order('w') && order('w') < order('y')).toBe(true);
  });

  it('lets the change request win a delete against an edit, both ways', () => {
    const base = sideOf([{ id: 'p', document: 'd0' }]);
    const edited = sideOf([{ id: 'p', document: 'd1' }]);
    const deleted = sideOf([]);
    expect(merge(docs, base, edited, deleted)).toMatchObject({ pages: new Map(), conflicts: [{ kind: 'page', id: 'p', reason: 'deleted' }] });
    const kept = merge(docs, base, deleted, edited);
    expect(kept.pages.get('p')!.document).toBe('d1');
    expect(kept.conflicts).toEqual([{ kind: 'page', id: 'p', reason: 'deleted' }]);
  });

  it('takes the change request lines where both sides changed the same lines', () => {
    const base = sideOf([{ id: 'p', document: 'd0' }]);
    const result = merge(docs, base, sideOf([{ id: 'p', document: 'd1' }]), sideOf([{ id: 'p', document: 'd2' }]));
    expect(result.conflicts).toEqual([{ kind: 'page', id: 'p', reason: 'body' }]);
    expect(result.pages.get('p')!.document).toBe('d2');
    expect(result.bodies.size).toBe(0);
  });
});
