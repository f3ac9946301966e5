/**
 * The operation cases of the conformance suite (operation-case.ts): registration, the game list,
 * exact bet payments, nonces and seed rotation, the batch, refusals that change nothing (a bet or
 * an escrow above the balance, an unknown key, a withdrawal above the balance), an escrow's hold
 * and release with its 1% fee, and the faucet's one claim.
 * Money rules are afp's and the documents' and hold on the deployment too (DEPLOYED.md): a bet
 * debits its stake and credits its gross return; an escrow debits its amount at creation and
 * releases amount − 1% to the counterparty (0.10 → 0.099: the fee's rounding cannot differ); a
 * refusal moves nothing. Where the deployment documents another status or error name the value is
 * judged (documented-rules.ts). Amounts a dialect shows rounded are compared within its rounding.
 * Invariants: each case reads the balances it reasons about before and after (accounts are shared
 * by the cases of a suite), and spends at most 0.20 USDC of an account.
 */
import { displayRoundingMicro } from '../core/live-amount.ts';
import { hash } from 'node:crypto';
import { formatDecimal, type Micro } from '../core/money.ts';
import {
  FAUCET_CLAIM_LIMIT,
  SHOWN_ROUNDING_MICRO,
  betCredit,
  type LiveAccount,
  isRefusal,
  type BetInput,
  type LiveBet,
} from '../live.ts';
import type { OperationCase, OperationCaseContext } from './operation-case.ts';
import { TRADING_OPERATION_CASES } from './trading-operation-cases.ts';
import { WALLET_OPERATION_CASES } from './wallet/wallet-operation-cases.ts';
import { UNKNOWN_KEY } from './transport-rejections.ts';

const MIN_BET_MICRO = 10_000n;
const ESCROW_MICRO = 100_000n;
/** 1% of ESCROW_MICRO: the fee the documents (rounded up) and the deployment (round6) both take. */
const ESCROW_FEE_MICRO = 1_000n;
const WITHDRAW_ADDRESS = `0x${'a1'.repeat(20)}`;

const abs = (value: bigint): bigint => (value < 0n ? -value : value);

function account(context: OperationCaseContext, index: number): LiveAccount {
  const found = context.accounts[index];
  if (found === undefined) throw new Error(`case precondition broken: account ${index + 1} was not given`);
  return found;
}

async function balanceOf(context: OperationCaseContext, apiKey: string, label: string): Promise<Micro> {
  return (await context.ok(label, 'casino.balance', {}, apiKey)).value.balanceMicro;
}

/**
 * `actual` within `slackMicro` of `expected`, plus the casino dialect's display rounding when
 * `actual` is a display field (a bet's new_balance, a batch's balance_after: 2 dp on the deployment).
 */
function near(
  context: OperationCaseContext,
  label: string,
  actual: Micro | null,
  expected: Micro,
  slackMicro: Micro,
  display: boolean,
): void {
  if (actual === null) return;
  // A display field's rounding: its published places' half unit, or the fewer places it shows (measured, not recited).
  const rounded = SHOWN_ROUNDING_MICRO[context.dialectOf('casino')] !== 0n;
  const tolerance = slackMicro + (display && rounded ? displayRoundingMicro(actual, 2) : 0n);
  if (abs(actual - expected) > tolerance)
    context.problem(
      `${label}: ${formatDecimal(actual)}, expected ${formatDecimal(expected)}${tolerance > 0n ? ` (± ${formatDecimal(tolerance)})` : ''}`,
    );
}

function bet(tag: string, game: string, params: BetInput['params'], amountMicro = MIN_BET_MICRO): BetInput {
  return { game, amountMicro, clientSeed: `afp-conformance-${tag}`, params };
}

async function registration(context: OperationCaseContext): Promise<void> {
  const fresh = await context.freshAccount();
  context.expect('the agent id and key are non-empty', fresh.agentId !== '' && fresh.apiKey !== '', true);
  const balance = await balanceOf(context, fresh.apiKey, 'balance of the new agent');
  context.judge('casino.register.balance', 'casino.balance', formatDecimal(balance), null);
}

async function gameList(context: OperationCaseContext): Promise<void> {
  const { value } = await context.ok('game list', 'casino.games', {}, account(context, 0).apiKey);
  context.expect(
    'coin_flip and dice are listed',
    ['coin_flip', 'dice'].every((game) => value.games.includes(game)),
    true,
  );
}

