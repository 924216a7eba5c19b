import { expect, it } from 'vitest';
import { CLAIM_LIFETIME_MS } from '../../src/core/claims/issue-claim.js';
import { httpSuite, type TestResponse } from './harness.js';

/**
 * POST /v1/claims/{code} (ours): the user an admin invited by e-mail redeems the claim URL of the invite's
 * answer, without a token, and gets an API token once; a claim used, past its 7 days, or withdrawn is a 410.
 */

httpSuite('token claims', (h) => {
  const invitesPath = () => `/v1/orgs/${h().organizationId}/invites`;

  /** Invites an address as the owner; resolves to the invite's answer. */
  async function invite(email: string, role = 'edit') {
    const response = await h().owner.post(invitesPath(), { emails: [email], role });
    expect(response.status).toBe(200);
    return response.body as { users: string[]; claims: { user: string; email: string; url: string; expiresAt: string }[] };
  }

  /** Redeems a claim URL without a token. */
  const redeem = (url: string, body?: unknown): Promise<TestResponse> => h().request('POST', new URL(url).pathname, { body });

  it('gives the invited user a token once, which then acts for it', async () => {
    const { claims } = await invite('ann@acme.test');
    const claimed = await redeem(claims[0].url, { label: 'laptop' });
    expect(claimed.status).toBe(201);
    expect(claimed.body).toMatchObject({
      object: 'token',
      label: 'laptop',
      createdAt: '2026-03-01T10:00:00.000Z',
      token: expect.stringMatching(/^dp_/),
      user: { id: claims[0].user, email: 'ann@acme.test' },
      organizationId: h().organizationId,
    });
    const me = await h().request('GET', '/v1/user', { token: claimed.body.token });
    expect(me.body.id).toBe(claims[0].user);
    expect((await h().request('GET', `/v1/orgs/${h().organizationId}/spaces`, { token: claimed.body.token })).status).toBe(200);

    const again = await redeem(claims[0].url);
    expect(again.status).toBe(410);
    expect(again.body.error.message).toMatch(/^This claim was used at 2026-03-01T10:00:00.000Z: it gives a token once/);
    const tokens = await h().request('GET', '/v1/user/tokens', { token: claimed.body.token });
    expect(tokens.body.count).toBe(1);
  });

  it('works until its 7 days are over, then is refused', async () => {
    const { claims } = await invite('late@acme.test');
    const { claims: other } = await invite('early@acme.test');
    h().clock.advance(CLAIM_LIFETIME_MS - 1);
    expect((await redeem(other[0].url)).status).toBe(201);
    h().clock.advance(1);
    const expired = await redeem(claims[0].url);
    expect(expired.status).toBe(410);
    expect(expired.body.error.message).toBe('This claim expired at 2026-03-08T10:00:00.000Z: ask an admin of your organization to invite you again');
    // Invited again, the user gets a new claim that works, and the old one stays refused.
    const { users, claims: renewed } = await invite('late@acme.test');
    expect(users).toEqual([]);
    expect(renewed).toEqual([{ user: claims[0].user, email: 'late@acme.test', url: expect.any(String), expiresAt: '2026-03-15T10:00:00.000Z' }]);
    expect(renewed[0].url).not.toBe(claims[0].url);
    expect((await redeem(renewed[0].url)).status).toBe(201);
  });

  it('voids an unused claim when a new one is issued, and issues none once the user has a token', async () => {
    const first = (await invite('dan@acme.test')).claims[0];
    const second = (await invite('dan@acme.test')).claims[0];
    expect((await redeem(first.url)).status).toBe(404);
    expect((await redeem(second.url)).status).toBe(201);
    expect((await invite('dan@acme.test')).claims).toEqual([]);
  });

  it('is withdrawn when the member is removed before redeeming it', async () => {
    const { users, claims } = await invite('gone@acme.test');
    expect((await h().owner.delete(`/v1/orgs/${h().organizationId}/members/${users[0]}`)).status).toBe(204);
    const refused = await redeem(claims[0].url);
    expect(refused.status).toBe(410);
    expect(refused.body.error.message).toBe('This claim was withdrawn: you are no longer a member of the organization that invited you');
  });

  it('answers 404 for an unknown or malformed code, 400 for a bad label, and writes nothing', async () => {
    const { claims } = await invite('eve@acme.test');
    for (const code of ['dpc_' + 'A'.repeat(43), 'nope', 'dp_' + 'A'.repeat(43)]) {
      const response = await h().request('POST', `/v1/claims/${code}`);
      expect(response.status, code).toBe(404);
      expect(response.body.error.message).toBe('No token claim with this code: ask an admin of your organization for a new invite');
    }
    expect((await redeem(claims[0].url, { label: '' })).status).toBe(400);
    expect((await redeem(claims[0].url)).status).toBe(201);
  });
});

httpSuite(
  'token claims and rate limits',
  (h) => {
    it("spends the client address's budget, whatever Authorization header comes with it", async () => {
      const remaining: number[] = [];
      for (const token of [undefined, 'dp_made-up-one-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'dp_made-up-two-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb']) {
        const response = await h().request('POST', `/v1/claims/dpc_${'Z'.repeat(43)}`, { token });
        expect(response.status).toBe(404);
        remaining.push(Number(response.headers.get('x-ratelimit-remaining')));
      }
      expect(remaining).toEqual([95, 90, 85]);
    });
  },
  { pipeline: { rateLimit: { perMinute: 100 } } },
);
