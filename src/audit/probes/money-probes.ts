/**
 * Money-path probes of a live target (`afp audit money --target`), each a small experiment whose
 * result is findings with evidence and a reproducing request:
 *   - overdraw: a withdrawal of more than the balance must be refused, and the balance must
 *     neither rise nor fall. A withdrawal that is not refused sends funds, so against anything but
 *     an afp serve the probe runs only with `--withdraw-address` (an address the user owns);
 *   - batch summary: a batch's summary must agree with its own results (counts, wagered, won, net,
 *     balance after); a batch refused above a maximum the target states, or with every bet below a
 *     minimum it states, is sent once more within them (stated-batch-maximum.ts, stated-minimum.ts);
 *   - double spend: a second account holding about 1 USDC sends DOUBLE_SPEND_CALLS escrows of 60%
 *     of its balance at once; at most one may be accepted, and the balance must not go negative;
 *   - bets balance: single bets, each answer's new balance = previous − stake + return, and the
 *     balance read after = before − Σ stakes + Σ returns;
 *   - bad input: a negative amount, an unknown game, a malformed address: each refused with a 4xx,
 *     and the balance unchanged (the refusal's error shape is checked on every refusal by the
 *     session, as on every other call);
 *   - trading (trading-probes.ts): a perpetual position at leverage 1 larger than the balance, and
 *     one at leverage 10 whose margin exceeds the balance, must be refused and leave the balance as
 *     it was (skipped where the target names no trading service).
 *   - domains (domain-probes.ts): two registrations of one name racing, exactly one wins and is
 *     charged; a priced transfer the buyer has not paid for never moves the name.
 *   - liquidation (liquidation-probe.ts): a long at leverage 10, its margin and liquidation price
 *     against the documented formulas; on a manual afp serve, time moved until it is liquidated,
 *     and the balance must not move (not measured elsewhere, with the reason).
 *   - wallet (wallet-probes.ts): a send signed by an empty address's key is refused and moves
 *     nothing; DEPLOYED.md §6's disagreements with the documents measured and judged as rules.
 * A probe that cannot run (the dialect offers no such operation, no second account) says why and
 * is reported as skipped, never as passed.
 * Amounts are tiny (minimum bets, a 1 USDC second account), so a probe costs cents.
 */
import { abs, balance, bet, PROBE_MIN_BET_MICRO as MIN_BET_MICRO, PROBE_BETS, type Probe } from './money-probe.ts';
import { batchSummaryProbe as batchSummary } from './batch-summary-probe.ts';
import type { JsonValue } from '../../core/errors.ts';
import { formatDecimal, type Micro } from '../../core/money.ts';
import {
  type CallOutcome,
  type LiveBet,
  betCredit,
  documentsMinimumMicro,
  minimumBetFinding,
  statedMinimumMicro,
} from '../../live.ts';
import type { FindingInput } from '../../report/findings/finding.ts';
import { doubleRegistration, unpaidTransfer } from './domain-probes.ts';
import { tradingLiquidation } from './liquidation-probe.ts';
import { mcpEscrowRelease, mcpFaucetCooldown } from './mcp-probes.ts';
import { tradingMargin, tradingOverdraw } from './trading-probes.ts';
import { walletDocumented, walletWrongKey } from './wallet-probes.ts';
import {
  answerText,
  reproduceOf,
  runProbe,
  shownRoundingMicro,
  type ProbeContext,
  type ProbeResult,
} from './probe-context.ts';

export const DOUBLE_SPEND_CALLS = 5;

export type { ProbeResult } from './probe-context.ts';

