/**
 * The domains happy paths of the conformance suite, written as scripts over `client.domains`:
 * check, register (A and B) charged at the yearly price exactly, the caller's lists, DNS set and
 * listed, valuation, lookup, renewal from the current expiry, a priced transfer (offer, then the
 * buyer's acceptance moves price and name together) and a gift; and, where the clock moves
 * exactly, expiry at expires_at (DNS refused, renewal allowed) and release after the 30-day grace.
 * Money: agents start with the 10.00 grant of the B registration and every sold TLD costs more,
 * so a buyer is funded by donors' released escrows (9.90 each, 1% fee: 9.801 arrives).
 * Names are made of the agent ids, so runs on a shared target never collide.
 */
import type { AfpClient, ApiResult } from '../../client/client.ts';
import { SetupError, type ScriptCase, type ScriptSession } from '../conformance-case.ts';

const DAY_MS = 86_400_000;
const YEAR_MS = 365 * DAY_MS;
const GRACE_MS = 30 * DAY_MS;

function must<T>(answer: ApiResult<T>, label: string): T {
  if (!answer.ok) throw new Error(`${label} answered ${answer.status} ${answer.body.code}: ${answer.body.error}`);
  return answer.body;
}

/** Status and code of an answer expected to be refused. */
function refusal(answer: ApiResult<unknown>): [number, string | null] {
  return [answer.status, answer.ok ? null : answer.body.code];
}

/** A registrable label made of an agent id (lowercase a-z, 0-9 and '-'). */
function labelOf(agentId: string): string {
  return agentId
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
}

/** A registered agent with the 10.00 grant plus `donors` × 9.801 from released escrows. */
async function funded(session: ScriptSession, slot: number, donors: number): Promise<AfpClient> {
  const client = session.client.withIp(session.freshIp());
  const agentId = session.agentId(slot);
  const body = await client.faucetB.register({ agent_id: agentId });
  if (!body.ok) throw new SetupError(`B register ${agentId} answered ${body.status}`);
  for (let donor = 1; donor <= donors; donor++) {
    const donorId = session.agentId(slot * 10 + donor);
    const donorClient = session.client.withIp(session.freshIp());
    const registered = await donorClient.faucetB.register({ agent_id: donorId });
    if (!registered.ok) throw new SetupError(`B register ${donorId} answered ${registered.status}`);
    const keyed = donorClient.withKey(registered.body.api_key);
    const escrow = await keyed.escrowB.create({ amount: '9.90', receiver: agentId });
    if (!escrow.ok) throw new SetupError(`a donor's escrow answered ${escrow.status}`);
    const released = await keyed.escrowB.release(escrow.body.escrow_id);
    if (!released.ok) throw new SetupError(`releasing a donor's escrow answered ${released.status}`);
  }
  return client.withKey(body.body.api_key);
}

async function balance(client: AfpClient): Promise<string> {
  return must(await client.faucetB.status(), 'B status').balance;
}

/** The two agents of the happy path, funded, and the names each registers. */
interface Pair {
  readonly session: ScriptSession;
  readonly alice: AfpClient;
  readonly bob: AfpClient;
  readonly aliceId: string;
  readonly bobId: string;
  readonly aliceName: string;
  readonly bobName: string;
}

async function registerAndManage(session: ScriptSession): Promise<void> {
  const alice = await funded(session, 1, 1);
  const bob = await funded(session, 2, 2);
  const [aliceId, bobId] = [session.agentId(1), session.agentId(2)];
  const aliceName = `${labelOf(aliceId)}.com`;
  const bobName = `${labelOf(bobId)}.xyz`;
  session.expectEqual('funded balances', [await balance(alice), await balance(bob)], ['19.801', '29.602']);
  const pair: Pair = { session, alice, bob, aliceId, bobId, aliceName, bobName };
  const registered = await registerStyleA(pair);
  await listAndDns(pair, registered.expires_at);
  await registerStyleBAndRenew(pair);
  await saleAndGift(pair);
}

/** A check and a style A registration charged 18.00; a taken name and a poor agent refused. */
async function registerStyleA(pair: Pair): Promise<{ readonly expires_at: string }> {
  const { session, alice, bob, aliceId, aliceName } = pair;
  const check = must(await alice.domains.check(aliceName.toUpperCase()), 'A check');
  session.expectEqual(
    'A check: lowercased, available, 18 a year',
    [check.domain, check.available, check.price_usdc],
    [aliceName, true, 18],
  );
  const registered = must(await alice.domains.registerA({ domain: aliceName }), 'A register');
  session.expectEqual(
    'A register: the name and an ISO expiry',
    [registered.domain, Number.isFinite(Date.parse(registered.expires_at))],
    [aliceName, true],
  );
  session.expectEqual('A register charged 18.00', await balance(alice), '1.801');
  session.expectEqual('A check after: taken', must(await bob.domains.check(aliceName), 'A check').available, false);
  const taken = await bob.domains.registerB({ domain: aliceName });
  session.expectEqual('B register of a taken name: 409', refusal(taken), [409, 'CONFLICT']);
  session.expectEqual('a refused registration charges nothing', await balance(bob), '29.602');
  const poor = await alice.domains.registerA({ domain: `${labelOf(aliceId)}-2.com` });
  session.expectEqual('A register without the funds: 422', refusal(poor), [422, 'INSUFFICIENT_BALANCE']);
  return registered;
}

