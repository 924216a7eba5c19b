import { expect, it } from 'vitest';
import { RICH_DOCUMENT } from '../../core/api-reference/rich-document.js';
import { httpSuite } from '../harness.js';
import { readerHelpers } from './reader-helpers.js';

/**
 * Computed OpenAPI pages in the reader: what Scalar and Redoc show for an operation (endpoint with its
 * server, security, parameters with their limits, bodies with their schemas expanded, examples, responses,
 * deprecated flags), folded with <details> and scrolling in boxes, no script needed.
 */
httpSuite('reader API pages', (h) => {
  const r = readerHelpers(h);
  const computed = { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'pets' } } }, props: {} };

  /** A site whose second page is a computed page of the rich document; its HTML. */
  async function apiPage(document: unknown = RICH_DOCUMENT): Promise<string> {
    r.ok(await h().owner.post(`/v1/orgs/${h().organizationId}/openapi`, { slug: 'pets', source: { text: JSON.stringify(document) } }), 201);
    await h().platform.settle();
    const site = await r.publishedSite([{ title: 'Intro', document: { markdown: 'Hi.\n' } }, { type: 'computed', title: 'API reference', computed }]);
    return r.page(`${site.url}/api-reference`);
  }

  /** The HTML of one operation's section. */
  const section = (html: string, anchor: string) => [...html.matchAll(/<section class="operation[^"]*">\s*<h2 id="([^"]+)"[\s\S]*?<\/section>/g)].find((match) => match[1] === anchor)?.[0] ?? '';

  it('shows the servers, the security schemes and each operation with its endpoint, security and deprecated flag', async () => {
    const html = await apiPage();
    expect(html).toContain('<li><code>https://eu.pets.example/v2</code> Production</li>');
    expect(html).toContain('<li><code>bearerAuth</code>: Authorization: Bearer &lt;token&gt; (JWT)');
    expect(html).toContain('<li><code>apiKey</code>: header X-Api-Key');
    expect(html).toMatch(/<code>oauth<\/code>: OAuth 2\.0<div class="flow">authorizationCode <code>https:\/\/auth\.pets\.example\/authorize<\/code> <code>https:\/\/auth\.pets\.example\/token<\/code><ul><li><code>write:pets<\/code> Change pets<\/li>/);
    // The info's description, its link kept.
    expect(html).toContain('See <a href="https://example.com/guide" rel="noopener noreferrer">the guide</a>');
    const list = section(html, 'get-pets');
    expect(list).toContain('<span class="method get">GET</span> <code>/pets</code></h2>');
    expect(list).toContain('<div class="endpoint"><span class="method get">GET</span> <code>https://eu.pets.example/v2/pets</code></div>');
    expect(list).toContain('<p class="auth"><strong>Authorization</strong>: <code>bearerAuth</code></p>');
    const create = section(html, 'post-pets');
    expect(create).toContain('<strong>Authorization</strong>: <code>oauth</code> (<code>write:pets</code>), or <code>apiKey</code>');
    const get = section(html, 'get-petspetid');
    expect(get).toMatch(/^<section class="operation deprecated">/);
    expect(get).toContain('<code>/pets/{petId}</code> <span class="badge deprecated">deprecated</span></h2>');
    expect(get).toContain('<code>https://legacy.pets.example/v1/pets/{petId}</code>');
    expect(section(html, 'delete-petspetid')).not.toContain('Authorization');
    // The outline lists the operations.
    expect(html).toMatch(/<aside class="outline"[\s\S]*<a href="#get-pets">GET \/pets<\/a>[\s\S]*<a href="#post-search">POST \/search<\/a>/);
  });

  it('shows parameters in a table that scrolls in its own box, with required and deprecated flags, limits, enum, default and example', async () => {
    const html = await apiPage();
    const list = section(html, 'get-pets');
    expect(list).toMatch(/<div class="table" role="region" aria-label="Parameters of GET \/pets" tabindex="0"><table class="parameters">/);
    const limit = /<tr><td><code class="name">limit<\/code>[\s\S]*?<\/tr>/.exec(list)?.[0] ?? '';
    expect(limit).toContain('<td>query</td><td><span class="type">integer</span></td>');
    expect(limit).toContain('<div class="limits"><span>≥ 1</span><span>≤ 100</span></div>');
    expect(limit).toContain('<div class="values">Default: <code>20</code></div>');
    expect(limit).toContain('<div class="values">Example: <code>10</code></div>');
    const status = /<tr><td><code class="name">status<\/code>[\s\S]*?<\/tr>/.exec(list)?.[0] ?? '';
    expect(status).toContain('<span class="badge deprecated">deprecated</span>');
    expect(status).toContain('Allowed: <code>&quot;available&quot;</code>, <code>&quot;pending&quot;</code>, <code>&quot;sold&quot;</code>');
    const petId = section(html, 'get-petspetid');
    expect(petId).toMatch(/<code class="name">petId<\/code> <span class="badge required">required<\/span>/);
    expect(petId).toContain('<span>format: uuid</span><span>pattern: ^[0-9a-f-]{36}$</span>');
  });

  it('expands schemas: fields with their type, flags, limits and defaults, nested ones folded in <details>, cycles cut', async () => {
    const created = section(await apiPage(), 'post-pets');
    const response = /<details class="response" open><summary><code class="status s2xx">201<\/code> Added<\/summary>[\s\S]*?<\/details>\s*<\/section>|<details class="response" open><summary><code class="status s2xx">201<\/code> Added<\/summary>[\s\S]*$/.exec(created)?.[0] ?? '';
    expect(response).toContain('<div class="schema-type">Pet</div>');
    expect(response).toMatch(/<li class="field"><code class="name">id<\/code> <span class="type">integer<\/span> <span class="badge required">required<\/span> <span class="badge">read-only<\/span><div class="limits"><span>format: int64<\/span><\/div><\/li>/);
    expect(response).toMatch(/<code class="name">name<\/code> <span class="type">string<\/span> <span class="badge required">required<\/span><div class="limits"><span>1 to 64 characters<\/span><\/div>/);
    expect(response).toMatch(/<code class="name">tag<\/code> <span class="type">string or null<\/span><div class="api-prose"><p>A free tag<\/p>/);
    expect(response).toMatch(/<code class="name">weight<\/code> <span class="type">number<\/span> <span class="badge deprecated">deprecated<\/span><div class="limits"><span>&gt; 0<\/span><span>multiple of 0.5<\/span><\/div>/);
    // A nested object folds open on demand; inside it, the cycle back to Pet stops with a note.
    expect(response).toMatch(/<code class="name">owner<\/code> <span class="type">Owner<\/span><details><summary>Fields of owner<\/summary><ul class="schema">[\s\S]*?<code class="name">email<\/code> <span class="type">string<\/span><div class="limits"><span>format: email<\/span>/);
    expect(response).toMatch(/<code class="name">children<\/code> <span class="type">array of Pet<\/span><details><summary>Fields of children<\/summary><div class="items">Items: Pet<div class="cut">Circular: Pet again, as above.<\/div><\/div><\/details>/);
    expect(response).toMatch(/<code class="name">\*<\/code> <span class="muted">\(other properties\)<\/span> <span class="type">string<\/span>/);
    // The request body: required, its description, its allOf shown as such, and the document's example.
    expect(created).toContain('<h3>Request body <span class="badge required">required</span></h3><div class="api-prose"><p>The pet to add</p>');
    expect(created).toMatch(/<div class="composition"><div class="composition-kind">All of<\/div><details class="variant"><summary>1\. object<\/summary>[\s\S]*?<code class="name">kind<\/code>[\s\S]*?Allowed: <code>&quot;cat&quot;<\/code>, <code>&quot;dog&quot;<\/code>/);
    expect(created).toMatch(/<code class="name">meows<\/code> <span class="type">boolean<\/span><div class="values">Default: <code>false<\/code><\/div>/);
    expect(created).toMatch(/<details class="example sample" open><summary>Request sample \(curl\)<\/summary><pre class="code" tabindex="0" role="region" aria-label="Code: bash"><code class="hljs language-bash">curl -X POST <span class="hljs-string">&#x27;https:\/\/eu.pets.example\/v2\/pets&#x27;<\/span>/);
    expect(created).toMatch(/<details class="example" open><summary>Example: A cat<\/summary><pre class="code" tabindex="0" role="region" aria-label="Code: json"><code class="hljs language-json">/);
  });

  it('shows oneOf and anyOf as such, generated examples, response headers, and stops at the depth bound', async () => {
    const html = await apiPage();
    const get = section(html, 'get-petspetid');
    expect(get).toMatch(/<div class="composition-kind">One of<\/div><details class="variant"><summary>1\. Cat<\/summary>[\s\S]*<details class="variant"><summary>2\. Dog<\/summary>/);
    expect(get).toMatch(/<details class="response"><summary><code class="status s4xx">404<\/code> Something went wrong<\/summary>/);
    const search = section(html, 'post-search');
    expect(search).toContain('<div class="composition-kind">Any of</div>');
    expect(search).toContain('<div class="cut">Not expanded: nested too deep.</div>');
    expect(search).toContain('<summary>Example (generated from the schema)</summary>');
    const list = section(html, 'get-pets');
    expect(list).toMatch(/<h4>Headers<\/h4><div class="table" role="region" aria-label="Headers of 200" tabindex="0">[\s\S]*<code class="name">X-Rate-Limit<\/code>/);
    // The generated example of a response leaves write-only fields out.
    const example = /<summary>Example \(generated from the schema\)<\/summary><pre[^>]*><code[^>]*>([\s\S]*?)<\/code><\/pre>/.exec(list)?.[1].replace(/<[^>]+>/g, '').replace(/&quot;/g, '"') ?? '';
    expect(JSON.parse(example)).toMatchObject([{ id: 0, name: 'string', status: 'available' }]);
    expect(example).not.toContain('secret');
  });

  it('escapes everything the document says, and shows a document with nothing in it', async () => {
    const hostile = {
      openapi: '3.1.0',
      info: { title: '<script>', version: '1', description: '<img src=x onerror=alert(1)> [bad](javascript:alert(1))' },
      paths: { '/x/<b>': { get: { summary: '<i>hi</i>', responses: { '200': { description: '<script>alert(1)</script>', content: { 'text/html': { example: '<script>alert(2)</script>' } } } } } } },
      components: { schemas: {} },
    };
    const html = await apiPage(hostile);
    expect(html).not.toMatch(/<script>alert|<img src=x|href="javascript:|<i>hi|<b>/);
    expect(html).toContain('<code>/x/&lt;b&gt;</code>');
    expect(html).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
  });
});