const overdraw: Probe = {
  name: 'overdraw-withdrawal',
  async run(context, raise) {
    const address = context.withdrawAddress ?? (context.session.target.afpServe ? `0x${'a1'.repeat(20)}` : null);
    if (address === null)
      return {
        status: 'skipped',
        note: 'a withdrawal that is not refused sends funds: pass --withdraw-address with an address you own',
      };
    if (context.session.offers('casino.withdraw') !== null)
      return { status: 'skipped', note: context.session.offers('casino.withdraw') ?? '' };
    const before = await balance(context);
    if (before === null) return { status: 'skipped', note: 'the balance could not be read' };
    const amountMicro = before + 1_000_000n;
    const outcome = await context.session.call('casino.withdraw', { amountMicro, address }, context.apiKey);
    const after = await balance(context);
    const reproduce = reproduceOf(context, outcome);
    if (outcome.kind === 'ok') {
      raise({
        id: 'money:withdraw:overdraw-accepted',
        severity: 'critical',
        kind: 'money',
        title: `a withdrawal of ${formatDecimal(amountMicro)} USDC was accepted on a balance of ${formatDecimal(before)}`,
        endpoint: 'casino.withdraw',
        expected: 'refused (insufficient balance)',
        seen: (outcome.body ?? null) as JsonValue,
        evidence: `balance before ${formatDecimal(before)}, after ${after === null ? 'unreadable' : formatDecimal(after)}`,
        ...reproduce,
      });
    }
    if (after !== null && after !== before) {
      raise({
        id: `money:withdraw:overdraw-balance-${after > before ? 'rose' : 'fell'}`,
        severity: 'critical',
        kind: 'money',
        title: `after a refused-or-not overdraw withdrawal the balance ${after > before ? 'rose' : 'fell'} from ${formatDecimal(before)} to ${formatDecimal(after)}`,
        endpoint: 'casino.withdraw',
        expected: formatDecimal(before),
        seen: formatDecimal(after),
        evidence: `withdrawal answer: ${outcome.kind}`,
        ...reproduce,
      });
    }
    return {
      status: 'ran',
      note: `withdrawal of ${formatDecimal(amountMicro)} on ${formatDecimal(before)}: ${answerText(outcome)}`,
    };
  },
};

const doubleSpend: Probe = {
  name: 'double-spend',
  async run(context, raise) {
    const second = context.second;
    if (second === null)
      return {
        status: 'skipped',
        note: 'no second account could be opened (it holds the small balance the probe spends twice)',
      };
    if (context.session.offers('escrow.create') !== null)
      return { status: 'skipped', note: context.session.offers('escrow.create') ?? '' };
    const before = await balance(context, second.apiKey);
    if (before === null || before < 200_000n)
      return {
        status: 'skipped',
        note: `the second account's balance (${before === null ? 'unreadable' : formatDecimal(before)}) is below 0.20 USDC`,
      };
    const amountMicro = ((before * 6n) / 10n / 10_000n) * 10_000n;
    const input = {
      amountMicro,
      creatorId: second.agentId,
      counterpartyId: context.agentId,
      description: 'afp double-spend probe',
      timeoutHours: 1,
    };
    const outcomes = await Promise.all(
      Array.from({ length: DOUBLE_SPEND_CALLS }, () => context.session.call('escrow.create', input, second.apiKey)),
    );
    const accepted = outcomes.filter((outcome) => outcome.kind === 'ok');
    const after = await balance(context, second.apiKey);
    const first = outcomes[0];
    const reproduce = first === undefined ? {} : reproduceOf(context, first);
    if (accepted.length > 1) {
      raise({
        id: 'money:escrow:double-spend',
        severity: 'critical',
        kind: 'money',
        title: `${accepted.length} of ${DOUBLE_SPEND_CALLS} simultaneous escrows of ${formatDecimal(amountMicro)} were accepted on a balance of ${formatDecimal(before)}`,
        endpoint: 'escrow.create',
        expected: 'at most one accepted',
        seen: accepted.length,
        evidence: `balance before ${formatDecimal(before)}, after ${after === null ? 'unreadable' : formatDecimal(after)}`,
        ...reproduce,
      });
    }
    if (after !== null && after < 0n) {
      raise({
        id: 'money:escrow:negative-balance',
        severity: 'critical',
        kind: 'money',
        title: `the balance went negative (${formatDecimal(after)}) after simultaneous escrows`,
        endpoint: 'escrow.create',
        expected: '≥ 0',
        seen: formatDecimal(after),
        evidence: `${accepted.length} accepted`,
      });
    }
    for (const outcome of accepted)
      if (outcome.kind === 'ok')
        await context.session.call('escrow.release', { escrowId: outcome.value.escrowId }, second.apiKey);
    // None accepted (a service down, a 5xx each time): nothing says the balance would have stopped a second one.
    if (accepted.length === 0)
      return {
        status: 'skipped',
        note: `none of ${DOUBLE_SPEND_CALLS} escrows of ${formatDecimal(amountMicro)} on ${formatDecimal(before)} was accepted (${first === undefined ? 'none sent' : answerText(first)}): no double spend could be tried`,
      };
    return {
      status: 'ran',
      note: `${accepted.length} of ${DOUBLE_SPEND_CALLS} escrows of ${formatDecimal(amountMicro)} accepted on ${formatDecimal(before)}`,
    };
  },
};

