/**
 * `escrow-buyer` in k6 (agents/escrow/escrow-buyer.ts, src/sim/escrow-plans.ts): a fresh agent registers
 * (with `referred`, referred by a seller), claims in style B when it was told no next_claim (the
 * style-A buyer), locks one escrow to a seller registered in setup (amount drawn in
 * [amount_min, amount_max], fee 1% rounded up and net checked), and settles it as the mix draws:
 * release (the net paid is checked; `retry_release` repeats it, which must answer 409 CONFLICT),
 * refund (through style B, as the agent does), dispute (then, with `concede`, a release inside the
 * window), or let it expire. A 409 is read back (GET) and accepted when the escrow carries a
 * dispute (a seller disputed first), as the agent does.
 * Compressed: the agent acts within the escrow's lifetime, hours later; the iteration acts at
 * once. The moves that need the lifetime or the 48 h dispute window to pass (the expiry check,
 * the window check) are not part of an iteration. `escrow_every` has no k6 meaning.
 */
import { numberParam, only, stringParam, type K6Flow } from '../k6-flow.ts';
import { ESCROW_SELLER_FLOW } from './escrow-seller.ts';

export const ESCROW_BUYER_FLOW: K6Flow = {
  agent: 'escrow-buyer',
  functionName: 'escrowBuyer',
  standing: false,
  endpoints: (style, params) => {
    const disputes = params['dispute'] !== 0;
    const releases = params['release'] !== 0 || (disputes && params['concede'] !== 0);
    const refunds = params['refund'] !== 0;
    const reads = releases || refunds || disputes;
    const a = style === 'A';
    return [
      ...(a ? (['faucet.A.register', 'faucet.A.claim'] as const) : (['faucet.B.register'] as const)),
      'faucet.B.claim',
      a ? 'escrow.A.create' : 'escrow.B.create',
      ...only(releases, a ? 'escrow.A.release' : 'escrow.B.release'),
      ...only(refunds, 'escrow.B.refund'),
      ...only(disputes, a ? 'escrow.A.dispute' : 'escrow.B.dispute'),
      ...only(reads, a ? 'escrow.A.get' : 'escrow.B.get'),
    ];
  },
  params: (params) => ({
    release: numberParam(params, 'release'),
    refund: numberParam(params, 'refund'),
    dispute: numberParam(params, 'dispute'),
    let_expire: numberParam(params, 'let_expire'),
    expires_in_seconds: Math.floor(numberParam(params, 'expires_in') / 1000),
    amount_min_micro: numberParam(params, 'amount_min'),
    amount_max_micro: numberParam(params, 'amount_max'),
    counterparty: stringParam(params, 'counterparty'),
    referred: numberParam(params, 'referred'),
    retry_release: numberParam(params, 'retry_release'),
    concede: numberParam(params, 'concede'),
  }),
  refusal: (population, populations) => {
    const counterparty = population.params['counterparty'];
    const named = populations.some((other) => other.agent === counterparty);
    if (!named || counterparty === ESCROW_SELLER_FLOW.agent) return null;
    return `escrow-buyer's counterparty '${String(counterparty)}' registers a fresh agent per k6 iteration; only '${ESCROW_SELLER_FLOW.agent}' agents are registered up front for buyers to find`;
  },
  source: `const SETTLEMENTS = ['release', 'refund', 'dispute', 'let_expire'];

/** escrow-buyer: register, claim when due, lock one escrow to a seller, settle it as drawn. */
function escrowBuyer(population, agent, data) {
  const params = population.params;
  const sellers = data.byArchetype[params.counterparty] || [];
  const referrer = agent.draws.chance(params.referred) && sellers.length > 0 ? sellers[agent.draws.int(sellers.length)] : null;
  if (!onboard(agent, referrer)) return;
  if (!agent.nextClaimB) claimB(agent);
  if (sellers.length === 0) return;
  const seller = sellers[agent.draws.int(sellers.length)];
  const amountMicro = params.amount_min_micro + agent.draws.int(params.amount_max_micro - params.amount_min_micro + 1);
  const settlement = SETTLEMENTS[agent.draws.weighted([params.release, params.refund, params.dispute, params.let_expire])];
  const memo = 'order ' + agent.draws.int(1000000);
  const created = agent.style === 'A'
    ? send(agent, 'escrow.A.create', [201, 422], { body: { buyer: agent.id, seller, amount: moneyOut('A', amountMicro), currency: 'USDC', memo } })
    : send(agent, 'escrow.B.create', [201, 422], { body: { amount: moneyOut('B', amountMicro), receiver: seller, description: memo, expires_in: params.expires_in_seconds } });
  if (created.status === 422) {
    judge('an escrow create refused 422 is INSUFFICIENT_BALANCE', created.code === 'INSUFFICIENT_BALANCE');
    return;
  }
  if (created.status !== 201 || !judge('an escrow create answers its escrow_id', created.body !== null && typeof created.body.escrow_id === 'string')) return;
  const feeMicro = Math.ceil(amountMicro / 100);
  const netMicro = amountMicro - feeMicro;
  if (!judge('escrow fee is 1% rounded up and net = amount - fee', microOf(created.body.fee) === feeMicro && microOf(created.body.net) === netMicro)) return;
  const escrowId = created.body.escrow_id;
  if (settlement === 'release') buyerRelease(agent, escrowId, netMicro, params.retry_release);
  else if (settlement === 'refund') buyerRefund(agent, escrowId);
  else if (settlement === 'dispute') buyerDispute(agent, escrowId, netMicro, params);
}

function buyerRelease(agent, escrowId, netMicro, retryRelease) {
  const answer = agent.style === 'A'
    ? send(agent, 'escrow.A.release', [200, 409], { body: { escrow_id: escrowId } })
    : send(agent, 'escrow.B.release', [200, 409], { id: escrowId });
  if (answer.status === 409) return afterConflict(agent, escrowId, answer);
  if (answer.status !== 200) return;
  const paid = answer.body === null ? null : microOf(agent.style === 'A' ? answer.body.released_amount : answer.body.net);
  judge('a release pays the escrow net', paid === netMicro);
  if (!agent.draws.chance(retryRelease)) return;
  const again = agent.style === 'A'
    ? send(agent, 'escrow.A.release', [409], { body: { escrow_id: escrowId } })
    : send(agent, 'escrow.B.release', [409], { id: escrowId });
  if (!again.limited) judge('a repeated release is refused 409 CONFLICT', again.status === 409 && again.code === 'CONFLICT');
}

function buyerRefund(agent, escrowId) {
  const answer = send(agent, 'escrow.B.refund', [200, 409], { id: escrowId });
  if (answer.status === 409) afterConflict(agent, escrowId, answer);
}

function buyerDispute(agent, escrowId, netMicro, params) {
  const reason = 'not as described: order ' + agent.draws.int(1000000);
  const evidence = 'sha256:' + agent.draws.hex(32);
  const answer = agent.style === 'A'
    ? send(agent, 'escrow.A.dispute', [200, 409], { body: { escrow_id: escrowId, reason, evidence } })
    : send(agent, 'escrow.B.dispute', [200, 409], { id: escrowId, body: { reason, evidence } });
  if (answer.status === 409) return afterConflict(agent, escrowId, answer);
  if (answer.status === 200 && agent.draws.chance(params.concede)) buyerRelease(agent, escrowId, netMicro, 0);
}

/** A 409 a seller's dispute may explain: read the escrow; accepted when it carries a dispute. */
function afterConflict(agent, escrowId, answer) {
  const seen = send(agent, agent.style === 'A' ? 'escrow.A.get' : 'escrow.B.get', [200], { id: escrowId });
  if (seen.status !== 200) return;
  judge('a 409 on an escrow follows a dispute', answer.code === 'CONFLICT' && seen.body !== null && seen.body.dispute !== null && seen.body.dispute !== undefined);
}
`,
};
