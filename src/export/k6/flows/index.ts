/**
 * The archetypes `afp export k6` can write, one row each, and the ones it refuses with the reason.
 * A new exportable archetype is a new flow file and a new row; an archetype in neither table is
 * refused too (a new agent is not exported before someone writes its flow).
 */
import type { K6Flow } from '../k6-flow.ts';
import { ESCROW_BUYER_FLOW } from './escrow-buyer.ts';
import { ESCROW_SELLER_FLOW } from './escrow-seller.ts';
import { FAUCET_FARMER_FLOW } from './faucet-farmer.ts';
import { RATE_LIMIT_ABUSER_FLOW } from './rate-limit-abuser.ts';

export const K6_FLOWS: Readonly<Record<string, K6Flow>> = Object.freeze(
  Object.fromEntries(
    [FAUCET_FARMER_FLOW, ESCROW_BUYER_FLOW, ESCROW_SELLER_FLOW, RATE_LIMIT_ABUSER_FLOW].map((flow) => [
      flow.agent,
      flow,
    ]),
  ),
);

const CASINO_REASON =
  "its bets need the casino funded by a simulated chain deposit and each answer verified under the fairness scheme (afp's agent does both; a k6 script does neither)";

/** Why each known archetype without a flow cannot be written as k6. */
export const K6_REFUSALS: Readonly<Record<string, string>> = Object.freeze({
  'bad-input-sender':
    "its malformed requests come from afp's bad-input case tables (raw bodies, wrong content types, per-route field rules) and each expected refusal is judged against the route; not ported to k6",
  'fixed-bettor': CASINO_REASON,
  martingale: CASINO_REASON,
  'kelly-bettor': CASINO_REASON,
  'batch-bettor': CASINO_REASON,
  'tournament-player': `${CASINO_REASON}; tournaments also run on the platform's clock`,
  challenger: `${CASINO_REASON}; challenges pair agents across hours of time`,
  'fairness-checker':
    "it verifies revealed server seeds with the fairness scheme's exact laws, which live in afp, not in the script",
});

export function refusalOf(agent: string): string {
  return K6_REFUSALS[agent] ?? 'no k6 flow is written for this archetype';
}
