import { asObject, authorTool, fieldsOf, type AuthorTool, type Operations } from './author-tool.js';

// The tools that put content in front of readers: publish a site, and choose the spaces it shows.

const ORGANIZATION = 'The id of the organization (list_organizations answers them).';
const SITE = 'The id of the site (list_sites answers them).';

/** The site tools: publish_site, unpublish_site, add_space_to_site. */
export function siteTools(operations: Operations): AuthorTool[] {
  const { publishSite, unpublishSite, addSpaceToSite } = operations;
  const site = fieldsOf(publishSite, { organizationId: ORGANIZATION, siteId: SITE });
  return [
    authorTool({
      name: 'publish_site',
      title: 'Publish a site',
      description: 'Publishes a site: its spaces’ content becomes readable at the site’s URL (as its visibility allows). Changes the site’s published state.',
      access: 'write',
      input: site,
      run: async (call, args) => asObject(await call(publishSite, args)),
    }),
    authorTool({
      name: 'unpublish_site',
      title: 'Unpublish a site',
      description: 'Unpublishes a site: readers can no longer read it at its URL; its content is kept. Changes the site’s published state.',
      access: 'write',
      input: site,
      run: async (call, args) => asObject(await call(unpublishSite, args)),
    }),
    authorTool({
      name: 'add_space_to_site',
      title: 'Add a space to a site',
      description:
        'Adds a space to a site, so that the site shows its content (in a section of the site with sectionId, else in its default one). Changes the site’s structure; the space is unchanged.',
      access: 'write',
      input: {
        ...site,
        ...fieldsOf(addSpaceToSite, { spaceId: 'The id of the space to add (list_spaces answers them).', sectionId: 'The id of the site section to add it to.' }),
      },
      run: async (call, args) => asObject(await call(addSpaceToSite, args)),
    }),
  ];
}
