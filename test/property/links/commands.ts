import type fc from 'fast-check';
import { ANCHORS, copyState, LINK_PAGE_URLS, markdownOf, subtree, URLS, WORDS, type Model, type ModelPage, type Real, type Target } from './model.js';
import { check } from './check.js';

/**
 * The edit batches of the links property, one class per command (fast-check's musicPlayer pattern).
 * Commands pick pages and files by position (modulo what exists), so they always apply and shrink well.
 */

/** A link as generated: resolved against the model when the command runs. */
export type LinkSpec =
  | { t: 'page'; pick: number; anchor: number | null }
  | { t: 'self'; anchor: number }
  | { t: 'file'; pick: number }
  | { t: 'url'; which: number };

/** The id a new page's links use for the page itself, before it has an id. */
const SELF = '__self__';

/** Where a generated link points in the model's current content (targets may not exist: broken links). */
function resolve(spec: LinkSpec, model: Model, self: string): Target {
  switch (spec.t) {
    case 'page': {
      const pages = [...model.request.pages.keys(), ...model.removed, 'nosuchpage'];
      const page = pages[spec.pick % pages.length];
      return spec.anchor === null ? { kind: 'page', page } : { kind: 'page', page, anchor: ANCHORS[spec.anchor % ANCHORS.length] };
    }
    case 'self':
      return { kind: 'page', page: self, anchor: ANCHORS[spec.anchor % ANCHORS.length] };
    case 'file': {
      const files = [...model.request.files, 'nosuchfile'];
      return { kind: 'file', file: files[spec.pick % files.length] };
    }
    default:
      return { kind: 'url', url: URLS[spec.which % URLS.length] };
  }
}

/** The request's document pages, in insertion order. */
const documents = (model: Readonly<Model>) => [...model.request.pages.values()].filter((page) => page.type === 'document');

/** Applies one batch to the change request; answers the compat=false result. */
async function apply(real: Real, changes: unknown[]): Promise<any> {
  real.clock.advance(1000);
  return real.api.updateChangeRequestContent({ spaceId: real.spaceId, changeRequestId: real.changeRequestId, compat: false, changes: changes as never });
}

/** Inserts a document page (headings, links; under a document page or at the top) or a link page. */
export class InsertPage implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly headings: number[],
    readonly links: LinkSpec[],
    readonly into: number | null,
    readonly link: { url: number } | { page: number } | null,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const parents = documents(model);
    const parent = this.into === null || parents.length === 0 ? null : parents[this.into % parents.length].id;
    const pages = [...model.request.pages.keys()];
    // Titles (so slugs) never repeat: moving a page to the top level never meets a sibling's slug.
    const title = `Page ${pages.length + model.removed.length}`;
    let page: ModelPage;
    let change: Record<string, unknown>;
    if (this.link) {
      const target: Target = 'page' in this.link && pages.length > 0 ? { kind: 'page', page: pages[this.link.page % pages.length] } : { kind: 'url', url: LINK_PAGE_URLS['url' in this.link ? this.link.url % LINK_PAGE_URLS.length : 0] };
      page = { id: SELF, parent, type: 'link', headings: [], links: [target] };
      change = { operation: 'insert_page', type: 'link', title, target: target.kind === 'page' ? { kind: 'page', page: target.page } : { kind: 'url', url: target.url } };
    } else {
      const links = this.links.map((spec) => resolve(spec, model, SELF));
      page = { id: SELF, parent, type: 'document', headings: this.headings.map((i) => WORDS[i % WORDS.length]), links };
      change = { operation: 'insert_page', title, document: { markdown: markdownOf(page) } };
    }
    const answer = await apply(real, [{ ...change, ...(parent !== null && { into: parent }) }]);
    const id = answer.changes[0].page.id as string;
    const links = page.links.map((target) => (target.kind === 'page' && target.page === SELF ? { ...target, page: id } : target));
    model.request.pages.set(id, { ...page, id, links });
    real.parseBudget = 1;
    await check(model, real);
  }
  toString = () => `insert(${JSON.stringify({ headings: this.headings, links: this.links, into: this.into, link: this.link })})`;
}

/** Replaces the bodies of one to three document pages (new headings, new links) in one batch. */
export class EditBody implements fc.AsyncCommand<Model, Real> {
  constructor(readonly edits: [pick: number, headings: number[], links: LinkSpec[]][]) {}
  check = (model: Readonly<Model>) => documents(model).length > 0;
  async run(model: Model, real: Real) {
    const pages = documents(model);
    // One edit per page: a later edit of the same page in the list replaces an earlier one.
    const edited = new Map<string, ModelPage>();
    for (const [pick, headings, links] of this.edits) {
      const before = pages[pick % pages.length];
      edited.set(before.id, { ...before, headings: headings.map((i) => WORDS[i % WORDS.length]), links: links.map((spec) => resolve(spec, model, before.id)) });
    }
    await apply(real, [...edited.values()].map((page) => ({ operation: 'update_page', page: page.id, document: { markdown: markdownOf(page) } })));
    for (const page of edited.values()) model.request.pages.set(page.id, page);
    real.parseBudget = edited.size;
    await check(model, real);
  }
  toString = () => `edit(${JSON.stringify(this.edits)})`;
}

/** Deletes a page and its subpages: links to them break. */
export class DeletePage implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (model: Readonly<Model>) => model.request.pages.size > 0;
  async run(model: Model, real: Real) {
    const ids = [...model.request.pages.keys()];
    const id = ids[this.pick % ids.length];
    await apply(real, [{ operation: 'delete_page', page: id }]);
    for (const gone of subtree(model.request, id)) {
      model.request.pages.delete(gone);
      model.removed.push(gone);
    }
    real.parseBudget = 0;
    await check(model, real);
  }
  toString = () => `delete(#${this.pick})`;
}

/** Renames a page and moves it to the top level: its links and anchors stay as they are. */
export class MoveToTop implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (model: Readonly<Model>) => model.request.pages.size > 0;
  async run(model: Model, real: Real) {
    const ids = [...model.request.pages.keys()];
    const id = ids[this.pick % ids.length];
    await apply(real, [{ operation: 'update_page', page: id, title: `Moved ${this.pick}`, into: null, at: 0 }]);
    model.request.pages.set(id, { ...model.request.pages.get(id)!, parent: null });
    real.parseBudget = 0;
    await check(model, real);
  }
  toString = () => `moveToTop(#${this.pick})`;
}

/** Uploads a file: links to its id work from now on. */
export class InsertFile implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real) {
    const answer = await apply(real, [{ operation: 'insert_files', files: [{ name: 'f.txt', contentType: 'text/plain', base64: btoa('f') }] }]);
    model.request.files.push(answer.insertedFiles[0].id);
    real.parseBudget = 0;
    await check(model, real);
  }
  toString = () => 'insertFile';
}

/** Merges the change request into the space and opens a new one on the result. */
export class MergeAndReopen implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real) {
    real.clock.advance(1000);
    await real.api.mergeChangeRequest({ spaceId: real.spaceId, changeRequestId: real.changeRequestId });
    real.changeRequestId = (await real.api.createChangeRequest({ spaceId: real.spaceId })).id;
    model.space = copyState(model.request);
    model.base = copyState(model.request);
    // The merged revision's index comes from the space's previous one: every page the request changed is parsed.
    real.parseBudget = Infinity;
    await check(model, real);
  }
  toString = () => 'mergeAndReopen';
}
