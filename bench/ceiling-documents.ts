/** The fixed documents the ceilings answer (see ceiling-server.ts). */

/** The small object of the `small` ceiling. */
export const SMALL_OBJECT = { object: 'status', ok: true, version: '0.1.0' };

/** An object of about 300 bytes, shaped like a member of the API. */
function listItem(n: number) {
  const id = `u${String(n).padStart(19, '0')}`;
  return {
    object: 'member',
    id,
    role: 'read',
    user: {
      object: 'user',
      id,
      displayName: `Member ${n}`,
      email: `member${n}@bench.local`,
      urls: { location: `http://127.0.0.1:8080/v1/users/${id}` },
    },
    disabled: false,
    joinedAt: '2026-01-01T00:00:00.000Z',
    sso: false,
    spaces: 0,
    teams: 0,
  };
}

/** The list envelope of the `list` ceiling: 100 items, a count and a cursor, like a page of members. */
export const LIST_ENVELOPE = {
  items: Array.from({ length: 100 }, (_, n) => listItem(n)),
  count: 100_000,
  next: { page: 'WyIyMDI2LTAxLTAxVDAwOjAwOjAwLjAwMFoiLCJ1MDAwMDAwMDAwMDAwMDAwMDA5OSJd' },
};
