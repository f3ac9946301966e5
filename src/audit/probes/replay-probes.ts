/**
 * Replay probes of `afp audit fairness --target`: what sampling a history cannot see, because the
 * history only shows what the target chose to settle. Each probe sends a request the target has
 * already answered (or one it never dealt) and reads the balance around it:
 *   - draw-replay: video poker deal, draw, then the same draw again; and a draw for a nonce never
 *     dealt. A second settlement of one dealt hand (a new bet, or the balance moved again) is
 *     critical; a settled never-dealt nonce is major (the client picked the nonce the server must);
 *   - batch-replay: the same batch body twice; the second must place new bets on new nonces — a bet
 *     id or a (server seed, nonce) pair of the first answer seen again is critical, and so is a
 *     balance that does not move by exactly what the second answer says it settled;
 *   - seed-nonce-reuse: two single bets with the same client seed must draw different nonces; where
 *     the dialect lets the client pick the nonce too (`casino.draw-at`), a draw at the first bet's
 *     (client seed, nonce) — a draw already settled — must be refused.
 * A probe the dialect cannot express, or that the balance cannot pay for, is skipped with its
 * reason. Bets go out at the documents' minimum, or once more at the target's own where a refusal
 * states a higher one (stated-minimum.ts). Every finding carries the endpoint, what was expected and seen, and the curl lines that
 * replay it (joined with `&&`: the requests in order). Each probe costs a few minimum bets.
 * Non-goals: verifying the probe bets' outcomes (the history audit does, on the next run).
 */
import { displayRoundingMicro } from '../../core/live-amount.ts';
import {
  betCredit,
  type CallOutcome,
  type LiveSession,
  type SentRequest,
  isRefusal,
  type BetInput,
  type LiveBet,
  type Refusal,
  statedMinimumMicro,
} from '../../live.ts';
import type { FindingInput, FindingsCollector } from '../../report/findings/finding.ts';
import { casinoBalanceMicro } from './casino-balance.ts';
import { answerText, callCounts, runProbe, skipCauseOf, type ProbeResult } from './probe-context.ts';
import { formatDecimal, type Micro } from '../../core/money.ts';

const MIN_BET_MICRO = 10_000n;
/** Balances are read as the target writes them (2 decimals on some answers): half a cent per settlement. */
const ROUNDING_MICRO = 5_000n;
const BATCH_BETS = 3;
/** What the probes may spend at most: the batches, three draws and two single bets at the minimum. */
const PROBE_COST_MICRO = MIN_BET_MICRO * BigInt(2 * BATCH_BETS + 5);
/** A nonce no deal handed out: far past the dealt one. */
const NEVER_DEALT_OFFSET = 10_000;
const HOLD_ALL: readonly number[] = [0, 1, 2, 3, 4];

export interface ReplayContext {
  readonly session: LiveSession;
  readonly apiKey: string;
  readonly findings: FindingsCollector;
  readonly curlOf: (request: SentRequest) => string;
  /** Distinguishes this run's client seeds from an earlier run's on the same account. */
  readonly runTag: string;
}

/** A replay probe's result (probe-context.ts ProbeResult). */
export type ReplayProbeResult = ProbeResult;

type Raise = (finding: FindingInput) => void;
type ProbeOutcome = { status: 'ran' | 'skipped'; note: string };

interface ReplayProbe {
  readonly name: string;
  readonly needs: readonly ('casino.deal' | 'casino.draw' | 'casino.batch' | 'casino.bet')[];
  run(context: ReplayContext, raise: Raise): Promise<ProbeOutcome>;
}

const abs = (value: bigint): bigint => (value < 0n ? -value : value);

function balanceOf(context: ReplayContext): Promise<Micro | null> {
  return casinoBalanceMicro(context.session, context.apiKey);
}

/** One shell line sending `requests` in order. */
function curlLines(context: ReplayContext, outcomes: ReadonlyArray<CallOutcome<unknown>>): string | undefined {
  const lines = outcomes.flatMap((outcome) => ('request' in outcome ? [context.curlOf(outcome.request)] : []));
  return lines.length === 0 ? undefined : lines.join(' && ');
}

