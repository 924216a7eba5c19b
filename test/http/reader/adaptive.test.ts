import { expect, it } from 'vitest';
import { httpSuite } from '../harness.js';
import { readerHelpers } from './reader-helpers.js';

/** Adaptive content: sections and site spaces whose condition is false for the visitor's claims are left out. */
httpSuite('reader adaptive content', (h) => {
  const r = readerHelpers(h);

  async function adaptiveSite() {
    const general = await r.spaceWith('General', [{ title: 'Everyone', document: { markdown: 'For all.\n' } }]);
    const beta = await r.spaceWith('Beta', [{ title: 'Beta features', document: { markdown: 'For beta users.\n' } }]);
    const campaign = await r.spaceWith('Campaign', [{ title: 'Campaign page', document: { markdown: 'From the campaign.\n' } }]);
    const created = await r.createSite({ title: 'Handbook' });
    await r.setSchema(created.id);
    const first = await r.addSection(created.id, general, 'General');
    const betaSection = await r.addSection(created.id, beta, 'Beta');
    const extra = await r.addSiteSpace(created.id, campaign, first.id);
    r.ok(await h().owner.patch(`${r.site(created.id)}/sections/${betaSection.id}`, { condition: 'visitor.claims.isBeta && !visitor.claims.isStaff' }));
    r.ok(await h().owner.patch(`${r.site(created.id)}/site-spaces/${extra.id}`, { condition: 'visitor.claims.unsigned.fromCampaign === true' }));
    await r.publish(created.id);
    const published = await r.published(created.id);
    const [generalSection, betaOne] = published.structure.structure;
    return { id: created.id as string, url: published.site.urls.published as string, betaUrl: betaOne.urls.published as string, campaignUrl: generalSection.siteSpaces[1].urls.published as string };
  }

  it('leaves out a section whose condition is false, and shows it for signed claims from the visitor token', async () => {
    const site = await adaptiveSite();
    const anonymous = await r.page(site.url);
    expect(anonymous).not.toContain('>Beta<');
    expect((await r.read(site.betaUrl)).status).toBe(404);
    const visitorAuthKey = await r.privateKey(site.id);
    const beta = await r.token(visitorAuthKey, { isBeta: true });
    const withClaims = await r.page(`${site.url}?jwt_token=${beta}`);
    expect(withClaims).toContain('>Beta</a>');
    expect(r.heading(await r.page(site.betaUrl, { headers: { cookie: `dp_visitor=${beta}` } }))).toContain('Beta features');
    // A staff member is not shown the beta section, and a token signed with another key brings no claims.
    const staff = await r.token(visitorAuthKey, { isBeta: true, isStaff: true });
    expect((await r.read(`${site.betaUrl}?jwt_token=${staff}`)).status).toBe(404);
    expect((await r.read(`${site.betaUrl}?jwt_token=${await r.token('forged', { isBeta: true })}`)).status).toBe(404);
    // Unsigned claims cannot stand in for signed ones.
    expect((await r.read(`${site.betaUrl}?visitor.isBeta=true`)).status).toBe(404);
  });

  it('shows a site space whose condition reads an unsigned claim from the query', async () => {
    const site = await adaptiveSite();
    expect((await r.read(site.campaignUrl)).status).toBe(404);
    expect(await r.page(site.url)).not.toContain('Campaign');
    const html = await r.page(`${site.campaignUrl}?visitor.fromCampaign=true`);
    expect(r.heading(html)).toContain('Campaign page');
    expect((await r.read(`${site.campaignUrl}?visitor.fromCampaign=false`)).status).toBe(404);
    expect((await r.read(`${site.campaignUrl}?visitor.fromCampaign=%3Cscript%3E`)).status).toBe(404);
  });

  /** A space's own published URL (`/published/s/<spaceId>`), as the API gives it. */
  const spaceUrl = async (spaceId: string) => r.ok(await h().owner.get(`/v1/spaces/${spaceId}`)).urls.published as string;

  /** Reads a URL that must redirect, and returns where to. */
  async function redirected(url: string) {
    const response = await r.read(url);
    expect(response.status, `${url}: ${response.text.slice(0, 300)}`).toBe(302);
    return response.headers.get('location')!;
  }

  /** A site whose Beta section (signed claim isBeta) shows a public space with a page that links a file and holds a searchable word. */
  async function betaSite() {
    const general = await r.spaceWith('General', [{ title: 'Everyone', document: { markdown: 'For all.\n' } }]);
    const beta = await r.spaceWith('Beta', []);
    const { files } = await r.write(beta, [{ operation: 'insert_files', files: [{ name: 'notes.txt', contentType: 'text/plain', base64: 'c2VjcmV0' }] }]);
    await r.write(beta, [{ operation: 'insert_page', title: 'Beta features', document: { markdown: `Try the zeppelin mode. [notes](/files/${files[0].id})\n` } }]);
    const created = await r.createSite({ title: 'Handbook' });
    await r.setSchema(created.id);
    await r.addSection(created.id, general, 'General');
    const section = await r.addSection(created.id, beta, 'Beta');
    r.ok(await h().owner.patch(`${r.site(created.id)}/sections/${section.id}`, { condition: 'visitor.claims.isBeta' }));
    await r.publish(created.id);
    const betaUrl = (await r.published(created.id)).structure.structure[1].urls.published as string;
    const visitorAuthKey = await r.privateKey(created.id);
    return { id: created.id as string, beta, section: section.id as string, betaUrl, spaceUrl: await spaceUrl(beta), visitorAuthKey: visitorAuthKey as string };
  }

  it("keeps a space out of its own URL for a visitor its section's condition leaves out: pages, search and files", async () => {
    const site = await betaSite();
    const staff = await r.token(site.visitorAuthKey, { isBeta: false });
    for (const query of ['', `?jwt_token=${staff}`, '?visitor.isBeta=true']) {
      // As for the section's page on the site: a 404.
      expect((await r.read(`${site.betaUrl}/beta-features${query}`)).status).toBe(404);
      for (const path of ['', '/beta-features', `/~search${query === '' ? '?' : `${query}&`}q=zeppelin`, `/~search${query === '' ? '?' : `${query}&`}q=zeppelin&fragment=1`]) {
        const url = `${site.spaceUrl}${path.startsWith('/~search') ? path : `${path}${query}`}`;
        const response = await r.read(url);
        expect(response.status, url).toBe(404);
        expect(response.text).not.toContain('zeppelin');
        expect(response.text).not.toContain('/v1/downloads/');
      }
    }
  });

  it('leads a visitor the condition holds for from the space\'s own URL to its place on the site, claims and search carried', async () => {
    const site = await betaSite();
    const beta = await r.token(site.visitorAuthKey, { isBeta: true });
    const location = await redirected(`${site.spaceUrl}/beta-features?jwt_token=${beta}`);
    expect(location).toBe(`${site.betaUrl}/beta-features?jwt_token=${beta}`);
    const html = await r.page(location);
    expect(r.heading(html)).toContain('Beta features');
    const download = r.hrefs(html).find((href) => href.includes('/v1/downloads/'))!;
    expect((await h().request('GET', new URL(download).pathname, { token: null })).text).toBe('secret');
    const search = await redirected(`${site.spaceUrl}/~search?q=zeppelin&jwt_token=${beta}`);
    expect(search).toBe(`${site.betaUrl}/~search?jwt_token=${beta}&q=zeppelin`);
    expect(r.hrefs(await r.page(search))).toContain(`${site.betaUrl}/beta-features`);
    // A token kept in a cookie is never written into the address it leads to.
    const byCookie = await r.read(`${site.spaceUrl}/beta-features`, { headers: { cookie: `dp_visitor=${beta}` } });
    expect([byCookie.status, byCookie.headers.get('location')]).toEqual([302, `${site.betaUrl}/beta-features`]);
    // Once the section's condition is gone, anyone is led there.
    r.ok(await h().owner.patch(`${r.site(site.id)}/sections/${site.section}`, { condition: null }));
    expect(await redirected(site.spaceUrl)).toBe(site.betaUrl);
  });

  it("reads a space's own URL through a site space's condition on an unsigned claim, and through any section that shows it", async () => {
    const site = await adaptiveSite();
    const campaign = r.ok(await h().owner.get(`/v1/orgs/${h().organizationId}/sites/${site.id}/site-spaces`)).items.find((item: any) => item.space.title === 'Campaign');
    const url = await spaceUrl(campaign.space.id);
    expect((await r.read(url)).status).toBe(404);
    expect((await r.read(`${url}?visitor.fromCampaign=false`)).status).toBe(404);
    const location = await redirected(`${url}?visitor.fromCampaign=true`);
    expect(location).toBe(`${site.campaignUrl}?visitor.fromCampaign=true`);
    expect(r.heading(await r.page(location))).toContain('Campaign page');
    // The same space in a section without a condition: shown there to everyone.
    const open = await r.addSection(site.id, campaign.space.id, 'Open');
    const openUrl = (await r.published(site.id)).structure.structure.find((section: any) => section.id === open.id).urls.published;
    expect(await redirected(url)).toBe(openUrl);
  });

  it('serves a public space alone at its own URL when no published site has it, conditions of unpublished sites aside', async () => {
    const site = await betaSite();
    expect((await r.read(site.spaceUrl)).status).toBe(404);
    r.ok(await h().owner.post(`${r.site(site.id)}/unpublish`, {}));
    expect(r.heading(await r.page(`${site.spaceUrl}/beta-features`))).toContain('Beta features');
  });

  it('gives a different ETag to visitors who see different sections', async () => {
    const site = await adaptiveSite();
    const visitorAuthKey = await r.privateKey(site.id);
    const plain = await r.read(site.url);
    const beta = await r.read(`${site.url}?jwt_token=${await r.token(visitorAuthKey, { isBeta: true })}`);
    expect(plain.headers.get('etag')).not.toBe(beta.headers.get('etag'));
  });
});
