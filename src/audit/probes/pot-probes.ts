/**
 * Money probes of the casino's pots (`afp audit money --target`): money held for a tournament or
 * a challenge must come from the agents who put it in, and leave only as the target says.
 *   - tournament-pool: the audit account creates a small tournament (pool POOL_MICRO, no entry
 *     fee, starting a day ahead on the target's clock). Its balance must fall by the pool the answer
 *     states (NOTES.md: the pool is funded from the creator's balance at creation). A balance that
 *     falls by less is a pool paid out of nothing, minted (critical); by more, an overcharge (major);
 *   - challenge-settlement: the audit account challenges the second account, which accepts, for up
 *     to CHALLENGE_ROUNDS rounds of CHALLENGE_MICRO. Each round the two balances together must fall
 *     by exactly the house cut the accept answer states (NOTES.md: both stakes held, the winner gets
 *     both minus the cut); any other loss is money that went nowhere the target names (critical).
 *     Where the answer states no cut, the cut is measured: the pair's loss, which a cut keeps the
 *     same whoever wins. A loss that differs with the winner is major; one outside [0, the pot],
 *     critical; one loss throughout, above the documents' 2%, the target's own cut (minor). A
 *     stated cut above the documents' 2% is a minor rule finding. The rounds stop early once the
 *     challenger has lost one (the real casino's defect shows on a loss) and, where no cut is
 *     stated, has won one too.
 * They run last, after the slow settlement probes too (`runPotProbes`): the tournament outlives the
 * command (its pool comes back to its creator when it ends with no entrant), and a probe that moves
 * time or reads balance deltas after it would count that return as its own.
 * Measured, not recited: both judge the target by its own answers (the stated pool, the stated cut)
 * and the balances it reports, and a cut it does not state by what the balances show.
 * Costs: a 0.10 pool (returned or paid out by the target's own rules), and per round 2% of a 0.20
 * pot. A probe the dialect cannot express, or the balances cannot pay for, is skipped with why.
 */
import { casinoBalanceMicro } from './casino-balance.ts';
import { formatDecimal, type Micro } from '../../core/money.ts';
import type { FindingInput } from '../../report/findings/finding.ts';
import {
  answerText,
  DISPLAY_ROUNDING_MICRO,
  reproduceOf,
  runProbe,
  type ProbeContext,
  type ProbeResult,
} from './probe-context.ts';

export const POOL_MICRO = 100_000n;
export const CHALLENGE_MICRO = 50_000n;
export const CHALLENGE_ROUNDS = 6;
/** The documents' challenge cut: 2% of the pot (NOTES.md "Challenges"). */
const DOCUMENTS_CUT_BPS = 200n;
/** Both stakes of a challenge round, and the documents' cut of it. */
const POT_MICRO = CHALLENGE_MICRO * 2n;
const DOCUMENTS_CUT_MICRO = (POT_MICRO * DOCUMENTS_CUT_BPS) / 10_000n;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

type Raise = (finding: FindingInput) => void;
type ProbeOutcome = { status: 'ran' | 'skipped'; note: string };

const abs = (value: bigint): bigint => (value < 0n ? -value : value);

function balanceOf(context: ProbeContext, apiKey: string): Promise<Micro | null> {
  return casinoBalanceMicro(context.session, apiKey);
}

/** The target's now: an afp serve's clock (GET /_afp/clock), else the command's clock. */
async function targetNowMs(context: ProbeContext): Promise<number> {
  const admin = context.session.admin();
  const read = admin === null ? null : await admin.clock();
  return read !== null && read.ok ? read.value.nowMs : context.clock.nowMs();
}