/** What the bets-balance probe books: the balance its model expects, and what it placed and learned. */
interface BetBook {
  expected: Micro;
  placed: number;
  amountMicro: Micro;
  lastRefusal: string | null;
  /** The bets the model books since it last started from the balance (the finding's evidence). */
  booked: string[];
  /** Micro the model may be off by: one per credit with digits below the micro (a target keeping doubles). */
  slackMicro: bigint;
  /** Times the model started again from the balance (a bet whose effect no answer states). */
  resynced: number;
}

const betsBalance: Probe = {
  name: 'bets-balance',
  async run(context, raise) {
    const before = await balance(context);
    if (before === null) return { status: 'skipped', note: 'the balance could not be read' };
    const book: BetBook = {
      expected: before,
      placed: 0,
      amountMicro: MIN_BET_MICRO,
      lastRefusal: null,
      booked: [],
      slackMicro: 0n,
      resynced: 0,
    };
    for (let index = 0; index < PROBE_BETS; index++) {
      if (!(await placeAndBook(context, raise, book, { index, before })))
        return { status: 'skipped', note: 'the balance could not be read after a bet whose effect no answer states' };
    }
    const after = await judgeBalanceDelta(context, raise, book, before);
    const { placed, amountMicro, lastRefusal, resynced } = book;
    if (placed === 0)
      return {
        status: 'skipped',
        note: `no bet of ${formatDecimal(amountMicro)} was placed${lastRefusal === null ? '' : ` (refused: ${lastRefusal})`}`,
      };
    return {
      status: 'ran',
      note: `${placed} bets of ${formatDecimal(amountMicro)}, balance ${formatDecimal(before)} → ${after === null ? 'unreadable' : formatDecimal(after)}${resynced > 0 ? ` (balance read again after ${resynced} bets whose effect no answer stated)` : ''}`,
    };
  },
};

/** The model starts again from the balance after a bet whose effect no answer states; false when the balance cannot be read. */
async function restartBook(context: ProbeContext, book: BetBook): Promise<boolean> {
  const now = await balance(context);
  if (now === null) return false;
  [book.expected, book.slackMicro, book.resynced, book.booked] = [now, 0n, book.resynced + 1, []];
  return true;
}

/** A probe bet sent, and once more at the minimum a refusal states (learnedMinimum), which the later bets keep. */
async function sendProbeBet(
  context: ProbeContext,
  raise: (finding: FindingInput) => void,
  book: BetBook,
  at: { readonly index: number; readonly before: Micro },
): Promise<CallOutcome<LiveBet>> {
  const outcome = await context.session.call(
    'casino.bet',
    bet(100 + at.index, undefined, undefined, book.amountMicro),
    context.apiKey,
  );
  const minimum =
    outcome.kind === 'refused' ? learnedMinimum(context, raise, outcome, book.amountMicro, at.before) : null;
  if (minimum === null) return outcome;
  book.amountMicro = minimum;
  return context.session.call(
    'casino.bet',
    bet(100 + at.index, undefined, undefined, book.amountMicro),
    context.apiKey,
  );
}