/**
 * What a placed bet credited: stake × multiplier where the answer rounds amount_won (a display
 * field; live/bet-credit.ts), never the rounded figure; `slackMicro` 1 when the target's credit has
 * digits below the micro. A shown figure that disagrees with the credit is a problem of the case.
 */
function creditOf(context: OperationCaseContext, label: string, placed: LiveBet): { micro: Micro; slackMicro: Micro } {
  const credit = betCredit(placed);
  if (credit.ok) return { micro: credit.micro, slackMicro: credit.exact ? 0n : 1n };
  context.problem(`${label}: ${credit.problem}`);
  return { micro: placed.paidMicro ?? 0n, slackMicro: SHOWN_ROUNDING_MICRO[context.dialectOf('casino')] };
}

async function betsPayExactly(context: OperationCaseContext): Promise<void> {
  const { apiKey } = account(context, 0);
  let expected = await balanceOf(context, apiKey, 'balance before');
  let slackMicro = 0n;
  const bets = [
    bet('pay-1', 'coin_flip', { side: 'heads' }),
    bet('pay-2', 'coin_flip', { side: 'tails' }),
    bet('pay-3', 'dice', { direction: 'over', threshold: 50 }),
    bet('pay-4', 'dice', { direction: 'under', threshold: 50 }),
  ];
  for (const [index, input] of bets.entries()) {
    const { value } = await context.ok(`bet ${index + 1}`, 'casino.bet', input, apiKey);
    context.expect(
      `bet ${index + 1}: game, stake and client seed as sent`,
      [value.game, formatDecimal(value.amountMicro), value.clientSeed],
      [input.game, formatDecimal(input.amountMicro), input.clientSeed],
    );
    const credit = creditOf(context, `bet ${index + 1}`, value);
    expected = expected - value.amountMicro + credit.micro;
    slackMicro += credit.slackMicro;
    near(
      context,
      `bet ${index + 1}: new balance = previous − stake + return`,
      value.balanceAfterMicro,
      expected,
      slackMicro,
      true,
    );
    context.expect(
      `bet ${index + 1}: a 64-hex seed hash and result hash`,
      [/^[0-9a-f]{64}$/.test(value.seedHash), /^[0-9a-f]{64}$/.test(value.resultHash)],
      [true, true],
    );
  }
  near(
    context,
    'balance after the bets = before − stakes + returns',
    await balanceOf(context, apiKey, 'balance after'),
    expected,
    slackMicro,
    false,
  );
}

async function noncesAndRotation(context: OperationCaseContext): Promise<void> {
  const { apiKey } = account(context, 0);
  const first = (await context.ok('first bet', 'casino.bet', bet('nonce-1', 'coin_flip', { side: 'heads' }), apiKey))
    .value;
  const second = (await context.ok('second bet', 'casino.bet', bet('nonce-2', 'coin_flip', { side: 'tails' }), apiKey))
    .value;
  context.expect(
    'the second bet: the same seed, the next nonce',
    [second.seedHash, second.nonce],
    [first.seedHash, first.nonce + 1],
  );
  const rotated = (await context.ok('rotation', 'casino.rotate', {}, apiKey)).value;
  context.expect("the rotation reveals the bets' seed", rotated.revealedSeedHash, first.seedHash);
  if (rotated.revealedSeed !== null)
    context.expect('SHA-256 of the revealed seed is its hash', hash('sha256', rotated.revealedSeed), first.seedHash);
  else context.problem('the rotation revealed no 64-hex seed');
  const after = (
    await context.ok('bet after the rotation', 'casino.bet', bet('nonce-3', 'coin_flip', { side: 'heads' }), apiKey)
  ).value;
  context.expect(
    'the bet after the rotation: a new seed, nonce 0',
    [after.seedHash !== first.seedHash, after.nonce],
    [true, 0],
  );
  const { value } = await context.ok('seed list', 'casino.seeds', {}, apiKey);
  const listed = value.seeds.find((seed) => seed.seedHash === first.seedHash);
  context.expect('the seed list shows the revealed seed', listed?.seed ?? null, rotated.revealedSeed);
}

