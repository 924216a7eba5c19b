import { pause, type ApiBody, type ApiMedia, type ApiOperation, type ApiParameter, type ApiReference, type ApiResponse, type ApiSecurityRequirement, type ApiSecurityScheme, type PageView, type SchemaNode } from '../core/reader.js';
import { html, raw, type Html } from './html.js';
import { highlightCode } from './highlight.js';
import type { LayoutWords } from './layout-words.js';
import { renderFragment, type Heading } from './markdown.js';

/**
 * A computed OpenAPI page as HTML, from its page model (core/content/api-reference/): the servers and
 * security schemes, then one section per operation with its endpoint, security, parameters, request body
 * and responses. Nested schemas fold open on demand in <details> (no script), wide tables scroll inside
 * their own box, and examples are highlighted code. Everything it shows was decided by the core; this
 * only lays it out.
 */

/** What rendering needs besides the model: where the descriptions' links lead, and the labels of regions that scroll. */
interface View {
  readonly links: PageView['links'];
  readonly labels: Pick<LayoutWords, 'code' | 'table'>;
}

const COMPOSITION_WORDS = { allOf: 'All of', oneOf: 'One of', anyOf: 'Any of' } as const;

/** A description (CommonMark), its links as the core resolved them. */
const prose = (markdown: string | undefined, view: View) => markdown && html`<div class="api-prose">${raw(renderFragment(markdown, view.links, view.labels))}</div>`;

/** A box that scrolls sideways on its own when its content is wider than the page (a table, code). */
const scrollBox = (label: string, content: Html) => html`<div class="table" role="region" aria-label="${label}" tabindex="0">${content}</div>`;

/** A field's badges: required, deprecated, read-only, write-only. */
function badges(node: Pick<SchemaNode, 'required' | 'deprecated' | 'readOnly' | 'writeOnly'>): Html {
  return html`${node.required && html` <span class="badge required">required</span>`}${node.deprecated && html` <span class="badge deprecated">deprecated</span>`}${node.readOnly && html` <span class="badge">read-only</span>`}${node.writeOnly && html` <span class="badge">write-only</span>`}`;
}

/** What limits a value: its constraints, allowed values and default. */
function limits(node: SchemaNode): Html {
  return html`${node.constraints.length > 0 && html`<div class="limits">${node.constraints.map((constraint) => html`<span>${constraint}</span>`)}</div>`}${
    node.enum && html`<div class="values">Allowed: ${node.enum.map((member, at) => html`${at > 0 && ', '}<code>${member}</code>`)}${node.moreEnum && ` and ${node.moreEnum} more`}</div>`
  }${node.default !== undefined && html`<div class="values">Default: <code>${node.default}</code></div>`}`;
}

/** Why a node stops, in words. */
function cutNote(node: SchemaNode): Html | undefined {
  if (node.cut === 'cycle') return html`<div class="cut">Circular: ${node.ref ?? 'this schema'} again, as above.</div>`;
  if (node.cut === 'depth') return html`<div class="cut">Not expanded: nested too deep.</div>`;
  if (node.cut === 'budget') return html`<div class="cut">Not expanded: the page shows enough fields.</div>`;
  return undefined;
}

/** Whether a node holds something to unfold. */
const hasChildren = (node: SchemaNode) => node.properties.length > 0 || node.items !== undefined || node.additional !== undefined || node.composition !== undefined;

/** What a node holds: its fields, its items, its other properties, its variants. */
function children(node: SchemaNode, view: View): Html {
  const more = node.moreProperties && html`<li class="more">${node.moreProperties} more properties not shown.</li>`;
  return html`${(node.properties.length > 0 || more) && html`<ul class="schema">${node.properties.map((property) => field(property, view))}${more}</ul>`}${
    node.items && (hasChildren(node.items) || node.items.cut ? html`<div class="items">Items: ${node.items.type}${cutNote(node.items)}${hasChildren(node.items) && children(node.items, view)}</div>` : undefined)
  }${node.additional && html`<ul class="schema">${field({ ...node.additional, name: '*' }, view, 'other properties')}</ul>`}${node.composition && composition(node.composition, view)}`;
}

