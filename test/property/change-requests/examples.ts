import type fc from 'fast-check';
import { EditContent, type EditOp } from './content-commands.js';
import { CreateRequest } from './lifecycle-commands.js';
import { MergeRequest, SpaceEdit, UpdateRequest } from './merge-commands.js';
import type { Model, Real } from './model.js';

/**
 * Runs that once failed, checked first on every run (fast-check's `examples`). Ops are written as the
 * commands print them: `+` inserts, `kind:n` changes the n-th page.
 */

const ops = (text: string): EditOp[] =>
  text.split(' ').map((op) => {
    if (op === '+') return { kind: 'insert', page: 0 };
    const [kind, page] = op.split(':');
    return { kind: kind as EditOp['kind'], page: Number(page) };
  });

const FIRST_LIVE = { pick: 0, any: false };
const edit = (text: string) => new EditContent(FIRST_LIVE, ops(text), false);

export type Run = fc.AsyncCommand<Model, Real>[];

export const EXAMPLES: Run[] = [
  // A page the request deletes and reverts (in one batch, its neighbour deleted before) came back under a
  // new ordering key, so a merge took it for an edit that clashed with the space's deletion of the page.
  [
    new CreateRequest(false, undefined),
    edit('+ body:0'),
    edit('delete:1 body:0'),
    edit('delete:5 revert:2 +'),
    new SpaceEdit(ops('delete:2 +')),
    new MergeRequest(FIRST_LIVE, false),
  ],
  // The same, the page's ordering key taken meanwhile by a page the request inserted at the end.
  [new CreateRequest(false, undefined), edit('delete:3 +'), edit('revert:3'), new SpaceEdit(ops('delete:3')), new MergeRequest(FIRST_LIVE, false)],
  // An update put the page the space added at the end after the request's own, which had taken its
  // ordering key, under a new key: the next update took that for a move of the page by the request, which
  // clashed with the space's deletion of it. (The two refused edits only use up page numbers, so that the
  // space's page, page-10, sorts second and is the one it deletes.)
  [
    new EditContent({ pick: 0, any: true }, ops('+'), false),
    new EditContent({ pick: 0, any: true }, ops('+ +'), false),
    new CreateRequest(false, undefined),
    edit('+ +'),
    new SpaceEdit(ops('+')),
    new UpdateRequest(FIRST_LIVE),
    new SpaceEdit(ops('delete:1 +')),
    new UpdateRequest(FIRST_LIVE),
  ],
  // A page both sides have and the base does not: request #5, updated, kept page-1 that the space deleted;
  // then request #3's merge put page-1 back in the space, with another change. Merging request #5 then
  // combines two additions of page-1: its different title and body are conflicts (the model once kept the
  // space's page without one).
  [
    new SpaceEdit(ops('+')),
    new CreateRequest(false, undefined),
    new SpaceEdit(ops('+')),
    new CreateRequest(false, undefined),
    edit('body:0'),
    new EditContent({ pick: 1, any: false }, ops('title:0 +'), false),
    new SpaceEdit(ops('+')),
    new CreateRequest(false, undefined),
    new SpaceEdit(ops('+')),
    new CreateRequest(false, undefined),
    new SpaceEdit(ops('delete:0 +')),
    new UpdateRequest({ pick: 4, any: true }),
    new MergeRequest(FIRST_LIVE, false),
    new MergeRequest(FIRST_LIVE, false),
  ],
];