/** The caller's list, DNS set, replaced and listed (refused to another agent), and a valuation. */
async function listAndDns(pair: Pair, expiresAt: string): Promise<void> {
  const { session, alice, bob, aliceName } = pair;
  const listA = must(await alice.domains.domainsA(), 'A domains');
  session.expectEqual(
    'A domains',
    [listA.count, listA.domains.map((item) => [item.domain, item.status, item.expires_at])],
    [1, [[aliceName, 'active', expiresAt]]],
  );
  const dns = must(
    await alice.domains.setDns({
      domain: aliceName,
      records: [
        { type: 'A', value: '192.0.2.7' },
        { type: 'MX', value: 'Mail.Example.com', priority: 10 },
      ],
    }),
    'A dns',
  );
  session.expectEqual(
    'A dns: records held',
    [dns.count, dns.records.map((record) => [record.type, record.name, record.value, record.ttl, record.priority])],
    [
      2,
      [
        ['A', '@', '192.0.2.7', 3600, null],
        ['MX', '@', 'mail.example.com', 3600, 10],
      ],
    ],
  );
  const replaced = must(
    await alice.domains.setDns({ domain: aliceName, records: [{ type: 'A', value: '192.0.2.8', ttl: 60 }] }),
    'A dns again',
  );
  session.expectEqual(
    'A dns: a (type, name) set sent replaces the held one',
    replaced.records.map((record) => [record.type, record.value]),
    [
      ['A', '192.0.2.8'],
      ['MX', 'mail.example.com'],
    ],
  );
  session.expectEqual(
    'A dns list (public)',
    must(await bob.domains.dns(aliceName), 'A dns list').records,
    replaced.records,
  );
  session.expectEqual(
    'A dns by another agent: 403',
    refusal(await bob.domains.setDns({ domain: aliceName, records: [{ type: 'A', value: '192.0.2.9' }] })),
    [403, 'FORBIDDEN'],
  );
  const valuation = must(await alice.domains.valuation('example.com'), 'A valuation');
  session.expectEqual(
    'A valuation: the name, a category, a number value',
    [
      valuation.domain,
      ['premium', 'standard', 'budget', 'low-value'].includes(valuation.category),
      typeof valuation.value_usdc,
    ],
    ['example.com', true, 'number'],
  );
}

/** A style B registration charged 14.40, its lookup, a renewal from the current expiry, the list. */
async function registerStyleBAndRenew(pair: Pair): Promise<void> {
  const { session, alice, bob, bobId, bobName } = pair;
  const registeredB = must(await bob.domains.registerB({ domain: bobName, resolver: 'ns1.example.com' }), 'B register');
  session.expectEqual('B register: cost 14.40', [registeredB.domain, registeredB.cost], [bobName, '14.40']);
  session.expectEqual('B register charged 14.40', await balance(bob), '15.202');
  const lookup = must(await alice.domains.lookup(bobName), 'B lookup');
  session.expectEqual(
    'B lookup',
    [lookup.owner, lookup.status, lookup.resolver, lookup.expires, lookup.offer],
    [bobId, 'active', 'ns1.example.com', registeredB.expires, null],
  );
  session.expectEqual(
    'B lookup: grace ends 30 days after expiry',
    Date.parse(lookup.grace_ends) - Date.parse(lookup.expires),
    GRACE_MS,
  );
  const renewed = must(await bob.domains.renew({ domain: bobName, years: 1 }), 'B renew');
  session.expectEqual(
    'B renew: one year from the current expiry, 14.40',
    [renewed.years, renewed.cost, Date.parse(renewed.expires) - Date.parse(registeredB.expires)],
    [1, '14.40', YEAR_MS],
  );
  session.expectEqual('B renew by another agent: 403', refusal(await alice.domains.renew({ domain: bobName })), [
    403,
    'FORBIDDEN',
  ]);
  const listB = must(await bob.domains.domainsB(), 'B domains');
  session.expectEqual(
    'B domains',
    [listB.count, listB.domains.map((item) => [item.domain, item.status, item.expires, item.resolver])],
    [1, [[bobName, 'active', renewed.expires, 'ns1.example.com']]],
  );
}

