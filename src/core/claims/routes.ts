import { route } from '../operation.js';
import { redeemClaim } from './redeem-claim.js';

/** The claim endpoint (ours): without a token, as the code is the permission; it spends the client address's budget. */
export const claimRoutes = [route('POST', '/v1/claims/{code}', redeemClaim, 201, { extension: true, authenticated: false })];