async function batch(context: OperationCaseContext): Promise<void> {
  const { apiKey } = account(context, 0);
  const before = await balanceOf(context, apiKey, 'balance before');
  const bets = [
    bet('batch-1', 'coin_flip', { side: 'heads' }),
    bet('batch-2', 'dice', { direction: 'over', threshold: 50 }),
    bet('batch-3', 'coin_flip', { side: 'heads' }, 0n),
  ];
  const { value } = await context.ok('batch', 'casino.batch', { bets }, apiKey);
  context.expect(
    'one result per bet; the zero-amount bet alone refused',
    value.results.map((result) => (isRefusal(result) ? 'refused' : 'placed')),
    ['placed', 'placed', 'refused'],
  );
  const placed = value.results.filter((result): result is LiveBet => !isRefusal(result));
  if (value.summary !== null)
    context.expect('summary: total and errors', [value.summary.total, value.summary.errors], [3, 1]);
  let expected = before;
  let slackMicro = 0n;
  for (const [index, one] of placed.entries()) {
    const credit = creditOf(context, `batch bet ${index + 1}`, one);
    expected = expected - one.amountMicro + credit.micro;
    slackMicro += credit.slackMicro;
  }
  near(
    context,
    'balance after the batch = before − stakes + returns',
    await balanceOf(context, apiKey, 'balance after'),
    expected,
    slackMicro,
    false,
  );
}

async function betAboveBalance(context: OperationCaseContext): Promise<void> {
  const { apiKey } = account(context, 0);
  const before = await balanceOf(context, apiKey, 'balance before');
  const refusal = await context.refused(
    'a bet of the balance + 1.00',
    'casino.bet',
    bet('over', 'coin_flip', { side: 'heads' }, before + 1_000_000n),
    apiKey,
  );
  if (refusal !== null) context.judge('casino.refusal.over-balance', 'casino.bet', refusal.text, refusal.request);
  context.expect(
    'the balance after the refusal',
    formatDecimal(await balanceOf(context, apiKey, 'balance after')),
    formatDecimal(before),
  );
}

async function unknownKey(context: OperationCaseContext): Promise<void> {
  const refusal = await context.refused('a balance read with an unknown key', 'casino.balance', {}, UNKNOWN_KEY);
  if (refusal !== null) context.judge('auth.refusal.unknown-key', 'casino.balance', refusal.text, refusal.request);
}

async function escrowHoldAndRelease(context: OperationCaseContext): Promise<void> {
  const [creator, counterparty] = [account(context, 0), account(context, 1)];
  const creatorBefore = await balanceOf(context, creator.apiKey, 'creator balance before');
  const counterpartyBefore = await balanceOf(context, counterparty.apiKey, 'counterparty balance before');
  const input = {
    amountMicro: ESCROW_MICRO,
    creatorId: creator.agentId,
    counterpartyId: counterparty.agentId,
    description: 'afp conformance',
    timeoutHours: 24,
  };
  const created = await context.ok('escrow create', 'escrow.create', input, creator.apiKey);
  if (created.value.status !== null)
    context.judge('escrow.status.created', 'escrow.create', created.value.status, created.request);
  if (created.value.amountMicro !== null)
    context.expect('escrow amount as sent', formatDecimal(created.value.amountMicro), formatDecimal(ESCROW_MICRO));
  context.expect(
    'creator balance after create (amount held)',
    formatDecimal(await balanceOf(context, creator.apiKey, 'creator balance')),
    formatDecimal(creatorBefore - ESCROW_MICRO),
  );
  const seen = await context.ok(
    'escrow get by the counterparty',
    'escrow.get',
    { escrowId: created.value.escrowId },
    counterparty.apiKey,
  );
  context.expect('escrow get: its id', seen.value.escrowId, created.value.escrowId);
  if (seen.value.status !== null) context.judge('escrow.status.created', 'escrow.get', seen.value.status, seen.request);
  const released = await context.ok(
    'escrow release by the creator',
    'escrow.release',
    { escrowId: created.value.escrowId },
    creator.apiKey,
  );
  if (released.value.status !== null)
    context.judge('escrow.status.released', 'escrow.release', released.value.status, released.request);
  const counterpartyAfter = await balanceOf(context, counterparty.apiKey, 'counterparty balance after');
  context.expect(
    'counterparty balance after release (+ amount − 1%)',
    formatDecimal(counterpartyAfter),
    formatDecimal(counterpartyBefore + ESCROW_MICRO - ESCROW_FEE_MICRO),
  );
  const again = await context.refused(
    'a second release',
    'escrow.release',
    { escrowId: created.value.escrowId },
    creator.apiKey,
  );
  if (again !== null) context.judge('escrow.refusal.released-again', 'escrow.release', again.text, again.request);
  context.expect(
    'balances after the second release',
    [
      formatDecimal(await balanceOf(context, creator.apiKey, 'creator')),
      formatDecimal(await balanceOf(context, counterparty.apiKey, 'counterparty')),
    ],
    [formatDecimal(creatorBefore - ESCROW_MICRO), formatDecimal(counterpartyAfter)],
  );
}

