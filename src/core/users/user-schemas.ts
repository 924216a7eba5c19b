import * as v from 'valibot';

/** An e-mail address as users are found by it: trimmed and lower-cased, at most 254 characters (RFC 5321). */
export const Email = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.maxLength(254, 'must be at most 254 characters'),
  v.email('must be an e-mail address'),
);

/** A user's display name: 1 to 255 characters. */
export const DisplayName = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(255, 'must be at most 255 characters'));
