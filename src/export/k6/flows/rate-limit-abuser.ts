/**
 * `rate-limit-abuser` in k6 (agents/shared/rate-limit-abuser.ts): a fresh agent registers (no A claim,
 * as the agent), then fires `burst` requests back to back at its `target` endpoint, honouring
 * nothing; 429s are expected answers. Check: the accepted requests fit the free tier's bucket
 * (3 × 100 per minute = 300) plus what the bucket refills while the burst lasts (100 a minute):
 * afp's virtual burst takes no time, a wall-clock burst does. Only the free tier is exported
 * (k6-script.ts refuses other tiers). The burst's length is read from k6's own run clock
 * (`exec.instance.currentTestRunDuration`). `every` has no k6 meaning.
 */
import type { EndpointId } from '../../../client/client.ts';
import { stringParam, numberParam, type K6Flow } from '../k6-flow.ts';

export const RATE_LIMIT_ABUSER_FLOW: K6Flow = {
  agent: 'rate-limit-abuser',
  functionName: 'rateLimitAbuser',
  standing: false,
  endpoints: (style, params) => [
    style === 'A' ? 'faucet.A.register' : 'faucet.B.register',
    params['target'] as EndpointId,
  ],
  params: (params) => ({ burst: numberParam(params, 'burst'), target: stringParam(params, 'target') }),
  source: `const FREE_BURST_CAPACITY = 300;
const FREE_PER_MINUTE = 100;

/** rate-limit-abuser: register, then one burst at the target endpoint. */
function rateLimitAbuser(population, agent) {
  const params = population.params;
  if (!register(agent, null)) return;
  const startedMs = exec.instance.currentTestRunDuration;
  let accepted = 0;
  for (let sent = 0; sent < params.burst; sent++) {
    const answer = send(agent, params.target, [200, 429], {});
    if (answer.status >= 200 && answer.status < 300) accepted++;
    else if (answer.status !== 429) return;
  }
  const refillAllowance = Math.ceil(((exec.instance.currentTestRunDuration - startedMs) * FREE_PER_MINUTE) / 60000);
  judge('a burst gets at most the tier bucket (plus its refill while it lasts) accepted', accepted <= FREE_BURST_CAPACITY + refillAllowance);
}
`,
};
