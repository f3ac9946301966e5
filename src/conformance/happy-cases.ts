/**
 * The happy paths of the conformance suite: the suite proves conformance, not only rejection.
 * Exact amounts: the B registration grant 10.00, the A claim 1 (once), the B claim 2.00 after the
 * 24 h cooldown, escrow fee = 1% of the amount rounded UP to the micro (1.000001 → fee 0.010001,
 * net 0.99; 0.5 → fee 0.005, net 0.495). Time-dependent cases (`needsClock`) move the target's
 * clock and so run only where it can be moved exactly.
 * Invariants: every script registers its own agents (fresh ids, fresh IPs); it reports mismatches
 * through the session and throws only when a step it needs failed (the runner reports that).
 */
import type { AfpClient, ApiResult } from '../client/client.ts';
import type { ScriptCase, ScriptSession } from './conformance-case.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The body of a successful answer, or a thrown step failure naming `label`. */
function must<T>(answer: ApiResult<T>, label: string): T {
  if (!answer.ok) throw new Error(`${label} answered ${answer.status} ${answer.body.code}: ${answer.body.error}`);
  return answer.body;
}

async function registerB(session: ScriptSession, slot: number, referrer?: string): Promise<AfpClient> {
  const agentId = session.agentId(slot);
  const client = session.client.withIp(session.freshIp());
  const body = must(
    await client.faucetB.register(referrer === undefined ? { agent_id: agentId } : { agent_id: agentId, referrer }),
    `B register ${agentId}`,
  );
  session.expectEqual(
    `B register ${agentId}: amount, currency, balance`,
    [body.amount, body.currency, body.balance],
    ['10.00', 'USDC', '10.00'],
  );
  return client.withKey(body.api_key);
}

async function escrowB(session: ScriptSession): Promise<void> {
  const alice = await registerB(session, 1);
  const bob = await registerB(session, 2, session.agentId(1));
  const [aliceId, bobId] = [session.agentId(1), session.agentId(2)];
  const created = must(
    await alice.escrowB.create({ amount: '1.000001', receiver: bobId, description: 'conformance' }),
    'B escrow create',
  );
  session.expectEqual(
    'B create',
    [created.status, created.amount, created.fee, created.net, created.receiver],
    ['locked', '1.000001', '0.010001', '0.99', bobId],
  );
  session.expectEqual(
    'sender balance after create',
    must(await alice.faucetB.status(), 'B status').balance,
    '8.999999',
  );
  const seen = must(await bob.escrowB.get(created.escrow_id), 'B get by the receiver');
  session.expectEqual(
    'B get',
    [seen.status, seen.sender, seen.receiver, seen.amount, seen.description, seen.dispute],
    ['locked', aliceId, bobId, '1.000001', 'conformance', null],
  );
  const listed = must(await alice.escrowB.list({ role: 'sender' }), 'B list');
  session.expectEqual(
    'B list',
    [listed.count, listed.escrows.map((escrow) => escrow.escrow_id)],
    [1, [created.escrow_id]],
  );
  const released = must(await alice.escrowB.release(created.escrow_id), 'B release');
  session.expectEqual('B release', [released.status, released.net, released.fee], ['released', '0.99', '0.010001']);
  session.expectEqual(
    'balances after release',
    [must(await alice.faucetB.status(), 'B status').balance, must(await bob.faucetB.status(), 'B status').balance],
    ['8.999999', '10.99'],
  );
  session.expectEqual(
    'B get after release',
    must(await alice.escrowB.get(created.escrow_id), 'B get').status,
    'released',
  );
  const referrals = must(await alice.faucetB.referrals(), 'B referrals');
  session.expectEqual(
    'B referrals',
    [referrals.referred_count, referrals.referred_agents.map((row) => row.agent_id), referrals.share_pct],
    [1, [bobId], 15],
  );
  const agents = must(await alice.faucetB.agents({ limit: 1 }), 'B agents');
  session.expectEqual('B agents: at most the limit', agents.agents.length <= 1, true);
}

async function refundAndDisputeB(session: ScriptSession): Promise<void> {
  const alice = await registerB(session, 1);
  const bob = await registerB(session, 2);
  const refunded = must(await alice.escrowB.create({ amount: 2, receiver: session.agentId(2) }), 'B create');
  const refund = must(await alice.escrowB.refund(refunded.escrow_id), 'B refund');
  session.expectEqual('B refund', [refund.status, refund.amount], ['refunded', '2.00']);
  session.expectEqual('balance after refund (no fee)', must(await alice.faucetB.status(), 'B status').balance, '10.00');
  const disputed = must(await alice.escrowB.create({ amount: '3.50', receiver: session.agentId(2) }), 'B create');
  const dispute = must(
    await bob.escrowB.dispute(disputed.escrow_id, { reason: 'not delivered' }),
    'B dispute by the receiver',
  );
  session.expectEqual(
    'B dispute',
    [dispute.status, dispute.reason, dispute.evidence],
    ['disputed', 'not delivered', null],
  );
  const refundDuringDispute = await alice.escrowB.refund(disputed.escrow_id);
  session.expectEqual(
    'B refund during the dispute window',
    [refundDuringDispute.status, refundDuringDispute.ok ? null : refundDuringDispute.body.code],
    [409, 'CONFLICT'],
  );
  session.expectEqual('sender balance while disputed', must(await alice.faucetB.status(), 'B status').balance, '6.50');
}