export async function tournamentPool(context: ProbeContext, raise: Raise): Promise<ProbeOutcome> {
  const unsupported = context.session.offers('casino.tournament-create');
  if (unsupported !== null) return { status: 'skipped', note: unsupported };
  const before = await balanceOf(context, context.apiKey);
  if (before === null) return { status: 'skipped', note: 'the balance could not be read' };
  if (before < POOL_MICRO)
    return {
      status: 'skipped',
      note: `the balance (${formatDecimal(before)}) is below the pool of ${formatDecimal(POOL_MICRO)}`,
    };
  const startsAtMs = (await targetNowMs(context)) + DAY_MS;
  const created = await context.session.call(
    'casino.tournament-create',
    {
      name: 'afp audit pool probe',
      game: 'coin_flip',
      entryFeeMicro: 0n,
      prizePoolMicro: POOL_MICRO,
      maxAgents: 2,
      startsAtMs,
      endsAtMs: startsAtMs + HOUR_MS,
    },
    context.apiKey,
  );
  if (created.kind !== 'ok')
    return { status: 'skipped', note: `the tournament was not created: ${answerText(created)}` };
  const after = await balanceOf(context, context.apiKey);
  const { tournamentId } = created.value;
  const poolMicro = created.value.prizePoolMicro ?? POOL_MICRO;
  if (after === null)
    return { status: 'ran', note: `tournament ${tournamentId} created; the balance after could not be read` };
  const takenMicro = before - after;
  const evidence = `tournament ${tournamentId}: balance ${formatDecimal(before)} before the create, ${formatDecimal(after)} after; the answer states a pool of ${created.value.prizePoolMicro === null ? '(none: 0.10 was asked)' : formatDecimal(created.value.prizePoolMicro)}`;
  if (takenMicro < poolMicro - DISPLAY_ROUNDING_MICRO)
    raise({
      id: 'money:tournament:pool-minted',
      severity: 'critical',
      kind: 'money',
      title: `a tournament's prize pool of ${formatDecimal(poolMicro)} was not taken from its creator (its balance moved by ${formatDecimal(-takenMicro)}): the prizes are paid from money nobody put in`,
      endpoint: 'casino.tournament-create',
      field: 'prize_pool',
      expected: `the creator's balance down by ${formatDecimal(poolMicro)} (NOTES.md: the pool is funded from the creator's balance at creation)`,
      seen: formatDecimal(takenMicro),
      evidence,
      ...reproduceOf(context, created),
    });
  else if (takenMicro > poolMicro + DISPLAY_ROUNDING_MICRO)
    raise({
      id: 'money:tournament:pool-overcharged',
      severity: 'major',
      kind: 'money',
      title: `creating a tournament with a pool of ${formatDecimal(poolMicro)} took ${formatDecimal(takenMicro)} from its creator`,
      endpoint: 'casino.tournament-create',
      field: 'prize_pool',
      expected: formatDecimal(poolMicro),
      seen: formatDecimal(takenMicro),
      evidence,
      ...reproduceOf(context, created),
    });
  return {
    status: 'ran',
    note: `tournament ${tournamentId} with a pool of ${formatDecimal(poolMicro)}: the creator's balance ${formatDecimal(before)} → ${formatDecimal(after)}`,
  };
}

interface Round {
  readonly challengeId: string;
  readonly winner: 'challenger' | 'challenged' | 'draw' | 'unknown';
  readonly lostMicro: Micro;
  readonly cutMicro: Micro | null;
  readonly evidence: string;
  readonly reproduce?: string;
}

export async function challengeSettlement(context: ProbeContext, raise: Raise): Promise<ProbeOutcome> {
  const second = context.second;
  if (second === null)
    return { status: 'skipped', note: 'no second account could be opened (it accepts the challenges)' };
  for (const op of ['casino.challenge', 'casino.challenge-accept'] as const) {
    const unsupported = context.session.offers(op);
    if (unsupported !== null) return { status: 'skipped', note: unsupported };
  }
  const rounds: Round[] = [];
  let stopped: string | null = null;
  // Until the challenger has lost one (the real casino's defect shows on a loss); where no cut is stated, until
  // it has won one too (a cut is the same loss whoever wins: judgeUnstatedCut compares them).
  const seen = (who: Round['winner']): boolean => rounds.some((round) => round.winner === who);
  const enough = (): boolean =>
    seen('challenged') && (seen('challenger') || rounds.every((round) => round.cutMicro !== null));
  while (rounds.length < CHALLENGE_ROUNDS && !enough()) {
    const round = await playRound(context, second, raise);
    if (typeof round === 'string') {
      stopped = round;
      break;
    }
    rounds.push(round);
  }
  if (rounds.length === 0) return { status: 'skipped', note: stopped ?? 'no challenge was played' };
  judgeUnstatedCut(rounds, raise);
  const lost = rounds.reduce((total, round) => total + round.lostMicro, 0n);
  const won = (who: Round['winner']): number => rounds.filter((round) => round.winner === who).length;
  return {
    status: 'ran',
    note: `${rounds.length} challenge(s) of ${formatDecimal(CHALLENGE_MICRO)} accepted: the challenger won ${won('challenger')}, the challenged ${won('challenged')}; the pair lost ${formatDecimal(lost)}, the stated cuts ${rounds.map((round) => (round.cutMicro === null ? '?' : formatDecimal(round.cutMicro))).join(', ')}${stopped === null ? '' : `; stopped: ${stopped}`}`,
  };
}

