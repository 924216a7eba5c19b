import * as v from 'valibot';
import { asObject, authorTool, fieldsOf, type AuthorTool, type Operations } from './author-tool.js';

// The tools that find and read: nothing they do changes what is stored.

const PAGE = 'The cursor of the next page of results: next.page of the previous answer.';
const LIMIT = 'How many results to answer, 1 to 1000.';
const ORGANIZATION = 'The id of the organization (list_organizations answers them).';
const SPACE = 'The id of the space (list_spaces answers them).';
const CHANGE_REQUEST = "The id of a change request of the space: read its content instead of the space's.";

/** The tools that find organizations, members, spaces, sites and pages, and read a page's Markdown. */
export function readTools(operations: Operations): AuthorTool[] {
  const { listOrganizations, listMembers, listSpaces, listSites, searchOrganizationContent } = operations;
  const { listSpacePages, listChangeRequestPages, getSpacePage, getSpacePageByPath, getChangeRequestPage, getChangeRequestPageByPath } = operations;

  const pageInput = {
    ...fieldsOf(getChangeRequestPage, { spaceId: SPACE, changeRequestId: CHANGE_REQUEST, pageId: 'The id of the page (list_pages answers them).' }),
    ...fieldsOf(getSpacePageByPath, { pagePath: 'The path of the page, e.g. guides/setup: its slugs from the top level.' }),
  };
  const optional = (schema: v.GenericSchema) => v.optional(schema);

  return [
    authorTool({
      name: 'list_organizations',
      title: 'List organizations',
      description: 'Lists the organizations the token’s user is a member of, with their ids. Changes nothing.',
      access: 'read',
      input: fieldsOf(listOrganizations, { limit: LIMIT, page: PAGE }),
      run: async (call, args) => call(listOrganizations, args),
    }),
    authorTool({
      name: 'list_members',
      title: 'List members',
      description: 'Lists the members of an organization with their user ids and roles, e.g. to choose reviewers; `search` matches names and e-mails. Changes nothing.',
      access: 'read',
      input: fieldsOf(listMembers, { organizationId: ORGANIZATION, search: 'Words of a name or an e-mail address.', role: 'Only members with this role.', limit: LIMIT, page: PAGE }),
      run: async (call, args) => call(listMembers, args),
    }),
    authorTool({
      name: 'list_spaces',
      title: 'List spaces',
      description: 'Lists the spaces of an organization that the user can see, with their ids and titles. Changes nothing.',
      access: 'read',
      input: fieldsOf(listSpaces, { organizationId: ORGANIZATION, limit: LIMIT, page: PAGE }),
      run: async (call, args) => call(listSpaces, args),
    }),
    authorTool({
      name: 'list_sites',
      title: 'List sites',
      description: 'Lists the sites of an organization (published or not), with their ids and URLs. Changes nothing.',
      access: 'read',
      input: fieldsOf(listSites, { organizationId: ORGANIZATION, published: 'Only the published sites (true) or only the others (false).', limit: LIMIT, page: PAGE }),
      run: async (call, args) => call(listSites, args),
    }),
    authorTool({
      name: 'search',
      title: 'Search content',
      description: 'Searches the pages of every space of an organization that the user can read; answers the spaces, pages and sections that match. Changes nothing.',
      access: 'read',
      input: fieldsOf(searchOrganizationContent, { organizationId: ORGANIZATION, query: 'The words to search for.', limit: LIMIT, page: PAGE }),
      run: async (call, args) => call(searchOrganizationContent, args),
    }),
    authorTool({
      name: 'list_pages',
      title: 'List pages',
      description:
        'Lists the pages of a space as a tree (ids, titles, paths), or of a change request with changeRequestId: what it would merge. Changes nothing.',
      access: 'read',
      input: { spaceId: pageInput.spaceId, changeRequestId: optional(pageInput.changeRequestId) },
      run: async (call, { spaceId, changeRequestId }) =>
        changeRequestId === undefined ? call(listSpacePages, { spaceId }) : call(listChangeRequestPages, { spaceId, changeRequestId }),
    }),
    authorTool({
      name: 'get_page',
      title: 'Read a page',
      description:
        "Reads one page of a space, by pageId or by pagePath, with its body as Markdown (the `markdown` field) and its subpages; with changeRequestId, the page as that change request has it. Changes nothing.",
      access: 'read',
      input: v.pipe(
        v.object({
          spaceId: pageInput.spaceId,
          changeRequestId: optional(pageInput.changeRequestId),
          pageId: optional(pageInput.pageId),
          pagePath: optional(pageInput.pagePath),
        }),
        v.check((args) => (args.pageId === undefined) !== (args.pagePath === undefined), 'give exactly one of pageId and pagePath'),
      ),
      run: async (call, { spaceId, changeRequestId, pageId, pagePath }) => {
        const page = pageId !== undefined ? { pageId } : { pagePath };
        const inSpace = changeRequestId === undefined;
        const operation = pageId !== undefined ? (inSpace ? getSpacePage : getChangeRequestPage) : inSpace ? getSpacePageByPath : getChangeRequestPageByPath;
        return asObject(await call(operation, { spaceId, ...(!inSpace && { changeRequestId }), ...page, format: 'markdown' }));
      },
    }),
  ];
}