/** The minimum a single call's refusal states above `sentMicro` (stated-minimum.ts), else null. */
const refusalMinimum = (outcome: CallOutcome<unknown>, sentMicro: Micro): Micro | null =>
  outcome.kind === 'refused' ? statedMinimumMicro(outcome.refusal, sentMicro) : null;

/**
 * `send` at the documents' minimum bet; where the answer states the target's own minimum above it
 * (`stated`), once more at that minimum: a target that raised its minimum is probed at it instead
 * of skipped. The amount the answer was given at comes back with it.
 */
async function atMinimum<T>(
  send: (amountMicro: Micro) => Promise<CallOutcome<T>>,
  stated: (outcome: CallOutcome<T>, sentMicro: Micro) => Micro | null = refusalMinimum,
  firstMicro: Micro = MIN_BET_MICRO,
): Promise<{ readonly outcome: CallOutcome<T>; readonly amountMicro: Micro }> {
  const outcome = await send(firstMicro);
  const minimum = stated(outcome, firstMicro);
  return minimum === null
    ? { outcome, amountMicro: firstMicro }
    : { outcome: await send(minimum), amountMicro: minimum };
}

const moved = (from: Micro | null, to: Micro | null): string =>
  from === null || to === null ? 'unreadable' : `${formatDecimal(from)} → ${formatDecimal(to)}`;

const drawReplay: ReplayProbe = {
  name: 'draw-replay',
  needs: ['casino.deal', 'casino.draw'],
  async run(context, raise) {
    const { session, apiKey } = context;
    const clientSeed = `afp-replay-draw-${context.runTag}`;
    const { outcome: dealt, amountMicro: dealtMicro } = await atMinimum((amount) =>
      session.call('casino.deal', { amountMicro: amount, clientSeed }, apiKey),
    );
    if (dealt.kind !== 'ok') return { status: 'skipped', note: `the deal was not answered: ${answerText(dealt)}` };
    const nonce = dealt.value.nonce;
    // Where the deal takes no amount (the deployment's), the draw is the bet the minimum refuses.
    const { outcome: first, amountMicro } = await atMinimum(
      (amount) => session.call('casino.draw', { nonce, holds: HOLD_ALL, amountMicro: amount, clientSeed }, apiKey),
      refusalMinimum,
      dealtMicro,
    );
    const input = { nonce, holds: HOLD_ALL, amountMicro, clientSeed };
    if (first.kind !== 'ok')
      return {
        status: 'skipped',
        note: `the first draw of nonce ${input.nonce} was not settled: ${answerText(first)}`,
      };
    const before = await balanceOf(context);
    const again = await session.call('casino.draw', input, apiKey);
    const after = await balanceOf(context);
    const settledAgain =
      again.kind === 'ok' &&
      (again.value.betId !== first.value.betId ||
        (before !== null && after !== null && abs(after - before) > ROUNDING_MICRO));
    const endpoint = 'casino.draw (the video-poker draw)';
    if (settledAgain) {
      raise({
        id: 'replay:casino.draw:settled-twice',
        severity: 'critical',
        kind: 'money',
        title: `a video-poker draw sent again for the same dealt nonce ${input.nonce} was settled a second time`,
        endpoint,
        expected: 'the second draw refused (the hand is spent), or answered with the first bet and no money moved',
        seen: {
          status: again.status,
          bet_id: again.value.betId,
          first_bet_id: first.value.betId,
          balance: moved(before, after),
        },
        evidence: `deal nonce ${input.nonce} (client seed ${clientSeed}); first draw bet ${first.value.betId}; the same draw again: bet ${again.value.betId}, balance ${moved(before, after)}`,
        ...reproduce(curlLines(context, [first, again])),
      });
    } else if (again.kind !== 'ok' && before !== null && after !== null && after !== before) {
      raise({
        id: 'replay:casino.draw:refused-moved-money',
        severity: 'critical',
        kind: 'money',
        title: `a refused replay of a video-poker draw moved the balance (${moved(before, after)})`,
        endpoint,
        expected: formatDecimal(before),
        seen: formatDecimal(after),
        evidence: `the same draw of nonce ${input.nonce} again: ${answerText(again)}`,
        ...reproduce(curlLines(context, [first, again])),
      });
    }
    const never = await neverDealt(context, raise, input.nonce + NEVER_DEALT_OFFSET, amountMicro);
    return {
      status: 'ran',
      note: `deal nonce ${input.nonce}, draw settled (bet ${first.value.betId}); the same draw again: ${settledAgain ? 'settled again' : answerText(again)}; ${never}`,
    };
  },
};

