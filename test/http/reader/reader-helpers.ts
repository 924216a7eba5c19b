import { SignJWT } from 'jose';
import { expect } from 'vitest';
import type { Harness, RequestOptions, TestResponse } from '../harness.js';
import { siteHelpers } from '../site-helpers.js';

/** Helpers of the reader suites: spaces with pages, published sites, and reading their published URLs. */
export function readerHelpers(h: () => Harness) {
  const sites = siteHelpers(h);
  const { ok } = sites;

  /** Applies changes to a space's content through a change request that is then merged; returns the merged content. */
  async function write(spaceId: string, changes: unknown[]) {
    h().clock.advance(1000);
    const request = ok(await h().owner.post(`/v1/spaces/${spaceId}/change-requests`, {}), 201);
    ok(await h().owner.post(`/v1/spaces/${spaceId}/change-requests/${request.id}/content`, { changes }));
    ok(await h().owner.post(`/v1/spaces/${spaceId}/change-requests/${request.id}/merge`, {}));
    return ok(await h().owner.get(`/v1/spaces/${spaceId}/content`));
  }

  /** Creates a space with pages (insert_page changes without the operation), `visibility` public unless told, and returns its id. */
  async function spaceWith(title: string, pages: Record<string, unknown>[], visibility = 'public') {
    const space = await sites.space({ title });
    if (visibility !== 'private') ok(await h().owner.patch(`/v1/spaces/${space.id}`, { visibility }));
    if (pages.length > 0) await write(space.id, pages.map((page) => ({ operation: 'insert_page', ...page })));
    return space.id as string;
  }

  /** Publishes a site (as the owner) and returns it. */
  async function publish(siteId: string) {
    return ok(await h().owner.post(`${sites.site(siteId)}/publish`, {}));
  }

  /** Reads a published URL (absolute, as the API gives it) through the harness's transport. */
  function read(url: string, options: RequestOptions = {}): Promise<TestResponse> {
    const { pathname, search } = new URL(url);
    return h().request('GET', `${pathname}${search}`, { token: null, ...options });
  }

  /** Reads a published URL that must answer 200 and returns its HTML. */
  async function page(url: string, options: RequestOptions = {}): Promise<string> {
    const response = await read(url, options);
    expect(response.status, `${url}: ${response.text.slice(0, 300)}`).toBe(200);
    return response.text;
  }

  /** The title of a reader document (its <h1>). */
  const heading = (text: string) => /<h1 class="page-title">([\s\S]*?)<\/h1>/.exec(text)?.[1];

  /** The URLs of the links of a document, in order. */
  const hrefs = (text: string) => [...text.matchAll(/<a [^>]*href="([^"]*)"/g)].map((match) => match[1].replace(/&amp;/g, '&'));

  /** Creates a share link of a published site (as the owner): its id, its key and the URL that carries it. */
  async function shareLink(siteId: string, name = 'Reviewers') {
    const link = ok(await h().owner.post(`${sites.site(siteId)}/share-links`, { name }), 201);
    const url = link.urls.published as string;
    return { id: link.id as string, url, key: new URL(url).searchParams.get('share')! };
  }

  /** The private key that signs a site's visitor tokens, read by the owner. */
  const privateKey = async (siteId: string) => ok(await h().owner.get(`${sites.site(siteId)}/publishing/auth`)).privateKey as string;

  /** A visitor token signed with a key, valid for `seconds` from the platform's clock (negative: expired; null: no `exp`). */
  const token = (key: string, claims: Record<string, unknown> = {}, seconds: number | null = 3600) => {
    const now = Math.floor(h().clock.now().getTime() / 1000);
    const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(now);
    return (seconds === null ? jwt : jwt.setExpirationTime(now + seconds)).sign(new TextEncoder().encode(key));
  };

  /** Creates a site showing one public space with these pages, publishes it and returns its id, space and URL. */
  async function publishedSite(pages: Record<string, unknown>[], body: Record<string, unknown> = {}, visibility = 'public') {
    const space = await spaceWith('Guide', pages, visibility);
    const created = await sites.createSite({ title: 'Handbook', spaces: [space], ...body });
    await publish(created.id);
    return { id: created.id as string, space, url: (await sites.published(created.id)).site.urls.published as string };
  }

  /**
   * A published site of two sections, `Open` (a page `Open page`) and `Beta` (a page `Beta page`) shown to
   * visitors whose token says `isBeta`: its id, its URL, the Beta section's URL, and a token that shows it.
   */
  async function betaSite() {
    const open = await spaceWith('Open', [{ title: 'Open page', document: { markdown: 'For all.\n' } }]);
    const beta = await spaceWith('Beta', [{ title: 'Beta page', document: { markdown: 'For beta users.\n' } }]);
    const site = await sites.createSite({ title: 'Adaptive' });
    await sites.setSchema(site.id);
    await sites.addSection(site.id, open, 'Open');
    const section = await sites.addSection(site.id, beta, 'Beta');
    ok(await h().owner.patch(`${sites.site(site.id)}/sections/${section.id}`, { condition: 'visitor.claims.isBeta' }));
    await publish(site.id);
    const published = await sites.published(site.id);
    const betaToken = await token(await privateKey(site.id), { isBeta: true });
    return { id: site.id as string, url: published.site.urls.published as string, betaUrl: published.structure.structure[1].urls.published as string, betaToken };
  }

  return { ...sites, betaSite, shareLink, privateKey, token, publishedSite, write, spaceWith, publish, read, page, heading, hrefs };
}
