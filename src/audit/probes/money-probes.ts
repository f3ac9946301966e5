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
import { casinoBalanceMicro } from './casino-balance.ts';
import type { JsonValue } from '../../core/errors.ts';
import { formatDecimal, type Micro } from '../../core/money.ts';
import type { FindingInput } from '../../live/finding.ts';
import type { CallOutcome } from '../../live/live-session.ts';
import { isRefusal, type BetInput, type LiveBet } from '../../live/operations.ts';
import { betCredit } from '../../live/bet-credit.ts';
import { statedBatchMaximum } from '../../live/stated-batch-maximum.ts';
import { documentsMinimumMicro, minimumBetFinding, statedMinimumMicro } from '../../live/stated-minimum.ts';
import { doubleRegistration, unpaidTransfer } from './domain-probes.ts';
import { tradingLiquidation } from './liquidation-probe.ts';
import { mcpEscrowRelease, mcpFaucetCooldown } from './mcp-probes.ts';
import { tradingMargin, tradingOverdraw } from './trading-probes.ts';
import { walletDocumented, walletWrongKey } from './wallet-probes.ts';
import {
  answerPlaces,
  answerText,
  reproduceOf,
  runProbe,
  shownRoundingMicro,
  type ProbeContext,
  type ProbeResult,
} from './probe-context.ts';

export const DOUBLE_SPEND_CALLS = 5;
const PROBE_BETS = 10;
const MIN_BET_MICRO = 10_000n;

export type { ProbeResult } from './probe-context.ts';

interface Probe {
  readonly name: string;
  run(
    context: ProbeContext,
    raise: (finding: FindingInput) => void,
  ): Promise<{ status: 'ran' | 'skipped'; note: string }>;
}

const abs = (value: bigint): bigint => (value < 0n ? -value : value);

function balance(context: ProbeContext, apiKey = context.apiKey): Promise<Micro | null> {
  return casinoBalanceMicro(context.session, apiKey);
}

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

function bet(
  index: number,
  params: Record<string, string | number> = { side: 'heads' },
  game = 'coin_flip',
  amountMicro = MIN_BET_MICRO,
): BetInput {
  return { game, amountMicro, clientSeed: `afp-money-probe-${index}`, params };
}