/** One challenge from the audit account, accepted by the second; a string says why none was played. */
async function playRound(
  context: ProbeContext,
  second: NonNullable<ProbeContext['second']>,
  raise: Raise,
): Promise<Round | string> {
  const { session } = context;
  const challengerBefore = await balanceOf(context, context.apiKey);
  const challengedBefore = await balanceOf(context, second.apiKey);
  if (challengerBefore === null || challengedBefore === null) return 'a balance could not be read';
  if (challengerBefore < CHALLENGE_MICRO || challengedBefore < CHALLENGE_MICRO)
    return `the balances (${formatDecimal(challengerBefore)}, ${formatDecimal(challengedBefore)}) cannot both stake ${formatDecimal(CHALLENGE_MICRO)}`;
  const created = await session.call(
    'casino.challenge',
    { challengedId: second.agentId, game: 'coin_flip', amountMicro: CHALLENGE_MICRO },
    context.apiKey,
  );
  if (created.kind !== 'ok') return `the challenge was not created: ${answerText(created)}`;
  const accepted = await session.call(
    'casino.challenge-accept',
    { challengeId: created.value.challengeId },
    second.apiKey,
  );
  if (accepted.kind !== 'ok') return `challenge ${created.value.challengeId} was not accepted: ${answerText(accepted)}`;
  const challengerAfter = await balanceOf(context, context.apiKey);
  const challengedAfter = await balanceOf(context, second.apiKey);
  if (challengerAfter === null || challengedAfter === null) return 'a balance could not be read after the accept';
  const { winnerId, houseCutMicro } = accepted.value;
  // No winner stated: a draw (both stakes returned); a winner who is neither: unknown.
  const winner: Round['winner'] =
    winnerId === context.agentId
      ? 'challenger'
      : winnerId === second.agentId
        ? 'challenged'
        : winnerId === null
          ? 'draw'
          : 'unknown';
  const lostMicro = challengerBefore + challengedBefore - (challengerAfter + challengedAfter);
  const reproduce = [created, accepted].flatMap((outcome) =>
    'request' in outcome ? [context.curlOf(outcome.request)] : [],
  );
  const evidence = `challenge ${created.value.challengeId} of ${formatDecimal(CHALLENGE_MICRO)} on coin_flip, winner ${winnerId ?? '(not stated)'}: challenger ${formatDecimal(challengerBefore)} → ${formatDecimal(challengerAfter)}, challenged ${formatDecimal(challengedBefore)} → ${formatDecimal(challengedAfter)}; stated house cut ${houseCutMicro === null ? '(none)' : formatDecimal(houseCutMicro)}, payout ${accepted.value.payoutMicro === null ? '(none)' : formatDecimal(accepted.value.payoutMicro)}`;
  const reproduceField = reproduce.length === 0 ? {} : { reproduce: reproduce.join(' && ') };
  raiseSettlement(raise, { lostMicro, houseCutMicro, winner, evidence, reproduceField });
  return {
    challengeId: created.value.challengeId,
    winner,
    lostMicro,
    cutMicro: houseCutMicro,
    evidence,
    ...reproduceField,
  };
}

/** How far a loss lies outside [0, the pot] (beyond the rounding): 0 inside, positive above, negative below. */
function outOfPot(lostMicro: Micro): Micro {
  if (lostMicro < -DISPLAY_ROUNDING_MICRO) return lostMicro;
  if (lostMicro > POT_MICRO + DISPLAY_ROUNDING_MICRO) return lostMicro - POT_MICRO;
  return 0n;
}

/**
 * The rounds whose accept stated no cut: the cut is then what the pair lost, measured, not the
 * documents' 2% recited. A cut is a rule: the same loss whoever won. A loss that differs with the
 * winner (the real casino's losing challenger charged twice) is money no cut explains (major); one
 * loss throughout, above the documents' 2%, is the target's own cut (minor rule).
 */
