import type { PageEntry } from '../../content/model.js';
import type { Navigation } from './navigation.js';
import type { Crumb } from './view.js';

/**
 * A page's breadcrumbs: its ancestors from the top down, its group first when it is in one. A group has no
 * URL of its own; a parent page has its published URL, hidden or not (it is reachable there).
 */
export function breadcrumbsOf(navigation: Navigation, page: PageEntry): Crumb[] {
  const crumbs: Crumb[] = [];
  for (let parent = page.parent; parent !== null; ) {
    const above = navigation.byId.get(parent);
    if (!above) break;
    const url = navigation.urls.get(above.id);
    crumbs.unshift({ title: above.title, ...(url !== undefined && { url }) });
    parent = above.parent;
  }
  return crumbs;
}