/** One probe bet placed (at the target's stated minimum where it states one) and booked; false when the balance became unreadable. */
async function placeAndBook(
  context: ProbeContext,
  raise: (finding: FindingInput) => void,
  book: BetBook,
  at: { readonly index: number; readonly before: Micro },
): Promise<boolean> {
  const outcome = await sendProbeBet(context, raise, book, at);
  if (outcome.kind === 'refused') book.lastRefusal = `${outcome.refusal.name}: ${outcome.refusal.message}`;
  const unknown =
    outcome.kind === 'unreadable' ||
    outcome.kind === 'unreachable' ||
    (outcome.kind === 'refused' && outcome.refusal.status >= 500);
  // The bet may have run: what it did to the balance no answer states.
  if (unknown && !(await restartBook(context, book))) return false;
  if (outcome.kind !== 'ok') return true;
  book.placed += 1;
  // The credit is stake × multiplier where amount_won is a display field (live/bet-credit.ts).
  const credit = betCredit(outcome.value);
  if (!credit.ok) {
    // Unstated (no multiplier beside a rounded amount_won): a gap in the answer, not money gone wrong.
    raise({
      id: credit.unstated ? 'shape:bet:credit-unstated' : 'money:bet:credit',
      severity: credit.unstated ? 'minor' : 'major',
      kind: credit.unstated ? 'shape' : 'money',
      title: `a bet's amount_won does not tell its credit: ${credit.problem}`,
      endpoint: 'casino.bet',
      field: 'amount_won',
      expected: "stake × payout_multiplier, within the answer's rounding",
      seen: outcome.value.paidMicro === null ? null : formatDecimal(outcome.value.paidMicro),
      evidence: `bet ${outcome.value.betId}`,
      reproduce: context.curlOf(outcome.request),
    });
    // Its credit unknown.
    return restartBook(context, book);
  }
  book.expected = book.expected - outcome.value.amountMicro + credit.micro;
  book.booked.push(
    `${outcome.value.betId} (staked ${formatDecimal(outcome.value.amountMicro)}, credited ${formatDecimal(credit.micro)})`,
  );
  if (!credit.exact) book.slackMicro += 1n;
  const said = outcome.value.balanceAfterMicro;
  if (said !== null && abs(said - book.expected) > shownRoundingMicro([said]) + book.slackMicro) {
    raise({
      id: 'money:bet:new-balance',
      severity: 'major',
      kind: 'money',
      title: `a bet's new_balance (${formatDecimal(said)}) is not the previous balance − stake + return (${formatDecimal(book.expected)})`,
      endpoint: 'casino.bet',
      field: 'new_balance',
      expected: formatDecimal(book.expected),
      seen: formatDecimal(said),
      evidence: `bet ${outcome.value.betId}`,
      reproduce: context.curlOf(outcome.request),
    });
  }
  return true;
}

/** The balance read after the bets against what their stakes and returns give; returns it (null when unreadable). */
async function judgeBalanceDelta(
  context: ProbeContext,
  raise: (finding: FindingInput) => void,
  book: BetBook,
  before: Micro,
): Promise<Micro | null> {
  const { expected, slackMicro, placed, resynced, booked } = book;
  const read = await context.session.call('casino.balance', {}, context.apiKey);
  const after = read.kind === 'ok' ? read.value.balanceMicro : null;
  if (after !== null && abs(after - expected) > slackMicro + 1n) {
    raise({
      id: 'money:bet:balance-delta',
      severity: 'critical',
      kind: 'money',
      title: `over ${placed} bets the balance moved to ${formatDecimal(after)}, but stakes and returns give ${formatDecimal(expected)}`,
      endpoint: 'casino.balance',
      field: 'balance',
      expected: formatDecimal(expected),
      seen: formatDecimal(after),
      evidence: `balance before ${formatDecimal(before)}${resynced > 0 ? `; the model started again from the balance after ${resynced} bets whose effect no answer stated` : ''}; then ${booked.length} bets: ${booked.join(', ')}; the balance read after them is ${formatDecimal(after)}, ${formatDecimal(abs(after - expected))} ${after < expected ? 'short of' : 'above'} what they give`,
      ...reproduceOf(context, read),
    });
  }
  return after;
}