/** A draw for a nonce no deal handed out; the note's clause. */
async function neverDealt(context: ReplayContext, raise: Raise, nonce: number, amountMicro: Micro): Promise<string> {
  const clientSeed = `afp-replay-undealt-${context.runTag}`;
  const drawn = await context.session.call(
    'casino.draw',
    { nonce, holds: HOLD_ALL, amountMicro, clientSeed },
    context.apiKey,
  );
  if (drawn.kind === 'ok') {
    raise({
      id: 'replay:casino.draw:never-dealt',
      severity: 'major',
      kind: 'fairness',
      title: `a video-poker draw for nonce ${nonce}, never dealt, was settled: the client picked the nonce`,
      endpoint: 'casino.draw (the video-poker draw)',
      expected: 'refused: no hand was dealt at that nonce',
      seen: { status: drawn.status, bet_id: drawn.value.betId, nonce: drawn.value.nonce },
      evidence: `draw of nonce ${nonce} with client seed ${clientSeed}, never dealt: bet ${drawn.value.betId}`,
      ...reproduce(curlLines(context, [drawn])),
    });
    return `a draw for nonce ${nonce}, never dealt: settled`;
  }
  return `a draw for nonce ${nonce}, never dealt: ${answerText(drawn)}`;
}

function reproduce(line: string | undefined): { reproduce?: string } {
  return line === undefined ? {} : { reproduce: line };
}

const placedOf = (results: ReadonlyArray<LiveBet | Refusal>): LiveBet[] =>
  results.filter((result): result is LiveBet => !isRefusal(result));

/** The same batch of BATCH_BETS coin flips, at the minimum the target states where it refuses the planned one: its first answer and the bets. */
async function batchAtMinimum(context: ReplayContext) {
  const batchAt = (amountMicro: Micro): BetInput[] =>
    Array.from({ length: BATCH_BETS }, (_, index) => ({
      game: 'coin_flip',
      amountMicro,
      clientSeed: `afp-replay-batch-${context.runTag}-${index}`,
      params: { side: 'heads' },
    }));
  const { outcome: first, amountMicro } = await atMinimum(
    (amount) => context.session.call('casino.batch', { bets: batchAt(amount) }, context.apiKey),
    (answer, sentMicro) =>
      answer.kind === 'ok' && placedOf(answer.value.results).length === 0
        ? (answer.value.results
            .map((result) => (isRefusal(result) ? statedMinimumMicro(result, sentMicro) : null))
            .find((stated) => stated !== null) ?? null)
        : null,
  );
  return { first, bets: batchAt(amountMicro) };
}

/** Pairs of bets that drew the same (server seed, nonce), in words. */
function reusedDraws(bets: readonly LiveBet[]): string[] {
  const draws = new Map<string, string>();
  const reused: string[] = [];
  for (const bet of bets) {
    const draw = `${bet.seedHash}:${bet.nonce}`;
    const earlier = draws.get(draw);
    if (earlier !== undefined && earlier !== bet.betId)
      reused.push(`${earlier} and ${bet.betId} at nonce ${bet.nonce}`);
    else draws.set(draw, bet.betId);
  }
  return reused;
}

/**
 * The balance `bets` give from `before` (null: unread), and what it may be off by. Each bet's credit
 * as the target books it (stake × multiplier where amount_won is a display figure, bet-credit.ts),
 * never the rounded figure: a target showing 0 places shows 0 for 0.0199.
 */
function balanceAfterBets(before: Micro | null, bets: readonly LiveBet[]): { expected: Micro | null; unsure: Micro } {
  const credits = bets.map((bet) => betCredit(bet));
  const expected =
    before === null
      ? null
      : bets.reduce((total, bet, index) => {
          const credit = credits[index];
          return total - bet.amountMicro + (credit?.ok === true ? credit.micro : (bet.paidMicro ?? 0n));
        }, before);
  const unsure = bets.reduce(
    (total, bet, index) => {
      const credit = credits[index];
      return total + (credit?.ok === true ? 0n : displayRoundingMicro(bet.paidMicro ?? 0n, 2));
    },
    ROUNDING_MICRO * BigInt(bets.length + 1),
  );
  return { expected, unsure };
}

