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
    const { visitorAuthKey } = await r.keys(site.id);
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

  it('gives a different ETag to visitors who see different sections', async () => {
    const site = await adaptiveSite();
    const { visitorAuthKey } = await r.keys(site.id);
    const plain = await r.read(site.url);
    const beta = await r.read(`${site.url}?jwt_token=${await r.token(visitorAuthKey, { isBeta: true })}`);
    expect(plain.headers.get('etag')).not.toBe(beta.headers.get('etag'));
  });
});
