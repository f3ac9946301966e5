/**
 * `faucet-farmer` in k6 (agents/faucet/faucet-farmer.ts): a fresh agent registers in its style (style A
 * takes its one-time A claim), then wakes once to farm: reads its faucet status (`check_status`),
 * retries the A claim (`repeat_a_claim`), claims in style B; after a payout, with `early_claim`, it
 * tries again at once and must be refused. A B-registered farmer was told its next_claim at
 * registration, so its B claim in the same iteration must be 409 FAUCET_CLAIMED; an A-registered
 * one was told nothing and is paid. The farmer's later wakes, a day apart, are not part of an
 * iteration (`claim_every` and `jitter` have no k6 meaning).
 */
import type { EndpointId } from '../../../client/client.ts';
import type { K6Flow } from '../k6-flow.ts';
import { numberParam } from '../k6-flow.ts';

export const FAUCET_FARMER_FLOW: K6Flow = {
  agent: 'faucet-farmer',
  functionName: 'faucetFarmer',
  standing: false,
  endpoints: (style, params) => {
    const status: EndpointId[] =
      params['check_status'] === 0 ? [] : [style === 'A' ? 'faucet.A.status' : 'faucet.B.status'];
    const claimA: EndpointId[] = style === 'A' || params['repeat_a_claim'] !== 0 ? ['faucet.A.claim'] : [];
    return [style === 'A' ? 'faucet.A.register' : 'faucet.B.register', ...status, ...claimA, 'faucet.B.claim'];
  },
  params: (params) => ({
    check_status: numberParam(params, 'check_status'),
    repeat_a_claim: numberParam(params, 'repeat_a_claim'),
    early_claim: numberParam(params, 'early_claim'),
  }),
  source: `/** faucet-farmer: register, then one farming wake (and one early retry after a payout). */
function faucetFarmer(population, agent) {
  const params = population.params;
  if (!onboard(agent, null)) return;
  for (let wake = 0; wake < 2; wake++) {
    if (agent.draws.chance(params.check_status)) send(agent, agent.style === 'A' ? 'faucet.A.status' : 'faucet.B.status', [200], {});
    if (agent.draws.chance(params.repeat_a_claim)) claimA(agent);
    const outcome = claimB(agent);
    if (outcome !== 'paid' || !agent.draws.chance(params.early_claim)) return;
  }
}
`,
};
