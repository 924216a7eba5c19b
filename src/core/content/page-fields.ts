import * as v from 'valibot';
import { Emoji } from '../spaces/schemas.js';

/** The longest page title, in characters. */
export const MAX_TITLE_LENGTH = 100;

/**
 * The text fields of a page and their limits, wherever they come from: a change's fields, a document's
 * frontmatter (authoring, import), so that no way in stores a longer value than another refuses.
 */
export const PageTextFields = {
  title: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(MAX_TITLE_LENGTH, `must be at most ${MAX_TITLE_LENGTH} characters`)),
  emoji: Emoji,
  icon: v.pipe(v.string(), v.maxLength(100, 'must be at most 100 characters')),
  description: v.pipe(v.string(), v.maxLength(1000, 'must be at most 1000 characters')),
};
