import * as v from 'valibot';
import { authorTool, described, describedFields, fieldOf, fieldsOf, requiredOf, type AuthorTool, type Operations } from './author-tool.js';

// The tools of the change-request workflow: open one, edit its pages, discuss it, merge it.

const SPACE = 'The id of the space (list_spaces answers them).';
const CHANGE_REQUEST = 'The id of the change request (open_change_request answers it).';

type ObjectLike = v.GenericSchema & { readonly entries: v.ObjectEntries };

/**
 * The object schema of one kind of change (`insert_page`, ...) in the authoring batch's `changes`: the
 * options of the variant its array holds.
 */
function changeSchema(operations: Operations, kind: string): ObjectLike {
  const changes = fieldOf(operations.updateChangeRequestContent.body!, 'changes', 'updateChangeRequestContent') as unknown as { item: { options: ObjectLike[] } };
  const found = changes.item.options.find((option) => (option.entries.operation as unknown as { literal?: string }).literal === kind);
  if (!found) throw new Error(`updateChangeRequestContent takes no ${kind} change`);
  return found;
}

/** The change tools: open_change_request, edit_pages, comment, request_review, merge_change_request. */
export function changeRequestTools(operations: Operations): AuthorTool[] {
  const { createChangeRequest, updateChangeRequestContent, postCommentInChangeRequest, requestReviewers, mergeChangeRequest } = operations;
  const target = fieldsOf(mergeChangeRequest, { spaceId: SPACE, changeRequestId: CHANGE_REQUEST });

  const insert = changeSchema(operations, 'insert_page');
  const update = changeSchema(operations, 'update_page');
  const remove = changeSchema(operations, 'delete_page');
  // A body is Markdown here: the batch's {"markdown": "..."} form of a document, as one string.
  const documentForms = (requiredOf(fieldOf(insert.entries, 'document', 'insert_page')) as unknown as { options: ObjectLike[] }).options;
  const markdown = fieldOf(documentForms.find((form) => 'markdown' in form.entries)!.entries, 'markdown', 'a page body');
  const place = {
    into: 'The id of the parent page (or the ref of a page inserted earlier in the batch); left out: the top level.',
    at: 'The position among the parent’s pages, 0 first; left out: last.',
  };
  const PageChange = v.variant('operation', [
    v.object({
      ...describedFields(
        insert.entries,
        { operation: 'Insert a new page.', title: 'The page’s title.', ...place, ref: 'A name for the new page that later changes of the batch use in place of its id.' },
        'insert_page',
      ),
      markdown: described(markdown, 'The page’s body, as Markdown.'),
    }),
    v.object({
      ...describedFields(update.entries, { operation: 'Update a page: its title, its body, or its place (move).', page: 'The id of the page.', title: 'A new title.' }, 'update_page'),
      markdown: v.optional(described(markdown, 'The new body, as Markdown; replaces the whole body.')),
      ...describedFields(update.entries, { into: 'Move the page under this page; null for the top level.', at: place.at }, 'update_page'),
    }),
    v.object(describedFields(remove.entries, { operation: 'Delete a page, with its subpages.', page: 'The id of the page.' }, 'delete_page')),
  ]);
  const batch = fieldOf(updateChangeRequestContent.body!, 'changes', 'updateChangeRequestContent') as unknown as { pipe: readonly unknown[] };
  // The batch's own limits (at least one change, at most 50), on the tool's kinds of change.
  const limits = batch.pipe.slice(1) as v.PipeItem<any, any, any>[];
  const commentBody = fieldOf(postCommentInChangeRequest.body!, 'body', 'postCommentInChangeRequest') as ObjectLike;

  return [
    authorTool({
      name: 'open_change_request',
      title: 'Open a change request',
      description:
        'Opens a new change request on a space, with a subject: a draft copy of the space’s content to edit with edit_pages, review, and merge. Creates the change request; the space’s content is unchanged.',
      access: 'write',
      input: fieldsOf(createChangeRequest, { spaceId: SPACE, subject: 'What the change is about, up to 100 characters.' }, ['subject']),
      run: async (call, args) => call(createChangeRequest, args),
    }),
    authorTool({
      name: 'edit_pages',
      title: 'Edit pages in a change request',
      description:
        'Applies an ordered batch of page changes to a change request, all or nothing: insert a page with a Markdown body, update a page’s title or Markdown body, move it (into, at), or delete it with its subpages. Changes the change request’s content only; the space changes when the change request is merged.',
      access: 'write',
      input: {
        ...target,
        changes: described(v.pipe(v.array(PageChange), ...limits), 'The changes, applied in order.'),
      },
      run: async (call, { spaceId, changeRequestId, changes }) =>
        call(updateChangeRequestContent, { spaceId, changeRequestId, compat: false, changes: (changes as Record<string, unknown>[]).map(toBatchChange) }),
    }),
    authorTool({
      name: 'comment',
      title: 'Comment on a change request',
      description: 'Posts a comment in a change request’s discussion, optionally about one of its pages. Adds the comment; changes no content.',
      access: 'write',
      input: {
        ...target,
        markdown: described(requiredOf(fieldOf(commentBody.entries, 'markdown', 'a comment body')), 'The comment, as Markdown.'),
        ...fieldsOf(postCommentInChangeRequest, { page: 'The id of the page the comment is about.' }),
      },
      run: async (call, { spaceId, changeRequestId, markdown: body, page }) =>
        call(postCommentInChangeRequest, { spaceId, changeRequestId, body: { markdown: body }, ...(page !== undefined && { page }) }),
    }),
    authorTool({
      name: 'request_review',
      title: 'Ask for a review',
      description:
        'Asks users to review a change request; each must be a member with the review level or above on the space. A draft change request becomes open (submitted for review). Records the review requests; changes no content.',
      access: 'write',
      input: { ...target, ...fieldsOf(requestReviewers, { users: 'The user ids of the reviewers (list_members answers them).' }) },
      run: async (call, args) => call(requestReviewers, args),
    }),
    authorTool({
      name: 'merge_change_request',
      title: 'Merge a change request',
      description:
        'Merges a change request into its space: its edits become the space’s content (and that of the sites that publish the space). Changes the space; the change request becomes merged and final.',
      access: 'write',
      input: target,
      run: async (call, args) => call(mergeChangeRequest, args),
    }),
  ];
}

/** A change of the tool (`markdown` as a string) as the authoring batch takes it (`document: {markdown}`). */
function toBatchChange(change: Record<string, unknown>): Record<string, unknown> {
  const { markdown, ...rest } = change;
  return markdown === undefined ? rest : { ...rest, document: { markdown } };
}
