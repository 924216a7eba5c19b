import { expect, it } from 'vitest';
import { TABLES } from '../../src/core/records.js';
import { httpSuite } from './harness.js';
import { siteHelpers } from './site-helpers.js';

/**
 * A site's structure changed by 16 writers at once (issue 28). Every change to a site queues on the site's
 * scope (requireSite): the JSON file runs one write at a time, PostgreSQL takes the site's lock before the
 * snapshot, so each writer sees the one before it. Without that, writers that read the same structure would
 * take one path, or one place, each.
 */

const WRITERS = 16;

httpSuite('site structure under 16 concurrent writers', (h) => {
  const { site, ok, createSite, spaces, addSection, addSiteSpace } = siteHelpers(h);
  const all = <T>(write: (writer: number) => Promise<T>) => Promise.all(Array.from({ length: WRITERS }, (_, writer) => write(writer)));

  /** The order keys the store holds for these records of a site table. */
  const orderKeys = (table: string, ids: readonly string[]) =>
    h().platform.store.read(async (tx) => (await tx.getMany(table, ids)).map((record) => (record as { orderKey: string } | undefined)?.orderKey));

  it('16 sections added at once for spaces of one title each get a path of their own', async () => {
    const ids = await spaces(...Array.from({ length: WRITERS }, () => 'Guide'));
    const created = await createSite();
    const answers = await all((writer) => h().owner.post(`${site(created.id)}/sections`, { spaceId: ids[writer] }));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
    const paths = answers.map((answer) => answer.body.path as string).sort();
    expect(paths).toEqual(['guide', ...Array.from({ length: WRITERS - 1 }, (_, at) => `guide-${at + 2}`)].sort());
  });

  it('16 sections moved at once right after one section each land there in turn: each keeps a place of its own', async () => {
    const ids = await spaces(...Array.from({ length: WRITERS + 1 }, (_, at) => `Space ${at}`));
    const created = await createSite();
    const sections: string[] = [];
    for (const spaceId of ids) sections.push((await addSection(created.id, spaceId)).id);
    // The last section is the anchor: none of the others is right after it yet, so no move is a 409.
    const anchor = sections.at(-1)!;
    const moving = sections.slice(0, WRITERS);
    const answers = await all((writer) =>
      h().owner.post(`${site(created.id)}/sections/${moving[writer]}/move`, { position: { after: { type: 'site-section', siteSection: anchor } } }),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    const listed = ok(await h().owner.get(`${site(created.id)}/sections`)).items.map((section: { id: string }) => section.id);
    expect(listed[0]).toBe(anchor);
    expect([...listed.slice(1)].sort()).toEqual([...moving].sort());
    // Each move put its section between the anchor and the one moved before it: no two share a key.
    expect(new Set(await orderKeys(TABLES.siteSections, sections)).size).toBe(WRITERS + 1);
  });

  it("16 site spaces of one section moved at once before its first each land there in turn: each keeps a place of its own", async () => {
    const ids = await spaces(...Array.from({ length: WRITERS + 1 }, (_, at) => `Space ${at}`));
    const created = await createSite();
    const section = await addSection(created.id, ids[0]);
    const first = section.siteSpaces[0].id as string;
    const moving: string[] = [];
    for (const spaceId of ids.slice(1)) moving.push((await addSiteSpace(created.id, spaceId, section.id)).id);
    const answers = await all((writer) =>
      h().owner.post(`${site(created.id)}/site-spaces/${moving[writer]}/move`, { position: { before: { type: 'site-space', siteSpace: first } } }),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    const [moved] = ok(await h().owner.get(`${site(created.id)}/sections`)).items;
    const listed = moved.siteSpaces.map((siteSpace: { id: string }) => siteSpace.id);
    expect(listed.at(-1)).toBe(first);
    expect([...listed.slice(0, -1)].sort()).toEqual([...moving].sort());
    expect(new Set(await orderKeys(TABLES.siteSpaces, [first, ...moving])).size).toBe(WRITERS + 1);
  });
});