const batchReplay: ReplayProbe = {
  name: 'batch-replay',
  needs: ['casino.batch'],
  async run(context, raise) {
    const { first, bets } = await batchAtMinimum(context);
    if (first.kind !== 'ok') return { status: 'skipped', note: `the batch was not answered: ${answerText(first)}` };
    const refused = first.value.results.find(isRefusal);
    if (placedOf(first.value.results).length === 0)
      return {
        status: 'skipped',
        note: `no bet of the batch was placed${refused === undefined ? '' : ` (refused ${refused.status} ${refused.name}: ${refused.message})`}`,
      };
    const before = await balanceOf(context);
    const again = await context.session.call('casino.batch', { bets }, context.apiKey);
    const after = await balanceOf(context);
    if (again.kind !== 'ok')
      return {
        status: 'ran',
        note: `the same batch again: ${answerText(again)} (each must be a new batch of new bets: not judged)`,
      };
    const placedFirst = placedOf(first.value.results);
    const placedAgain = placedOf(again.value.results);
    const line = reproduce(curlLines(context, [first, again]));
    const endpoint = 'casino.batch (POST /bets/batch)';
    const firstIds = new Set(placedFirst.map((bet) => bet.betId));
    const oldIds = placedAgain.filter((bet) => firstIds.has(bet.betId)).map((bet) => bet.betId);
    if (oldIds.length > 0)
      raise({
        id: 'replay:casino.batch:old-bets',
        severity: 'critical',
        kind: 'fairness',
        title: `the same batch body sent again answered with ${oldIds.length} bet(s) of the first batch`,
        endpoint,
        expected: 'new bets with new ids',
        seen: oldIds,
        evidence: `first batch ${[...firstIds].join(', ')}; again ${placedAgain.map((bet) => bet.betId).join(', ')}`,
        ...line,
      });
    const reused = reusedDraws([...placedFirst, ...placedAgain]);
    if (reused.length > 0)
      raise({
        id: 'replay:casino.batch:nonce-reused',
        severity: 'critical',
        kind: 'fairness',
        title: `bets of two identical batches drew the same (server seed, nonce) pair ${reused.length} time(s): an old result replayed`,
        endpoint,
        field: 'results[].proof.nonce',
        expected: 'a fresh nonce for every bet',
        seen: reused.slice(0, 5),
        evidence: reused.slice(0, 5).join('; '),
        ...line,
      });
    const { expected, unsure } = balanceAfterBets(before, placedAgain);
    if (expected !== null && after !== null && abs(after - expected) > unsure) {
      raise({
        id: 'replay:casino.batch:balance',
        severity: 'critical',
        kind: 'money',
        title: `the second identical batch moved the balance to ${formatDecimal(after)}, its own bets give ${formatDecimal(expected)}`,
        endpoint,
        expected: formatDecimal(expected),
        seen: formatDecimal(after),
        evidence: `balance before the second batch ${before === null ? 'unreadable' : formatDecimal(before)}; ${placedAgain.length} bets placed`,
        ...line,
      });
    }
    return {
      status: 'ran',
      note: `the same batch of ${BATCH_BETS} twice: ${placedFirst.length} then ${placedAgain.length} bets placed, ${oldIds.length} old bet ids, ${reused.length} reused nonces, balance ${moved(before, after)}`,
    };
  },
};