async function escrowAboveBalance(context: OperationCaseContext): Promise<void> {
  const [creator, counterparty] = [account(context, 0), account(context, 1)];
  const before = await balanceOf(context, creator.apiKey, 'balance before');
  const input = {
    amountMicro: before + 1_000_000n,
    creatorId: creator.agentId,
    counterpartyId: counterparty.agentId,
    description: 'afp conformance',
    timeoutHours: 24,
  };
  const refusal = await context.refused('an escrow of the balance + 1.00', 'escrow.create', input, creator.apiKey);
  if (refusal !== null) context.judge('escrow.refusal.over-balance', 'escrow.create', refusal.text, refusal.request);
  context.expect(
    'the balance after the refusal',
    formatDecimal(await balanceOf(context, creator.apiKey, 'balance after')),
    formatDecimal(before),
  );
}

async function withdrawAboveBalance(context: OperationCaseContext): Promise<void> {
  const { apiKey } = account(context, 0);
  const before = await balanceOf(context, apiKey, 'balance before');
  const refusal = await context.refused(
    'a withdrawal of the balance + 1.00',
    'casino.withdraw',
    { amountMicro: before + 1_000_000n, address: WITHDRAW_ADDRESS },
    apiKey,
  );
  if (refusal !== null)
    context.judge('casino.refusal.withdraw-over-balance', 'casino.withdraw', refusal.text, refusal.request);
  context.expect(
    'the balance after the refusal',
    formatDecimal(await balanceOf(context, apiKey, 'balance after')),
    formatDecimal(before),
  );
}

async function faucetOnce(context: OperationCaseContext): Promise<void> {
  const fresh = await context.freshAccount();
  const claimed = await context.ok('first claim', 'faucet.claim', { agentId: fresh.agentId }, fresh.apiKey);
  if (claimed.value.creditedMicro !== null)
    context.judge('faucet.claim.amount', 'faucet.claim', formatDecimal(claimed.value.creditedMicro), claimed.request);
  const credited = await balanceOf(context, fresh.apiKey, 'balance after the claim');
  const again = await context.refused('a second claim', 'faucet.claim', { agentId: fresh.agentId }, fresh.apiKey);
  if (again !== null) context.judge('faucet.refusal.claimed-again', 'faucet.claim', again.text, again.request);
  context.expect(
    'the balance after the second claim',
    formatDecimal(await balanceOf(context, fresh.apiKey, 'balance after')),
    formatDecimal(credited),
  );
}

/**
 * A registration the account cannot pay: refused (the documents' 422, or the dialect's documented
 * name), nothing charged, the name still free. The account is fresh and unfunded: a domains
 * account where the domains service keeps its own (the deployment), else a fresh agent; a .com
 * costs more than a fresh agent holds on any target (the documents' style-B grant is 10.00).
 */
async function domainUnpaidRegistration(context: OperationCaseContext): Promise<void> {
  const ownAccounts = context.session.offers('domains.account') === null;
  const fresh = ownAccounts
    ? (await context.ok('a fresh domains account', 'domains.account', {}, null)).value
    : await context.freshAccount();
  const balanceOp = ownAccounts ? 'domains.balance' : 'casino.balance';
  const before = (await context.ok('balance before', balanceOp, {}, fresh.apiKey)).value.balanceMicro;
  const domain = `afp-conf-${fresh.agentId.toLowerCase().replace(/[^a-z0-9-]/g, '-')}.com`;
  const refused = await context.refused(
    'a registration above the balance',
    'domains.register',
    { domain, years: 1 },
    fresh.apiKey,
  );
  if (refused !== null)
    context.judge('domains.refusal.over-balance', 'domains.register', refused.text, refused.request);
  const after = (await context.ok('balance after', balanceOp, {}, fresh.apiKey)).value.balanceMicro;
  context.expect('the balance after the refused registration', formatDecimal(after), formatDecimal(before));
  const lookup = await context.session.call('domains.lookup', { domain }, fresh.apiKey);
  if (lookup.kind === 'ok') context.expect(`the holder of ${domain}`, lookup.value.owner, null);
}

