import { expect, it } from 'vitest';
import type { MemberRole } from '../../src/core/roles.js';
import { expectRefusals } from './bad-input.js';
import { httpSuite, walkPages } from './harness.js';
import { SITE_SPACE_KEYS, siteHelpers } from './site-helpers.js';

/** The site space endpoints: list (default filter, shareKey, paging), add, patch (path, condition), delete and move. */

httpSuite('site spaces', (h) => {
  const { site, ok, createSite, spaces, addSection, addSiteSpace, stored, outline, setSchema, space } = siteHelpers(h);
  const siteSpaces = (siteId: string) => `${site(siteId)}/site-spaces`;
  const at = (siteId: string, siteSpaceId: string) => `${siteSpaces(siteId)}/${siteSpaceId}`;
  const origin = (body: { space: { urls: { location: string } } }) => body.space.urls.location.replace(/\/v1\/.*$/, '');

  it('adds a space at the root of a site without sections, with every field, a path from its title and the first as default', async () => {
    const [a, b, c] = await spaces('Getting Started', 'Getting started!', 'Ünïcode Guide');
    const created = await createSite({ title: 'Docs' });
    const first = await h().owner.post(siteSpaces(created.id), { spaceId: a });
    expect(first.status).toBe(201);
    expect(Object.keys(first.body).sort()).toEqual(SITE_SPACE_KEYS.filter((key) => key !== 'section'));
    expect(first.body).toEqual({
      object: 'site-space',
      id: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
      path: 'getting-started',
      space: ok(await h().owner.get(`/v1/spaces/${a}`)),
      title: 'Getting Started',
      default: true,
      urls: {},
    });
    // Paths are unique among siblings: the same slug gets a number.
    const second = await addSiteSpace(created.id, b);
    expect(second).toMatchObject({ path: 'getting-started-2', default: false, title: 'Getting started!' });
    expect((await addSiteSpace(created.id, c)).path).toBe('unicode-guide');
    const untitled = await space({ title: '' });
    expect((await addSiteSpace(created.id, untitled.id)).path).toBe('space');
    expect(ok(await h().owner.get(site(created.id))).siteSpaces).toBe(4);
  });

  it('adds to the section given, else to the default section once the site has sections', async () => {
    const [a, b, c, d] = await spaces('A', 'B', 'C', 'D');
    const created = await createSite();
    const first = await addSection(created.id, a, 'First');
    const second = await addSection(created.id, b, 'Second');
    const inSecond = await addSiteSpace(created.id, c, second.id);
    expect(inSecond).toMatchObject({ section: second.id, default: false, path: 'c' });
    expect(Object.keys(inSecond).sort()).toEqual(SITE_SPACE_KEYS);
    const inDefault = await addSiteSpace(created.id, d);
    expect(inDefault.section).toBe(first.id);
    // The same space may be in another section, not twice in one.
    expect((await addSiteSpace(created.id, a, second.id)).section).toBe(second.id);
    const before = await stored();
    const twice = await h().owner.post(siteSpaces(created.id), { spaceId: a, sectionId: first.id });
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toBe(`spaceId: space ${a} is already in section ${first.id}`);
    expect(await stored()).toEqual(before);
  });

  it('refuses a bad add with 400 naming the field, and stores nothing', async () => {
    const [a] = await spaces('A');
    const created = await createSite({ spaces: [a] });
    const sectioned = await createSite();
    const section = await addSection(sectioned.id, a);
    const other = await h().organization();
    const foreign = await space({}, other.owner, other.organizationId);
    const trashed = await space({ title: 'Gone' });
    expect((await h().owner.delete(`/v1/spaces/${trashed.id}`)).status).toBe(205);
    const before = await stored([h().organizationId, other.organizationId]);
    await expectRefusals((body) => h().owner.post(siteSpaces(created.id), body), [
      [{}, /^spaceId: is required$/],
      [{ spaceId: '' }, /^spaceId: must not be empty$/],
      [{ spaceId: 7 }, /^spaceId: /],
      [{ spaceId: 'no-such-space' }, /^spaceId: no space no-such-space in organization /],
      [{ spaceId: foreign.id }, /^spaceId: no space .* in organization /],
      [{ spaceId: trashed.id }, /^spaceId: space .* is deleted/],
      [{ spaceId: a, sectionId: section.id }, new RegExp(`^sectionId: site ${created.id} has no sections$`)],
    ]);
    await expectRefusals((body) => h().owner.post(siteSpaces(sectioned.id), body), [
      [{ spaceId: a, sectionId: 'no-such-section' }, new RegExp(`^sectionId: No section no-such-section in site ${sectioned.id}$`)],
      [{ spaceId: a, sectionId: '' }, /^sectionId: must not be empty$/],
    ]);
    const twice = await h().owner.post(siteSpaces(created.id), { spaceId: a });
    expect(twice.status).toBe(409);
    expect(await stored([h().organizationId, other.organizationId])).toEqual(before);
  });

  it('lists in published order with an exact count, filters by default, and pages', async () => {
    const ids = await spaces('A', 'B', 'C', 'D', 'E');
    const created = await createSite();
    const first = await addSection(created.id, ids[0], 'First');
    const second = await addSection(created.id, ids[1], 'Second');
    const c = await addSiteSpace(created.id, ids[2], second.id);
    const d = await addSiteSpace(created.id, ids[3], first.id);
    const e = await addSiteSpace(created.id, ids[4], second.id);
    const order = [first.siteSpaces[0].id, d.id, second.siteSpaces[0].id, c.id, e.id];
    const list = ok(await h().owner.get(siteSpaces(created.id)));
    expect(list.count).toBe(5);
    expect(list.items.map((item: any) => item.id)).toEqual(order);
    for (const limit of [1, 2, 4, 5]) expect((await walkPages(h().owner, siteSpaces(created.id), limit)).map((item) => item.id)).toEqual(order);
    const defaults = ok(await h().owner.get(`${siteSpaces(created.id)}?default=true`));
    expect(defaults.items.map((item: any) => item.id)).toEqual([first.siteSpaces[0].id, second.siteSpaces[0].id]);
    expect(defaults.count).toBe(2);
    const others = ok(await h().owner.get(`${siteSpaces(created.id)}?default=false`));
    expect(others.items.map((item: any) => item.id)).toEqual([d.id, c.id, e.id]);
    expect(others.count).toBe(3);
    expect((await walkPages(h().owner, `${siteSpaces(created.id)}?default=false`, 1)).map((item) => item.id)).toEqual([d.id, c.id, e.id]);
    // A site without sections has one default.
    const flat = await createSite({ spaces: ids.slice(0, 3) });
    expect(ok(await h().owner.get(`${siteSpaces(flat.id)}?default=true`)).items.map((item: any) => item.space.id)).toEqual([ids[0]]);
    expect(ok(await h().owner.get(`${siteSpaces(flat.id)}?default=false`)).count).toBe(2);
    await expectRefusals((query: string) => h().owner.get(`${siteSpaces(created.id)}?${query}`), [
      ['default=yes', /^default: must be true or false$/],
      ['limit=0', /^limit: must be at least 1$/],
      ['limit=1001', /^limit: must be at most 1000$/],
      ['page=%%%', /^page: is not a cursor this API returned$/],
      ['shareKey=', /^shareKey: must not be empty$/],
      ['shareKey=has%20space', /^shareKey: must contain only letters, digits, _ and -$/],
    ]);
  });

  it('gives published URLs only while the site is published, with the share key for share-link sites', async () => {
    const [a, b] = await spaces('Alpha', 'Beta');
    const created = await createSite({ spaces: [a, b], visibility: 'share-link' });
    const unpublished = ok(await h().owner.get(`${siteSpaces(created.id)}?shareKey=secret`)).items;
    expect(unpublished.map((item: any) => item.urls)).toEqual([{}, {}]);
    ok(await h().owner.post(`${site(created.id)}/publish`));
    const base = `${origin(unpublished[0])}/published/o/${h().organizationId}/${created.id}`;
    const shared = ok(await h().owner.get(`${siteSpaces(created.id)}?shareKey=secret`)).items;
    expect(shared.map((item: any) => item.urls.published)).toEqual([`${base}?share=secret`, `${base}/beta?share=secret`]);
    expect(ok(await h().owner.get(siteSpaces(created.id))).items.map((item: any) => item.urls.published)).toEqual([base, `${base}/beta`]);
    ok(await h().owner.patch(site(created.id), { visibility: 'public' }));
    expect(ok(await h().owner.get(`${siteSpaces(created.id)}?shareKey=secret`)).items.map((item: any) => item.urls.published)).toEqual([
      base,
      `${base}/beta`,
    ]);
  });

  it('patches the path (1 to 100, unique among its siblings) and the condition (set, unchanged when absent, null removes)', async () => {
    const [a, b, c] = await spaces('A', 'B', 'C');
    const created = await createSite();
    const first = await addSection(created.id, a, 'First');
    const second = await addSection(created.id, b, 'Second');
    const ssC = await addSiteSpace(created.id, c, first.id);
    const ssA = first.siteSpaces[0];
    await setSchema(created.id);
    expect(ok(await h().owner.patch(at(created.id, ssC.id), { path: 'x' })).path).toBe('x');
    expect(ok(await h().owner.patch(at(created.id, ssC.id), { path: 'p'.repeat(100) })).path).toBe('p'.repeat(100));
    // The same path in another section is fine.
    expect(ok(await h().owner.patch(at(created.id, second.siteSpaces[0].id), { path: 'a' })).path).toBe('a');
    const withCondition = ok(await h().owner.patch(at(created.id, ssC.id), { condition: 'visitor.claims.isBeta && !visitor.claims.unsigned.fromCampaign' }));
    expect(withCondition.condition).toBe('visitor.claims.isBeta && !visitor.claims.unsigned.fromCampaign');
    expect(Object.keys(withCondition).sort()).toEqual([...SITE_SPACE_KEYS, 'condition'].sort());
    const unchanged = ok(await h().owner.patch(at(created.id, ssC.id), { path: 'renamed' }));
    expect(unchanged).toMatchObject({ path: 'renamed', condition: withCondition.condition });
    const removed = ok(await h().owner.patch(at(created.id, ssC.id), { condition: null }));
    expect(removed.condition).toBeUndefined();
    expect(ok(await h().owner.patch(at(created.id, ssC.id), { condition: 'visitor.claims["isStaff"] === true' })).condition).toBe('visitor.claims["isStaff"] === true');
    const before = await stored();
    const taken = await h().owner.patch(at(created.id, ssC.id), { path: ssA.path });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toBe(`path: "${ssA.path}" is already the path of ${ssA.id} in section ${first.id}`);
    await expectRefusals((body) => h().owner.patch(at(created.id, ssC.id), body), [
      [{ path: '' }, /^path: must be 1 to 100 characters$/],
      [{ path: 'p'.repeat(101) }, /^path: must be 1 to 100 characters$/],
      [{ path: null }, /^path: /],
      [{ condition: '' }, /^condition: must be 1 to 1024 characters$/],
      [{ condition: `visitor.claims.isBeta || ${'true || '.repeat(128)}true` }, /^condition: must be 1 to 1024 characters$/],
      [{ condition: 'visitor.claims.isAdmin' }, /^condition: visitor\.claims\.isAdmin is not a claim of the site's adaptive schema$/],
      [{ condition: 'visitor.claims.unsigned.isBeta' }, /^condition: visitor\.claims\.unsigned\.isBeta is not an unsigned claim/],
      [{ condition: 'visitor.claims.isBeta &&' }, /^condition: is not a valid expression/],
      [{ condition: 'fetch("x")' }, /^condition: function calls are not allowed$/],
      [{ condition: 'visitor.claims.isBeta + 1' }, /^condition: the operator \+ is not allowed$/],
      [{ condition: 5 }, /^condition: /],
    ]);
    expect(await stored()).toEqual(before);
  });

  it('deletes with 205: the default moves to the first remaining site space, and an emptied level has none', async () => {
    const [a, b, c] = await spaces('A', 'B', 'C');
    const created = await createSite({ spaces: [a, b, c] });
    const [ssA, ssB, ssC] = ok(await h().owner.get(siteSpaces(created.id))).items.map((item: any) => item.id);
    // Move the future default away from the front: the default stays where it was put.
    ok(await h().owner.post(`${at(created.id, ssB)}/move`, {}));
    expect(await outline(created.id)).toEqual([`${ssA}*`, ssC, ssB]);
    const deleted = await h().owner.delete(at(created.id, ssA));
    expect(deleted.status).toBe(205);
    expect(deleted.text).toBe('');
    expect(await outline(created.id)).toEqual([`${ssC}*`, ssB]);
    ok(await h().owner.post(`${at(created.id, ssC)}/move`, {}));
    expect(await outline(created.id)).toEqual([ssB, `${ssC}*`]);
    expect((await h().owner.delete(at(created.id, ssB))).status).toBe(205);
    expect(await outline(created.id)).toEqual([`${ssC}*`]);
    expect((await h().owner.delete(at(created.id, ssC))).status).toBe(205);
    expect(await outline(created.id)).toEqual([]);
    expect((await h().owner.delete(at(created.id, ssC))).status).toBe(404);
    expect(ok(await h().owner.get(site(created.id))).siteSpaces).toBe(0);
    // The space itself stays.
    expect(ok(await h().owner.get(`/v1/spaces/${a}`)).id).toBe(a);
    // The next space added to the empty level is its default.
    const again = await addSiteSpace(created.id, a);
    expect(again.default).toBe(true);
  });

  it('moves within its level: to the end without a position, before or after a sibling', async () => {
    const ids = await spaces('A', 'B', 'C', 'D');
    const created = await createSite({ spaces: ids });
    const [a, b, c, d] = ok(await h().owner.get(siteSpaces(created.id))).items.map((item: any) => item.id);
    const ref = (siteSpace: string) => ({ type: 'site-space', siteSpace });
    const moved = await h().owner.post(`${at(created.id, a)}/move`, { position: { after: ref(c) } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id: a, default: true });
    expect(await outline(created.id)).toEqual([b, c, `${a}*`, d]);
    ok(await h().owner.post(`${at(created.id, d)}/move`, { position: { before: ref(b) } }));
    expect(await outline(created.id)).toEqual([d, b, c, `${a}*`]);
    ok(await h().owner.post(`${at(created.id, b)}/move`, {}));
    expect(await outline(created.id)).toEqual([d, c, `${a}*`, b]);
    ok(await h().owner.post(`${at(created.id, d)}/move`, { position: { after: ref(c), before: ref(a) } }));
    expect(await outline(created.id)).toEqual([c, d, `${a}*`, b]);
  });

  it('refuses bad moves: foreign references (400), the same place (409), unknown site spaces (404); nothing changes', async () => {
    const ids = await spaces('A', 'B', 'C', 'D');
    const created = await createSite();
    const first = await addSection(created.id, ids[0], 'First');
    const second = await addSection(created.id, ids[1], 'Second');
    const c = await addSiteSpace(created.id, ids[2], first.id);
    const d = await addSiteSpace(created.id, ids[3], first.id);
    const a = first.siteSpaces[0].id;
    const otherSection = second.siteSpaces[0].id;
    const ref = (siteSpace: string) => ({ type: 'site-space', siteSpace });
    const before = await stored();
    await expectRefusals((body) => h().owner.post(`${at(created.id, a)}/move`, body), [
      [{ position: { after: ref(otherSection) } }, new RegExp(`^position\\.after: site-space ${otherSection} is not in section ${first.id}$`)],
      [{ position: { before: ref('no-such') } }, /^position\.before: site-space no-such is not in section /],
      [{ position: { after: ref(a) } }, /^position\.after: cannot place site-space .* relative to itself$/],
      [{ position: { after: ref(d.id), before: ref(c.id) } }, /^position: .* are not neighbours in section /],
      [{ position: { after: { type: 'site-section', siteSection: first.id } } }, /^position\.after\.type: must be "site-space"/],
      [{ position: { after: { type: 'site-space', id: c.id } } }, /^position\.after\.siteSpace: is required$/],
      [{ position: 'end' }, /^position: /],
    ]);
    const same = await h().owner.post(`${at(created.id, a)}/move`, { position: { before: ref(c.id) } });
    expect(same.status).toBe(409);
    const atEnd = await h().owner.post(`${at(created.id, d.id)}/move`, {});
    expect(atEnd.status).toBe(409);
    expect((await h().owner.post(`${at(created.id, 'no-such')}/move`, {})).status).toBe(404);
    expect(await stored()).toEqual(before);
  });

  it('lets the create role and above change site spaces, the read role list them, and nobody else', async () => {
    const [a, b] = await spaces('A', 'B');
    const created = await createSite({ spaces: [a] });
    const [existing] = ok(await h().owner.get(siteSpaces(created.id))).items;
    const before = await stored();
    for (const role of ['review', 'edit', 'comment', 'read', null] as (MemberRole | null)[]) {
      const caller = await h().user(role);
      expect((await caller.post(siteSpaces(created.id), { spaceId: b })).status, `add as ${role}`).toBe(403);
      expect((await caller.patch(at(created.id, existing.id), { path: 'x' })).status, `patch as ${role}`).toBe(403);
      expect((await caller.delete(at(created.id, existing.id))).status, `delete as ${role}`).toBe(403);
      expect((await caller.post(`${at(created.id, existing.id)}/move`, {})).status, `move as ${role}`).toBe(403);
      expect((await caller.get(siteSpaces(created.id))).status, `list as ${role}`).toBe(role === null ? 403 : 200);
    }
    expect(await stored()).toEqual(before);
    const creator = await h().user('create');
    expect((await creator.post(siteSpaces(created.id), { spaceId: b })).status).toBe(201);
    expect((await creator.patch(at(created.id, existing.id), { path: 'renamed' })).status).toBe(200);
  });
});