async function styleA(session: ScriptSession): Promise<void> {
  const buyerId = session.agentId(1);
  const anonymous = session.client.withIp(session.freshIp());
  const registered = must(await anonymous.faucetA.register({ agent_id: buyerId }), 'A register');
  session.expectEqual('A register', registered.agent_id, buyerId);
  const buyer = anonymous.withKey(registered.api_key);
  const claim = must(await buyer.faucetA.claim(), 'A claim');
  session.expectEqual('A claim', [claim.amount_usdc, claim.balance_usdc], [1, 1]);
  const again = await buyer.faucetA.claim();
  session.expectEqual('A claim again', [again.status, again.ok ? null : again.body.code], [409, 'FAUCET_CLAIMED']);
  const status = must(await buyer.faucetA.status(), 'A status');
  session.expectEqual('A status', [status.eligible, status.balance_usdc], [false, 1]);
  const seller = await registerB(session, 2);
  const sellerId = session.agentId(2);
  const created = must(
    await buyer.escrowA.create({ buyer: buyerId, seller: sellerId, amount: 0.5, memo: 'conformance A' }),
    'A create',
  );
  session.expectEqual(
    'A create',
    [created.status, created.amount, created.fee, created.net],
    ['locked', 0.5, 0.005, 0.495],
  );
  const seen = must(await buyer.escrowA.get(created.escrow_id), 'A get');
  session.expectEqual(
    'A get',
    [seen.status, seen.buyer, seen.seller, seen.amount, seen.memo, seen.currency],
    ['locked', buyerId, sellerId, 0.5, 'conformance A', 'USDC'],
  );
  const listed = must(await buyer.escrowA.list({ role: 'sender' }), 'A list');
  session.expectEqual(
    'A list',
    [listed.count, listed.escrows.map((escrow) => escrow.escrow_id)],
    [1, [created.escrow_id]],
  );
  const released = must(await buyer.escrowA.release({ escrow_id: created.escrow_id }), 'A release');
  session.expectEqual(
    'A release',
    [released.status, released.released_amount, released.fee, released.seller],
    ['released', 0.495, 0.005, sellerId],
  );
  session.expectEqual(
    'A agent balance after release',
    must(await buyer.faucetA.agent(buyerId), 'A agent').balance_usdc,
    0.5,
  );
  session.expectEqual(
    'seller balance after release',
    must(await seller.faucetB.status(), 'B status').balance,
    '10.495',
  );
}

async function cooldownB(session: ScriptSession): Promise<void> {
  const clock = session.clock;
  if (clock === null) throw new Error('no clock');
  const alice = await registerB(session, 1);
  const early = await alice.faucetB.claim();
  session.expectEqual(
    'B claim inside the 24 h cooldown',
    [early.status, early.ok ? null : early.body.code, early.ok ? null : early.body['retry_after_seconds']],
    [409, 'FAUCET_CLAIMED', 86_400],
  );
  await clock.advance(DAY_MS);
  const claim = must(await alice.faucetB.claim(), 'B claim after 24 h');
  session.expectEqual('B claim after 24 h', [claim.amount, claim.balance], ['2.00', '12.00']);
}

async function expiryB(session: ScriptSession): Promise<void> {
  const clock = session.clock;
  if (clock === null) throw new Error('no clock');
  const alice = await registerB(session, 1);
  await registerB(session, 2);
  const created = must(
    await alice.escrowB.create({ amount: '4.00', receiver: session.agentId(2), expires_in: 60 }),
    'B create',
  );
  await clock.advance(59_999);
  session.expectEqual(
    'status 1 ms before expires_at',
    must(await alice.escrowB.get(created.escrow_id), 'B get').status,
    'locked',
  );
  await clock.advance(1);
  session.expectEqual(
    'status at expires_at',
    must(await alice.escrowB.get(created.escrow_id), 'B get').status,
    'expired',
  );
  session.expectEqual(
    'balance after expiry (full refund)',
    must(await alice.faucetB.status(), 'B status').balance,
    '10.00',
  );
}

export const HAPPY_CASES: readonly ScriptCase[] = [
  {
    kind: 'script',
    name: 'happy path B: register, escrow create/get/list/release, 1% fee rounded up, referrals, agents',
    endpoints: [
      'faucet.B.register',
      'faucet.B.status',
      'escrow.B.create',
      'escrow.B.get',
      'escrow.B.list',
      'escrow.B.release',
      'faucet.B.referrals',
      'faucet.B.agents',
    ],
    needsClock: false,
    run: escrowB,
  },
  {
    kind: 'script',
    name: 'happy path B: refund in full, dispute by the receiver freezes the funds',
    endpoints: ['escrow.B.create', 'escrow.B.refund', 'escrow.B.dispute'],
    needsClock: false,
    run: refundAndDisputeB,
  },
  {
    kind: 'script',
    name: 'happy path A: register, claim once, escrow create/get/list/release',
    endpoints: [
      'faucet.A.register',
      'faucet.A.claim',
      'faucet.A.status',
      'faucet.A.agent',
      'escrow.A.create',
      'escrow.A.get',
      'escrow.A.list',
      'escrow.A.release',
    ],
    needsClock: false,
    run: styleA,
  },
  {
    kind: 'script',
    name: 'time: the B claim waits 24 h after registration, then pays 2.00',
    endpoints: ['faucet.B.register', 'faucet.B.claim'],
    needsClock: true,
    run: cooldownB,
  },
  {
    kind: 'script',
    name: 'time: a locked escrow refunds in full at exactly expires_at',
    endpoints: ['escrow.B.create', 'escrow.B.get'],
    needsClock: true,
    run: expiryB,
  },
];
