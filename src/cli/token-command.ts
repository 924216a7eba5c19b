import type { Platform } from '../core/platform.js';

/** What `token create|list|revoke` needs: the user, and for revoke the token's id. */
export interface TokenCommand {
  readonly sub: 'create' | 'list' | 'revoke';
  readonly userId: string;
  readonly label?: string;
  readonly tokenId?: string;
  readonly json: boolean;
}

/**
 * Runs `token create|list|revoke` as the user itself would through `/v1/user/tokens` (the same operations),
 * and returns what to print: one JSON line with `--json`, else lines for a person.
 */
export async function runTokenCommand(platform: Platform, command: TokenCommand): Promise<string> {
  const api = platform.as(command.userId);
  if (command.sub === 'create') {
    const created = await api.createUserToken(command.label === undefined ? {} : { label: command.label });
    if (command.json) return JSON.stringify(created);
    return `API token ${created.id} "${created.label}" for user ${command.userId}\nAPI token (shown once): ${created.token}`;
  }
  if (command.sub === 'revoke') {
    await api.revokeUserToken({ tokenId: command.tokenId! });
    if (command.json) return JSON.stringify({ revoked: command.tokenId });
    return `Revoked API token ${command.tokenId} of user ${command.userId}: it is refused from now on, by every server on this data`;
  }
  // A user holds at most MAX_TOKENS_PER_USER (100): one page.
  const list = await api.listUserTokens({ limit: 1000 });
  if (command.json) return JSON.stringify({ items: list.items, count: list.count });
  if (list.count === 0) return `User ${command.userId} has no API tokens`;
  const rows = list.items.map((token) => [token.id, token.createdAt, token.lastUsedAt ?? 'never', token.label]);
  return [['ID', 'CREATED', 'LAST USED', 'LABEL'], ...rows].map((row) => `${row[0]!.padEnd(16)}  ${row[1]!.padEnd(24)}  ${row[2]!.padEnd(24)}  ${row[3]}`).join('\n');
}