/** A composition: each variant under its number and name, folded. */
function composition(value: NonNullable<SchemaNode['composition']>, view: View): Html {
  return html`<div class="composition"><div class="composition-kind">${COMPOSITION_WORDS[value.kind]}</div>${value.variants.map(
    (variant, at) =>
      html`<details class="variant"><summary>${at + 1}. ${variant.ref ?? variant.type}</summary>${prose(variant.description, view)}${limits(variant)}${cutNote(variant)}${children(variant, view)}</details>`,
  )}</div>`;
}

/** One field: its name, type and badges, its description and limits, and what it holds folded below. */
function field(node: SchemaNode, view: View, label?: string): Html {
  const head = html`<code class="name">${node.name ?? ''}</code>${label && html` <span class="muted">(${label})</span>`} <span class="type">${node.type}</span>${badges(node)}`;
  const body = html`${prose(node.description, view)}${limits(node)}${cutNote(node)}`;
  if (!hasChildren(node)) return html`<li class="field">${head}${body}</li>`;
  return html`<li class="field">${head}${body}<details><summary>Fields of ${node.name ?? node.type}</summary>${children(node, view)}</details></li>`;
}

/** A schema at the top of a body: its own notes, then what it holds, open. */
const schemaBlock = (node: SchemaNode, view: View) => html`<div class="schema-root"><div class="schema-type">${node.type}</div>${prose(node.description, view)}${limits(node)}${cutNote(node)}${children(node, view)}</div>`;

/** Examples, each folded under its title, the first open. */
function examples(media: ApiMedia, view: View): Html {
  return html`${media.examples.map(
    (example, at) =>
      html`<details class="example"${at === 0 ? html` open` : ''}><summary>${example.generated ? 'Example (generated from the schema)' : example.title ? `Example: ${example.title}` : 'Example'}</summary><pre class="code" tabindex="0" role="region" aria-label="${view.labels.code('json')}"><code class="hljs language-json">${raw(
        highlightCode(example.value, /json/i.test(media.mediaType) || example.generated ? 'json' : ''),
      )}</code></pre></details>`,
  )}`;
}

/** The media types of a body or response: each its type, schema and examples. */
const contents = (list: readonly ApiMedia[], view: View) =>
  html`${list.map((media) => html`<div class="media"><div class="media-type"><code>${media.mediaType}</code></div>${media.schema && schemaBlock(media.schema, view)}${examples(media, view)}</div>`)}`;

/** Parameters (or response headers) as a table that scrolls in its own box. */
function parameterTable(label: string, parameters: readonly ApiParameter[], view: View, withPlace: boolean): Html {
  const rows = parameters.map(
    (parameter) =>
      html`<tr><td><code class="name">${parameter.name}</code>${badges({ required: parameter.required, deprecated: parameter.deprecated, readOnly: false, writeOnly: false })}</td>${withPlace && html`<td>${parameter.in}</td>`}<td><span class="type">${parameter.schema.type}</span></td><td>${prose(parameter.description, view)}${limits(parameter.schema)}${
        parameter.example !== undefined && html`<div class="values">Example: <code>${parameter.example}</code></div>`
      }${hasChildren(parameter.schema) && html`<details><summary>Fields of ${parameter.name}</summary>${children(parameter.schema, view)}</details>`}</td></tr>`,
  );
  return scrollBox(label, html`<table class="parameters"><thead><tr><th>Name</th>${withPlace && html`<th>In</th>`}<th>Type</th><th>Description</th></tr></thead><tbody>${rows}</tbody></table>`);
}

/** An operation's security: its alternatives, each the schemes it needs with their scopes. */
function security(requirements: readonly ApiSecurityRequirement[]): Html | undefined {
  if (requirements.length === 0) return undefined;
  const alternative = (requirement: ApiSecurityRequirement) =>
    requirement.schemes.length === 0
      ? html`none`
      : html`${requirement.schemes.map((scheme, at) => html`${at > 0 && ' and '}<code>${scheme.name}</code>${scheme.scopes.length > 0 && html` (${scheme.scopes.map((scope, i) => html`${i > 0 && ', '}<code>${scope}</code>`)})`}`)}`;
  return html`<p class="auth"><strong>Authorization</strong>: ${requirements.map((requirement, at) => html`${at > 0 && ', or '}${alternative(requirement)}`)}</p>`;
}

/** The request body. */
const requestBody = (body: ApiBody, view: View) =>
  html`<h3>Request body${body.required && html` <span class="badge required">required</span>`}</h3>${prose(body.description, view)}${contents(body.contents, view)}`;