const batchSummary: Probe = {
  name: 'batch-summary',
  async run(context, raise) {
    if (context.session.offers('casino.batch') !== null)
      return { status: 'skipped', note: context.session.offers('casino.batch') ?? '' };
    let bets = [
      ...Array.from({ length: PROBE_BETS }, (_, index) => bet(index)),
      bet(PROBE_BETS, { side: 'heads' }, 'coin_flip', 0n),
    ];
    let outcome = await context.session.call('casino.batch', { bets }, context.apiKey);
    // Refused above the target's own batch maximum, which it states: once more within it (the invalid bet kept last).
    const maximum = outcome.kind === 'refused' ? statedBatchMaximum(outcome.refusal, bets.length) : null;
    if (maximum !== null) {
      bets = [...bets.slice(0, Math.max(1, maximum - 1)), ...(maximum >= 2 ? bets.slice(-1) : [])];
      outcome = await context.session.call('casino.batch', { bets }, context.apiKey);
    }
    if (outcome.kind !== 'ok')
      return {
        status: 'skipped',
        note: `the batch was not answered: ${outcome.kind === 'refused' ? `refused ${outcome.refusal.status} ${outcome.refusal.name} (${outcome.refusal.message})` : outcome.kind}`,
      };
    // Every bet refused for the target's own minimum: the same batch once more at that minimum.
    const minimum = outcome.value.results.every(isRefusal)
      ? outcome.value.results
          .map((result) => (isRefusal(result) ? statedMinimumMicro(result, MIN_BET_MICRO) : null))
          .find((stated) => stated !== null)
      : undefined;
    if (minimum !== undefined && minimum !== null) {
      const raised = bets.map((one) => (one.amountMicro === 0n ? one : { ...one, amountMicro: minimum }));
      outcome = await context.session.call('casino.batch', { bets: raised }, context.apiKey);
      if (outcome.kind !== 'ok')
        return { status: 'skipped', note: `the batch at the stated minimum was not answered: ${outcome.kind}` };
    }
    const { results, summary } = outcome.value;
    const placed = results.filter((result): result is LiveBet => !isRefusal(result));
    const wagered = placed.reduce((total, one) => total + one.amountMicro, 0n);
    // What the bets credited: stake × multiplier where amount_won is a display figure (bet-credit.ts),
    // never the rounded figures (0 each on a target rounding to 0 places); `unsure` what no answer pins.
    const credits = placed.map((one) => betCredit(one));
    const won = credits.reduce(
      (total, credit, index) => total + (credit.ok ? credit.micro : (placed[index]?.paidMicro ?? 0n)),
      0n,
    );
    const reproduce = context.curlOf(outcome.request);
    const compare = (
      field: string,
      seen: bigint | number | null,
      expected: bigint | number,
      tolerance: bigint,
    ): void => {
      if (seen === null) return;
      const differs =
        typeof seen === 'bigint' && typeof expected === 'bigint' ? abs(seen - expected) > tolerance : seen !== expected;
      if (!differs) return;
      const text = (value: bigint | number): string =>
        typeof value === 'bigint' ? formatDecimal(value) : String(value);
      raise({
        id: `money:batch:summary:${field}`,
        severity: 'major',
        kind: 'money',
        title: `the batch summary's ${field} (${text(seen)}) disagrees with its results (${text(expected)})`,
        endpoint: 'casino.batch',
        field: `summary.${field}`,
        expected: text(expected),
        seen: text(seen),
        evidence: `${results.length} elements, ${placed.length} placed`,
        reproduce,
      });
    };
    if (summary === null) return { status: 'ran', note: 'the batch answer has no summary' };
    compare('total', summary.total, results.length, 0n);
    compare('errors', summary.errors, results.length - placed.length, 0n);
    // Each shown figure within its own rounding: the target's display places, measured per figure
    // (a shown 0 at the most places the answer's figures show: a zeroed total_wagered is still seen).
    const last = placed.at(-1)?.balanceAfterMicro ?? null;
    const said = outcome.value.balanceAfterMicro;
    const places = answerPlaces([
      ...placed.flatMap((one) => [one.paidMicro, one.balanceAfterMicro]),
      summary.totalWageredMicro,
      summary.totalWonMicro,
      summary.netPnlMicro,
      said,
    ]);
    const rounding = (...figures: (Micro | null)[]): Micro =>
      shownRoundingMicro(
        figures.map((figure) => figure ?? 0n),
        places,
      );
    const shownWon = credits.reduce(
      (total, credit, index) =>
        total + (credit.ok ? (credit.exact ? 0n : 1n) : rounding(placed[index]?.paidMicro ?? null)),
      0n,
    );
    compare('total_wagered', summary.totalWageredMicro, wagered, rounding(summary.totalWageredMicro));
    compare('total_won', summary.totalWonMicro, won, shownWon + rounding(summary.totalWonMicro));
    compare('net_pnl', summary.netPnlMicro, won - wagered, shownWon + rounding(summary.netPnlMicro));
    if (last !== null) compare('balance_after', said, last, rounding(last, said));
    return { status: 'ran', note: `${results.length} elements, ${placed.length} placed, summary compared` };
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

const betsBalance: Probe = {
  name: 'bets-balance',
  async run(context, raise) {
    const before = await balance(context);
    if (before === null) return { status: 'skipped', note: 'the balance could not be read' };
    let expected = before;
    let placed = 0;
    let amountMicro = MIN_BET_MICRO;
    let lastRefusal: string | null = null;
    /** The bets the model books since it last started from the balance (the finding's evidence). */
    let booked: string[] = [];
    // Micro the model may be off by: one per credit with digits below the micro (a target keeping doubles).
    let slackMicro = 0n;
    /** Times the model started again from the balance (a bet whose effect no answer states). */
    let resynced = 0;
    /** The model starts again from the balance after such a bet; false when the balance cannot be read. */
    const restart = async (): Promise<boolean> => {
      const now = await balance(context);
      if (now === null) return false;
      [expected, slackMicro, resynced, booked] = [now, 0n, resynced + 1, []];
      return true;
    };
    const unreadAfter = {
      status: 'skipped',
      note: 'the balance could not be read after a bet whose effect no answer states',
    } as const;
    for (let index = 0; index < PROBE_BETS; index++) {
      let outcome = await context.session.call(
        'casino.bet',
        bet(100 + index, undefined, undefined, amountMicro),
        context.apiKey,
      );
      const minimum = outcome.kind === 'refused' ? learnedMinimum(context, raise, outcome, amountMicro, before) : null;
      if (minimum !== null) {
        amountMicro = minimum;
        outcome = await context.session.call(
          'casino.bet',
          bet(100 + index, undefined, undefined, amountMicro),
          context.apiKey,
        );
      }
      if (outcome.kind === 'refused') lastRefusal = `${outcome.refusal.name}: ${outcome.refusal.message}`;
      const unknown =
        outcome.kind === 'unreadable' ||
        outcome.kind === 'unreachable' ||
        (outcome.kind === 'refused' && outcome.refusal.status >= 500);
      // The bet may have run: what it did to the balance no answer states.
      if (unknown && !(await restart())) return unreadAfter;
      if (outcome.kind !== 'ok') continue;
      placed += 1;
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
        if (!(await restart())) return unreadAfter;
        continue;
      }
      expected = expected - outcome.value.amountMicro + credit.micro;
      booked.push(
        `${outcome.value.betId} (staked ${formatDecimal(outcome.value.amountMicro)}, credited ${formatDecimal(credit.micro)})`,
      );
      if (!credit.exact) slackMicro += 1n;
      const said = outcome.value.balanceAfterMicro;
      if (said !== null && abs(said - expected) > shownRoundingMicro([said]) + slackMicro) {
        raise({
          id: 'money:bet:new-balance',
          severity: 'major',
          kind: 'money',
          title: `a bet's new_balance (${formatDecimal(said)}) is not the previous balance − stake + return (${formatDecimal(expected)})`,
          endpoint: 'casino.bet',
          field: 'new_balance',
          expected: formatDecimal(expected),
          seen: formatDecimal(said),
          evidence: `bet ${outcome.value.betId}`,
          reproduce: context.curlOf(outcome.request),
        });
      }
    }
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