/**
 * The minimum a bet's refusal states above `sentMicro` (stated-minimum.ts), as a minor rule finding,
 * when ten probe bets at it fit the balance; else null (the refusal stands).
 */
function learnedMinimum(
  context: ProbeContext,
  raise: (finding: FindingInput) => void,
  outcome: Extract<CallOutcome<unknown>, { kind: 'refused' }>,
  sentMicro: Micro,
  balanceMicro: Micro,
): Micro | null {
  const stated = statedMinimumMicro(outcome.refusal, sentMicro);
  if (stated === null || stated * BigInt(PROBE_BETS) > balanceMicro) return null;
  raise(
    minimumBetFinding({
      game: 'coin_flip',
      statedMicro: stated,
      sentMicro,
      documentsMicro: documentsMinimumMicro('coin_flip', context.session.target.services.casino?.dialect ?? 'A'),
      refusal: outcome.refusal,
      then: `the probe bets ${formatDecimal(stated)}`,
      reproduce: context.curlOf(outcome.request),
    }),
  );
  return stated;
}

const badInput: Probe = {
  name: 'bad-input',
  async run(context, raise) {
    const before = await balance(context);
    const attempts: Array<[string, () => Promise<CallOutcome<unknown>>]> = [
      [
        'negative amount',
        () => context.session.call('casino.bet', bet(900, { side: 'heads' }, 'coin_flip', -1_000_000n), context.apiKey),
      ],
      ['unknown game', () => context.session.call('casino.bet', bet(901, {}, 'no_such_game'), context.apiKey)],
      [
        'malformed address',
        () =>
          context.session.call(
            'casino.withdraw',
            { amountMicro: 1_000_000n, address: 'not-an-address' },
            context.apiKey,
          ),
      ],
    ];
    for (const [what, send] of attempts) {
      const outcome = await send();
      if (outcome.kind === 'unsupported' || outcome.kind === 'deadline' || outcome.kind === 'unreachable') continue;
      const status = outcome.kind === 'refused' ? outcome.refusal.status : outcome.status;
      if (status < 400 || status > 499) {
        raise({
          id: `rule:bad-input:${what.replaceAll(' ', '-')}`,
          severity: status >= 500 ? 'major' : 'critical',
          kind: 'rule',
          title: `a request with a ${what} was answered ${status}, not a 4xx refusal`,
          expected: '4xx with an error body',
          seen: status,
          evidence: what,
          ...reproduceOf(context, outcome),
        });
      }
    }
    const after = await balance(context);
    if (before !== null && after !== null && before !== after) {
      raise({
        id: 'money:bad-input:balance-changed',
        severity: 'critical',
        kind: 'money',
        title: `bad input changed the balance from ${formatDecimal(before)} to ${formatDecimal(after)}`,
        expected: formatDecimal(before),
        seen: formatDecimal(after),
        evidence: attempts.map(([what]) => what).join(', '),
      });
    }
    return { status: 'ran', note: `${attempts.length} malformed requests` };
  },
};

export const MONEY_PROBES: readonly Probe[] = [
  overdraw,
  batchSummary,
  doubleSpend,
  betsBalance,
  badInput,
  { name: 'trading-overdraw', run: tradingOverdraw },
  { name: 'trading-margin', run: tradingMargin },
  { name: 'domain-double-registration', run: doubleRegistration },
  { name: 'domain-unpaid-transfer', run: unpaidTransfer },
  // Last: on a manual afp serve it moves the clock (up to 60 days) until its position is liquidated.
  { name: 'trading-liquidation', run: tradingLiquidation },
  { name: 'wallet-wrong-key', run: walletWrongKey },
  { name: 'wallet-documented', run: walletDocumented },
  { name: 'mcp-faucet-cooldown', run: mcpFaucetCooldown },
  { name: 'mcp-escrow-release', run: mcpEscrowRelease },
];

export async function runMoneyProbes(context: ProbeContext): Promise<ProbeResult[]> {
  const results: ProbeResult[] = [];
  for (const probe of MONEY_PROBES) results.push(await runProbe(probe.name, probe.run, context));
  return results;
}