/** A response, folded under its status and description; the first open. */
function response(value: ApiResponse, open: boolean, view: View): Html {
  const kind = /^[1-5]/.test(value.status) ? `s${value.status[0]}xx` : 'sdefault';
  return html`<details class="response"${open ? html` open` : ''}><summary><code class="status ${kind}">${value.status}</code> ${value.description?.replace(/\s+/g, ' ').trim()}</summary>${
    value.headers.length > 0 && html`<h4>Headers</h4>${parameterTable(`Headers of ${value.status}`, value.headers, view, false)}`
  }${contents(value.contents, view)}</details>`;
}

/** One operation's section. */
function operation(value: ApiOperation, view: View): Html {
  const method = value.method.toLowerCase();
  return html`<section class="operation${value.deprecated ? ' deprecated' : ''}">
<h2 id="${value.anchor}"><a class="anchor" href="#${value.anchor}" aria-label="Link to this section">#</a><span class="method ${method}">${value.method}</span> <code>${value.path}</code>${value.deprecated && html` <span class="badge deprecated">deprecated</span>`}</h2>
${value.summary && html`<p class="summary">${value.summary}</p>`}${prose(value.description, view)}
${value.servers.map((server) => html`<div class="endpoint"><span class="method ${method}">${value.method}</span> <code>${server.url.replace(/\/+$/, '')}${value.path}</code></div>`)}
${value.operationId && html`<p class="muted">Operation <code>${value.operationId}</code></p>`}${security(value.security)}
${value.parameters.length > 0 && html`<h3>Parameters</h3>${parameterTable(`Parameters of ${value.method} ${value.path}`, value.parameters, view, true)}`}
${value.requestBody && requestBody(value.requestBody, view)}
${value.sample && html`<details class="example sample" open><summary>Request sample (curl)</summary><pre class="code" tabindex="0" role="region" aria-label="${view.labels.code('bash')}"><code class="hljs language-bash">${raw(highlightCode(value.sample, 'bash'))}</code></pre></details>`}
${value.responses.length > 0 && html`<h3>Responses</h3>${value.responses.map((item, at) => response(item, at === 0, view))}`}
</section>`;
}

/** A security scheme, as an entry of the list at the top. */
const scheme = (value: ApiSecurityScheme, view: View) =>
  html`<li><code>${value.name}</code>: ${value.summary}${prose(value.description, view)}${value.flows.map(
    (flow) => html`<div class="flow">${flow.kind}${flow.urls.map((url) => html` <code>${url}</code>`)}${flow.scopes.length > 0 && html`<ul>${flow.scopes.map((scope) => html`<li><code>${scope.name}</code> ${scope.description}</li>`)}</ul>`}</div>`,
  )}</li>`;

/**
 * How many operations are rendered between two pauses. A large API's page (thousands of operations, each
 * with its schemas' folds and highlighted samples) took 1 to 1.9 s in one turn; in slices, other requests
 * are answered between them. The page model is the core's, kept in memory per specification version, so
 * rendering stays on this thread rather than copying the model to another.
 */
const OPERATIONS_PER_SLICE = 10;

/** A computed page's body as HTML, and its operations as the outline's headings, rendered in slices. */
export async function renderApiReference(reference: ApiReference, links: View['links'], labels: View['labels']): Promise<{ html: string; headings: Heading[] }> {
  const view: View = { links, labels };
  const overview = html`${prose(reference.description, view)}${
    reference.servers.length > 0 && html`<div class="api-servers"><strong>Servers</strong><ul>${reference.servers.map((server) => html`<li><code>${server.url}</code>${server.description && ` ${server.description}`}</li>`)}</ul></div>`
  }${reference.securitySchemes.length > 0 && html`<div class="api-security"><strong>Authentication</strong><ul>${reference.securitySchemes.map((item) => scheme(item, view))}</ul></div>`}`;
  const operations: Html[] = [];
  for (const item of reference.operations) {
    if (operations.push(operation(item, view)) % OPERATIONS_PER_SLICE === 0) await pause();
  }
  const body = html`<div class="api">${overview}${operations}${
    reference.omittedOperations > 0 && html`<p class="cut">${reference.omittedOperations} more operations are not shown: a page shows at most ${reference.operations.length}.</p>`
  }</div>`;
  const headings = reference.operations.map((item) => ({ level: 2, anchor: item.anchor, text: `${item.method} ${item.path}` }));
  return { html: body.value, headings };
}
