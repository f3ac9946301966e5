/**
 * `escrow-seller` in k6 (agents/escrow/escrow-seller.ts): a standing archetype — `count` sellers register
 * in setup() (buyers must find them); an iteration is one look by one of them: list the incoming
 * locked escrows in its style (a style-A seller also took its first B claim in setup, as its first
 * wake does), check each names it as receiver and is locked, read some (`view`),
 * dispute a few (`dispute`). Wall time adds one race afp's virtual time cannot have: the buyer may
 * settle an escrow between the list and the dispute; a 409 is then read back (GET) and accepted
 * when the escrow is no longer locked. `check_every` has no k6 meaning (the load profile paces).
 */
import { numberParam, only, type K6Flow } from '../k6-flow.ts';

export const ESCROW_SELLER_FLOW: K6Flow = {
  agent: 'escrow-seller',
  functionName: 'escrowSeller',
  standing: true,
  endpoints: (style, params) => {
    const disputes = params['dispute'] !== 0;
    const reads = disputes || params['view'] !== 0;
    if (style === 'A')
      return [
        'faucet.A.register',
        'faucet.A.claim',
        'faucet.B.claim',
        'escrow.A.list',
        ...only(reads, 'escrow.A.get'),
        ...only(disputes, 'escrow.A.dispute'),
      ];
    return [
      'faucet.B.register',
      'faucet.B.claim',
      'escrow.B.list',
      ...only(reads, 'escrow.B.get'),
      ...only(disputes, 'escrow.B.dispute'),
    ];
  },
  params: (params) => ({
    dispute: numberParam(params, 'dispute'),
    view: numberParam(params, 'view'),
    list_limit: numberParam(params, 'list_limit'),
  }),
  source: `/** escrow-seller: one look at the incoming locked escrows. */
function escrowSeller(population, agent) {
  const params = population.params;
  const query = { role: 'receiver', status: 'locked', limit: params.list_limit };
  const listed = send(agent, agent.style === 'A' ? 'escrow.A.list' : 'escrow.B.list', [200], { query });
  if (listed.status !== 200) return;
  if (!judge('an escrow list answers escrows', listed.body !== null && Array.isArray(listed.body.escrows))) return;
  for (const escrow of listed.body.escrows) {
    const receiver = agent.style === 'A' ? escrow.seller : escrow.receiver;
    if (!judge('a listed escrow is locked and received by the lister', receiver === agent.id && escrow.status === 'locked')) return;
    if (agent.draws.chance(params.view)) send(agent, agent.style === 'A' ? 'escrow.A.get' : 'escrow.B.get', [200], { id: escrow.escrow_id });
    if (agent.draws.chance(params.dispute)) sellerDispute(agent, escrow.escrow_id);
  }
}

function sellerDispute(agent, escrowId) {
  const reason = 'not delivered: order ' + agent.draws.int(1000000);
  const answer = agent.style === 'A'
    ? send(agent, 'escrow.A.dispute', [200, 409], { body: { escrow_id: escrowId, reason } })
    : send(agent, 'escrow.B.dispute', [200, 409], { id: escrowId, body: { reason } });
  if (answer.status !== 409) return;
  const seen = send(agent, agent.style === 'A' ? 'escrow.A.get' : 'escrow.B.get', [200], { id: escrowId });
  if (seen.status === 200) judge('a dispute refused 409 follows a settlement by the buyer', seen.body !== null && seen.body.status !== 'locked');
}
`,
};