const seedNonceReuse: ReplayProbe = {
  name: 'seed-nonce-reuse',
  needs: ['casino.bet'],
  async run(context, raise) {
    const betAt = (amountMicro: Micro): BetInput => ({
      game: 'coin_flip',
      amountMicro,
      clientSeed: `afp-replay-seed-${context.runTag}`,
      params: { side: 'heads' },
    });
    const { outcome: first, amountMicro } = await atMinimum((amount) =>
      context.session.call('casino.bet', betAt(amount), context.apiKey),
    );
    const bet = betAt(amountMicro);
    const second = await context.session.call('casino.bet', bet, context.apiKey);
    if (first.kind !== 'ok' || second.kind !== 'ok')
      return {
        status: 'skipped',
        note: `two bets with one client seed were not both placed: ${answerText(first)}, ${answerText(second)}`,
      };
    const one = first.value;
    const two = second.value;
    const sameDraw = one.seedHash === two.seedHash && one.nonce === two.nonce;
    if (sameDraw)
      raise({
        id: 'replay:casino.bet:client-seed-nonce-reused',
        severity: 'critical',
        kind: 'fairness',
        title: `two bets with the same client seed drew the same nonce ${one.nonce}: the second replays the first's result`,
        endpoint: 'casino.bet',
        field: 'proof.nonce',
        expected: 'a fresh nonce for the second bet',
        seen: two.nonce,
        evidence: `bets ${one.betId} and ${two.betId}, client seed ${bet.clientSeed}, result hashes ${one.resultHash} and ${two.resultHash}`,
        ...reproduce(curlLines(context, [first, second])),
      });
    const picked = await drawAtSpent(context, raise, one, amountMicro);
    return {
      status: 'ran',
      note: `two bets with client seed ${bet.clientSeed}: nonces ${one.nonce} and ${two.nonce}${sameDraw ? ' (the same)' : ''}; ${picked}`,
    };
  },
};

/** Where the client picks the nonce too: a draw at the (client seed, nonce) the bet `spent` already used. */
async function drawAtSpent(context: ReplayContext, raise: Raise, spent: LiveBet, amountMicro: Micro): Promise<string> {
  const unsupported = context.session.offers('casino.draw-at');
  if (unsupported !== null)
    return `a client-picked nonce not tried: ${unsupported} (the client picks the seed, the server the nonce)`;
  const drawn = await context.session.call(
    'casino.draw-at',
    { nonce: spent.nonce, holds: HOLD_ALL, amountMicro, clientSeed: spent.clientSeed },
    context.apiKey,
  );
  if (drawn.kind === 'ok') {
    raise({
      id: 'replay:casino.draw-at:spent-nonce',
      severity: 'critical',
      kind: 'fairness',
      title: `a video-poker draw at the client seed and nonce ${spent.nonce} of a settled bet was settled: the client reused a spent (seed, nonce)`,
      endpoint: 'casino.draw-at (the video-poker draw at a picked nonce)',
      expected: 'refused: the nonce is spent and no hand was dealt at it',
      seen: {
        status: drawn.status,
        bet_id: drawn.value.betId,
        nonce: drawn.value.nonce,
        server_seed_hash: drawn.value.seedHash,
      },
      evidence: `bet ${spent.betId} drew nonce ${spent.nonce} of seed ${spent.seedHash} with client seed ${spent.clientSeed}; the draw at the same pair: bet ${drawn.value.betId}`,
      ...reproduce(curlLines(context, [drawn])),
    });
    return `a draw at the spent (client seed, nonce ${spent.nonce}): settled`;
  }
  return `a draw at the spent (client seed, nonce ${spent.nonce}): ${answerText(drawn)}`;
}

export const REPLAY_PROBES: readonly ReplayProbe[] = [drawReplay, batchReplay, seedNonceReuse];

/** Runs every replay probe the dialect can express and the balance can pay for, in order. */
export async function runReplayProbes(context: ReplayContext): Promise<ReplayProbeResult[]> {
  const start = callCounts(context.session);
  const balance = await balanceOf(context);
  const balanceUnread = skipCauseOf('skipped', start, context.session);
  const results: ReplayProbeResult[] = [];
  for (const probe of REPLAY_PROBES) {
    const missing = probe.needs.map((op) => context.session.offers(op)).find((reason) => reason !== null) ?? null;
    const skip =
      missing ??
      (balance === null
        ? 'the balance could not be read'
        : balance < PROBE_COST_MICRO
          ? `the balance (${formatDecimal(balance)}) is below the ${formatDecimal(PROBE_COST_MICRO)} the replay probes may spend`
          : null);
    if (skip !== null) {
      const unread = missing === null && balance === null ? balanceUnread : {};
      results.push({ name: probe.name, status: 'skipped', note: skip, findingIds: [], ...unread });
      continue;
    }
    results.push(await runProbe(probe.name, probe.run, context));
  }
  return results;
}