function judgeUnstatedCut(rounds: readonly Round[], raise: Raise): void {
  const unstated = rounds.filter(
    (round) => round.cutMicro === null && (round.winner === 'challenger' || round.winner === 'challenged'),
  );
  if (unstated.length === 0) return;
  const byWinner = (who: Round['winner']): Round | undefined => unstated.find((round) => round.winner === who);
  const [challenger, challenged] = [byWinner('challenger'), byWinner('challenged')];
  if (
    challenger !== undefined &&
    challenged !== undefined &&
    abs(challenger.lostMicro - challenged.lostMicro) > 2n * DISPLAY_ROUNDING_MICRO
  ) {
    const rows = [challenger, challenged];
    raise({
      id: 'money:challenge:settlement',
      severity: 'major',
      kind: 'money',
      title: `a challenge of ${formatDecimal(CHALLENGE_MICRO)} each cost the two agents ${formatDecimal(challenger.lostMicro)} when the challenger won and ${formatDecimal(challenged.lostMicro)} when the challenged won: no house cut is the same loss whoever wins; the answer states no cut`,
      endpoint: 'casino.challenge-accept',
      field: 'house_cut',
      expected:
        "the same loss (the house's cut) whoever wins (NOTES.md: both stakes held, the winner gets both minus the cut)",
      seen: rows.map((round) => `${round.winner} won: ${formatDecimal(round.lostMicro)}`),
      evidence: rows.map((round) => round.evidence).join('; '),
      ...(challenged.reproduce === undefined ? {} : { reproduce: challenged.reproduce }),
    });
    return;
  }
  const highest = unstated.reduce((top, round) => (round.lostMicro > top.lostMicro ? round : top));
  if (highest.lostMicro <= DOCUMENTS_CUT_MICRO + DISPLAY_ROUNDING_MICRO) return;
  raise({
    id: 'rule:challenge:house-cut',
    severity: 'minor',
    kind: 'rule',
    title: `the house's cut of a challenge pot of ${formatDecimal(POT_MICRO)}, stated by no answer, measured at ${formatDecimal(highest.lostMicro)} (the pair's loss, the same whoever won): above the documents' 2% (${formatDecimal(DOCUMENTS_CUT_MICRO)})`,
    endpoint: 'casino.challenge-accept',
    field: 'house_cut',
    expected: formatDecimal(DOCUMENTS_CUT_MICRO),
    seen: formatDecimal(highest.lostMicro),
    evidence: `${unstated.length} round(s), won by ${[...new Set(unstated.map((round) => `the ${round.winner}`))].join(' and ')}; ${highest.evidence}`,
    ...(highest.reproduce === undefined ? {} : { reproduce: highest.reproduce }),
  });
}

const PROBES = [
  ['tournament-pool', tournamentPool],
  ['challenge-settlement', challengeSettlement],
] as const;

/** The pot probes' names, in the order they run. */
export const POT_PROBES: readonly string[] = PROBES.map(([name]) => name);

/** The pot probes in order, each with the ids of the findings it raised (a JUnit test case each). */
export async function runPotProbes(context: ProbeContext): Promise<ProbeResult[]> {
  const results: ProbeResult[] = [];
  for (const [name, run] of PROBES) results.push(await runProbe(name, run, context));
  return results;
}

/** A round's settlement against the stated cut (or the pot, where none is stated), and the cut against the documents' 2%. */
function raiseSettlement(
  raise: Raise,
  round: {
    readonly lostMicro: Micro;
    readonly houseCutMicro: Micro | null;
    readonly winner: Round['winner'];
    readonly evidence: string;
    readonly reproduceField: { reproduce?: string };
  },
): void {
  const { lostMicro, houseCutMicro, winner, evidence, reproduceField } = round;
  // No cut stated: judged over the rounds (judgeUnstatedCut); here only what no cut explains.
  const off = houseCutMicro === null ? outOfPot(lostMicro) : lostMicro - houseCutMicro;
  if (houseCutMicro !== null ? abs(off) > DISPLAY_ROUNDING_MICRO : off !== 0n)
    raise({
      id: 'money:challenge:settlement',
      severity: 'critical',
      kind: 'money',
      title:
        houseCutMicro !== null
          ? `a challenge of ${formatDecimal(CHALLENGE_MICRO)} each cost the two agents ${formatDecimal(lostMicro)} together where the target states a house cut of ${formatDecimal(houseCutMicro)}: ${formatDecimal(abs(off))} ${off > 0n ? 'went nowhere the target names' : 'came from nowhere'} (won by the ${winner})`
          : `a challenge of ${formatDecimal(CHALLENGE_MICRO)} each cost the two agents ${formatDecimal(lostMicro)} together, ${off > 0n ? 'more than the whole pot' : 'a gain from nowhere'} (${formatDecimal(POT_MICRO)}); the answer states no cut`,
      endpoint: 'casino.challenge-accept',
      field: 'house_cut',
      expected:
        houseCutMicro !== null
          ? `the pair's balances down by ${formatDecimal(houseCutMicro)} (the stated cut; NOTES.md: both stakes held, the winner gets both minus the cut)`
          : `the pair's balances down by a cut between 0 and the pot ${formatDecimal(POT_MICRO)}`,
      seen: formatDecimal(lostMicro),
      evidence,
      ...reproduceField,
    });
  if (houseCutMicro !== null && houseCutMicro > DOCUMENTS_CUT_MICRO + 1n)
    raise({
      id: 'rule:challenge:house-cut',
      severity: 'minor',
      kind: 'rule',
      title: `the house's cut of a challenge pot of ${formatDecimal(POT_MICRO)} is ${formatDecimal(houseCutMicro)}, above the documents' 2% (${formatDecimal(DOCUMENTS_CUT_MICRO)})`,
      endpoint: 'casino.challenge-accept',
      field: 'house_cut',
      expected: formatDecimal(DOCUMENTS_CUT_MICRO),
      seen: formatDecimal(houseCutMicro),
      evidence,
    });
}