/** A priced transfer (offer, then the buyer's acceptance) and a gift. */
async function saleAndGift(pair: Pair): Promise<void> {
  const { session, alice, bob, aliceId, bobId, aliceName, bobName } = pair;
  // A sale: alice offers her name to bob at 0.50; nothing moves until bob accepts at that price.
  const offer = must(await alice.domains.transfer({ domain: aliceName, to: bobId, price: '0.50' }), 'B transfer offer');
  session.expectEqual(
    'B transfer with a price: an offer',
    [offer.status, offer.owner, offer.price, offer.tx_hash],
    ['offered', aliceId, '0.50', null],
  );
  session.expectEqual(
    'lookup shows the offer',
    must(await bob.domains.lookup(aliceName), 'B lookup').offer?.price,
    '0.50',
  );
  session.expectEqual(
    'accepting at another price: 409',
    refusal(await bob.domains.transfer({ domain: aliceName, to: bobId, price: '0.10' })),
    [409, 'CONFLICT'],
  );
  const sold = must(await bob.domains.transfer({ domain: aliceName, to: bobId, price: '0.50' }), 'B transfer accept');
  session.expectEqual(
    'the buyer accepts: completed, bob owns it',
    [sold.status, sold.owner, sold.from, sold.to, sold.price],
    ['completed', bobId, aliceId, bobId, '0.50'],
  );
  session.expectEqual(
    'the price moved buyer → seller, whole',
    [await balance(alice), await balance(bob)],
    ['2.301', '0.302'],
  );
  // A gift: no price, moved at once, no money.
  const gift = must(await bob.domains.transfer({ domain: bobName, to: aliceId }), 'B transfer gift');
  session.expectEqual('a gift: completed at once', [gift.status, gift.owner, gift.price], ['completed', aliceId, null]);
  session.expectEqual(
    'after the sale and the gift',
    [
      must(await alice.domains.domainsA(), 'A domains').domains.map((item) => item.domain),
      must(await bob.domains.domainsB(), 'B domains').domains.map((item) => item.domain),
    ],
    [[bobName], [aliceName]],
  );
  session.expectEqual('a gift moves no money', [await balance(alice), await balance(bob)], ['2.301', '0.302']);
}

async function expiryAndRelease(session: ScriptSession): Promise<void> {
  const clock = session.clock;
  if (clock === null) throw new Error('needs the clock');
  const alice = await funded(session, 1, 1);
  const bob = await funded(session, 2, 1);
  const name = `${labelOf(session.agentId(1))}.dev`;
  const registered = must(await alice.domains.registerA({ domain: name }), 'A register');
  const expiresMs = Date.parse(registered.expires_at);
  await clock.advance(YEAR_MS - 1);
  session.expectEqual(
    'one ms before expiry: active',
    must(await alice.domains.domainsA(), 'A domains').domains[0]?.status,
    'active',
  );
  await clock.advance(1);
  session.expectEqual(
    'at expires_at: expired, still listed',
    must(await alice.domains.domainsA(), 'A domains').domains.map((item) => [
      item.domain,
      item.status,
      item.expires_at,
    ]),
    [[name, 'expired', new Date(expiresMs).toISOString()]],
  );
  session.expectEqual(
    'expired: DNS refused (409)',
    refusal(await alice.domains.setDns({ domain: name, records: [{ type: 'A', value: '192.0.2.1' }] })),
    [409, 'CONFLICT'],
  );
  session.expectEqual(
    'expired: transfer refused (409)',
    refusal(await alice.domains.transfer({ domain: name, to: session.agentId(2) })),
    [409, 'CONFLICT'],
  );
  session.expectEqual(
    'in grace: not available to others',
    [must(await bob.domains.check(name), 'A check').available, refusal(await bob.domains.registerA({ domain: name }))],
    [false, [409, 'CONFLICT']],
  );
  await clock.advance(GRACE_MS);
  session.expectEqual(
    'after the grace: released, available',
    [must(await bob.domains.check(name), 'A check').available, must(await alice.domains.domainsA(), 'A domains').count],
    [true, 0],
  );
  const taken = must(await bob.domains.registerA({ domain: name }), 'A register by another agent after release');
  session.expectEqual(
    'another agent registers it',
    must(await alice.domains.lookup(name), 'B lookup').owner,
    session.agentId(2),
  );
  session.expectEqual(
    'its new expiry is a year from now',
    Date.parse(taken.expires_at) - expiresMs,
    GRACE_MS + YEAR_MS,
  );
}

export const DOMAINS_HAPPY_CASES: readonly ScriptCase[] = [
  {
    kind: 'script',
    name: 'domains: check, register A and B at the yearly price, DNS, valuation, lookup, renew, a sale and a gift',
    needsClock: false,
    run: registerAndManage,
    endpoints: [
      'domains.A.check',
      'domains.A.register',
      'domains.A.domains',
      'domains.A.dns',
      'domains.A.dns.list',
      'domains.A.valuation',
      'domains.B.register',
      'domains.B.lookup',
      'domains.B.domains',
      'domains.B.renew',
      'domains.B.transfer',
    ],
  },
  {
    kind: 'script',
    name: 'time: a domain expires at expires_at, keeps its owner through the 30-day grace, then anyone may register it',
    needsClock: true,
    run: expiryAndRelease,
    endpoints: [
      'domains.A.register',
      'domains.A.domains',
      'domains.A.check',
      'domains.A.dns',
      'domains.B.transfer',
      'domains.B.lookup',
    ],
  },
];
