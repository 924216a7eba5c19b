import type * as v from 'valibot';
import type { TokenRecord } from '../records.js';
import type { TokenSchema } from './token-schemas.js';

/** How many hex digits of a token's hash name it in the API: 64 bits, unique among one user's tokens. */
const PUBLIC_ID_LENGTH = 16;

/** The id a token is listed and revoked by: the start of its hash (the hash itself stays the store's key). */
export const publicTokenId = (record: TokenRecord): string => record.id.slice(0, PUBLIC_ID_LENGTH);

/** The token object of responses. */
export function presentToken(record: TokenRecord): v.InferInput<typeof TokenSchema> {
  return {
    object: 'token',
    id: publicTokenId(record),
    label: record.label,
    createdAt: record.createdAt,
    ...(record.lastUsedAt !== undefined && { lastUsedAt: record.lastUsedAt }),
  };
}
