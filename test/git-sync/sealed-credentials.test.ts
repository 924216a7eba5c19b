import { describe, expect, it } from 'vitest';
import { remoteWith, sealCredentials } from '../../src/core/git-sync/sealed-credentials.js';
import { secretsFromKey } from '../../src/core/secrets.js';

/** Credentials kept for the exports after merges: sealed under the signing secret and the space. */

const secrets = secretsFromKey('a signing key');
const url = 'https://git.test/docs.git';

describe('sealed credentials', () => {
  it('open for the space they were sealed for, and nowhere else', async () => {
    const sealed = await sealCredentials(secrets, 'space1', { url, username: 'deploy', password: 'hunter2 é/@' });
    expect(sealed).toBeDefined();
    expect(JSON.stringify(sealed)).not.toMatch(/deploy|hunter2/);
    expect(await remoteWith(secrets, 'space1', url, sealed)).toEqual({ url, username: 'deploy', password: 'hunter2 é/@' });
    expect(await remoteWith(secrets, 'space2', url, sealed)).toEqual({ url });
    expect(await remoteWith(secretsFromKey('another key'), 'space1', url, sealed)).toEqual({ url });
  });

  it('are nothing for a URL without credentials, and a fresh nonce each time', async () => {
    expect(await sealCredentials(secrets, 'space1', { url })).toBeUndefined();
    const [a, b] = await Promise.all([1, 2].map(() => sealCredentials(secrets, 'space1', { url, password: 'x' })));
    expect(a!.iv).not.toBe(b!.iv);
    expect(await remoteWith(secrets, 'space1', url, { iv: 'bad', data: 'bad' })).toEqual({ url });
  });
});