export const OPERATION_CASES: readonly OperationCase[] = [
  {
    kind: 'operations',
    name: 'operations: a registration gives an agent id and a key that reads its balance',
    operations: ['casino.register', 'casino.balance'],
    accounts: 0,
    run: registration,
    applies: (target) => (target.register === null ? `${target.name} offers no registration (register: none)` : null),
  },
  {
    kind: 'operations',
    name: 'operations: the game list names coin_flip and dice',
    operations: ['casino.games'],
    accounts: 1,
    run: gameList,
  },
  {
    kind: 'operations',
    name: 'operations: single bets pay exactly (new balance = previous − stake + return), with complete proofs',
    operations: ['casino.bet', 'casino.balance'],
    accounts: 1,
    run: betsPayExactly,
  },
  {
    kind: 'operations',
    name: 'operations: nonces count up on one seed; a rotation reveals the seed (SHA-256 = its hash), lists it, and restarts at nonce 0',
    operations: ['casino.bet', 'casino.rotate', 'casino.seeds'],
    accounts: 1,
    run: noncesAndRotation,
  },
  {
    kind: 'operations',
    name: 'operations: a batch places each bet once, refuses an invalid element alone, and moves the balance by its results',
    operations: ['casino.batch', 'casino.balance'],
    accounts: 1,
    run: batch,
  },
  {
    kind: 'operations',
    name: 'operations: a bet above the balance is refused and changes nothing',
    operations: ['casino.bet', 'casino.balance'],
    accounts: 1,
    run: betAboveBalance,
  },
  {
    kind: 'operations',
    name: 'operations: an unknown key is refused',
    operations: ['casino.balance'],
    accounts: 0,
    run: unknownKey,
  },
  {
    kind: 'operations',
    name: 'operations: an escrow holds its amount, shows its status, releases amount − 1% once',
    operations: ['escrow.create', 'escrow.get', 'escrow.release', 'casino.balance'],
    accounts: 2,
    run: escrowHoldAndRelease,
  },
  {
    kind: 'operations',
    name: 'operations: an escrow above the balance is refused and changes nothing',
    operations: ['escrow.create', 'casino.balance'],
    accounts: 2,
    run: escrowAboveBalance,
  },
  {
    kind: 'operations',
    name: 'operations: a withdrawal above the balance is refused and changes nothing',
    operations: ['casino.withdraw', 'casino.balance'],
    accounts: 1,
    run: withdrawAboveBalance,
    // DEPLOYED.md §2.2: on a short balance the deployment's handler still sends; only afp's own serve is safe to ask.
    applies: (target) =>
      target.afpServe
        ? null
        : 'a withdrawal the target does not refuse sends real funds (DEPLOYED.md §2.2): asked of an afp serve only',
  },
  {
    kind: 'operations',
    name: 'operations: a domain registration the account cannot pay is refused, charges nothing and leaves the name free',
    operations: ['domains.register', 'domains.lookup'],
    accounts: 0,
    run: domainUnpaidRegistration,
    applies: (target) =>
      target.register === null && target.services.domains?.dialect !== 'deployed'
        ? `${target.name} offers no registration (register: none)`
        : null,
  },
  {
    kind: 'operations',
    name: 'operations: the faucet credits a fresh account once',
    operations: ['casino.register', 'faucet.claim', 'casino.balance'],
    accounts: 0,
    run: faucetOnce,
    applies: (target) => {
      if (target.register === null) return `${target.name} offers no registration (register: none)`;
      return target.services.faucet === undefined ? null : FAUCET_CLAIM_LIMIT[target.services.faucet.dialect];
    },
  },
  ...TRADING_OPERATION_CASES,
  ...WALLET_OPERATION_CASES,
];
