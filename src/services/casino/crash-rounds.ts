/**
 * Crash as a round that runs on the clock (casino.md short style: POST /games/crash/bet and
 * /games/crash/cashout).
 *
 * A round opens with its first bet: bets are taken for BETTING_MS, then the multiplier flies,
 * growing 1% per 100 ms step by an integer rule (m₀ = 1.00x; m_{k+1} = floor(m_k × 101/100) in
 * micro-units, shown in cents), until the first step whose multiplier reaches the round's crash
 * point; that instant is the crash. A cash-out during the flight pays the multiplier of the
 * current step (always below the crash point); an auto cash-out A pays A when the crash point is
 * at least A (the style A crash rule); every other bet of the round is lost at the crash.
 *
 * Provably fair: every round draws from its own server seed (SeedBook's `house:crash` seeds, one
 * nonce each, client seed "crash"), committed when the round opens and revealed at the crash,
 * the crash point by the same law as the crash game (games/crash-point.ts). Rounds never overlap:
 * a bet placed during a flight joins the next round, which opens for bets at the crash. Nothing is
 * announced that would leak the crash instant.
 *
 * Invariants: a bet's stake is held by the house from the bet; it is settled exactly once (cash
 * out, auto cash-out or the crash); the round's bets are bounded (ROUND_BETS_MAX).
 */
import { assert } from '../../core/assert.ts';
import { fail, succeed, type Outcome } from '../../core/errors.ts';
import { ratio } from '../../core/ratio.ts';
import type { BetRecord } from './bet-record.ts';
import type { CasinoState } from './casino-state.ts';
import { DrawStream } from './fair/draw-stream.ts';
import { crash } from './games/crash.ts';
import { CRASH_MAX_CENTS, crashPointCents } from './games/crash-point.ts';
import { checkBet, settle } from './place-bet.ts';

export const BETTING_MS = 10_000;
export const STEP_MS = 100;
export const ROUND_BETS_MAX = 10_000;
export const CRASH_SEED_OWNER = 'house:crash';
export const CRASH_CLIENT_SEED = 'crash';

/** Multiplier (cents) at each flight step, up to the crash-point cap. */
const STEP_CENTS: readonly number[] = (() => {
  const steps: number[] = [];
  let micro = 1_000_000n;
  for (;;) {
    const cents = Number(micro / 10_000n);
    steps.push(Math.min(cents, CRASH_MAX_CENTS));
    if (cents >= CRASH_MAX_CENTS) return steps;
    micro = (micro * 101n) / 100n;
  }
})();

/** The first step whose multiplier reaches `crashCents` (the crash step). */
export function crashStep(crashCents: number): number {
  let low = 0;
  let high = STEP_CENTS.length - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((STEP_CENTS[middle] as number) >= crashCents) high = middle;
    else low = middle + 1;
  }
  return low;
}

export function stepCents(step: number): number {
  return STEP_CENTS[Math.min(step, STEP_CENTS.length - 1)] as number;
}

export interface CrashBet {
  readonly betId: string;
  readonly agentId: string;
  readonly amountMicro: bigint;
  readonly autoCashOutCents: number | null;
  settled: BetRecord | null;
}

export interface CrashRound {
  readonly id: string;
  readonly index: number;
  /** Null until the round opens for bets (a queued round). */
  seed: { hex: string; hash: string } | null;
  nonce: number;
  crashCents: number;
  openedAtMs: number;
  bettingClosesAtMs: number;
  crashAtMs: number;
  readonly bets: CrashBet[];
  status: 'queued' | 'betting' | 'flying' | 'crashed';
}

export class CrashRounds {
  private current: CrashRound | null = null;
  private queued: CrashRound | null = null;
  private readonly rounds = new Map<string, CrashRound>();
  private readonly byBet = new Map<string, CrashRound>();
  private count = 0;

  /** Joins the round open for bets (opening one if none), or the next one during a flight. */
  bet(
    state: CasinoState,
    command: { agentId: string; amountMicro: bigint; autoCashOutCents: number | null },
    nowMs: number,
  ): Outcome<{ round: CrashRound; bet: CrashBet }> {
    const params = { cashOutCents: command.autoCashOutCents ?? 200 };
    const checked = checkBet(state, {
      agentId: command.agentId,
      game: crash,
      params,
      paramsJson: {},
      amountMicro: command.amountMicro,
      clientSeed: null,
      source: 'short',
    });
    if (!checked.ok) return checked;
    const round = this.roundForBets(state, nowMs);
    if (round.bets.length >= ROUND_BETS_MAX)
      return fail('CONFLICT', 'this crash round is full; bet again in the next one');
    const bet: CrashBet = {
      betId: state.ctx.ids.next('bet_', 16),
      agentId: command.agentId,
      amountMicro: command.amountMicro,
      autoCashOutCents: command.autoCashOutCents,
      settled: null,
    };
    state.ctx.ledger.transfer({
      from: `agent:${command.agentId}`,
      to: heldAccount(round),
      amountMicro: command.amountMicro,
      reason: 'casino.crash.stake',
      reference: bet.betId,
    });
    round.bets.push(bet);
    this.byBet.set(bet.betId, round);
    return succeed({ round, bet });
  }

  private roundForBets(state: CasinoState, nowMs: number): CrashRound {
    const current = this.current;
    if (current === null) {
      const round = this.newRound(state);
      this.open(state, round, nowMs);
      this.current = round;
      return round;
    }
    if (current.status === 'betting' && nowMs < current.bettingClosesAtMs) return current;
    this.queued ??= this.newRound(state);
    return this.queued;
  }

  private newRound(state: CasinoState): CrashRound {
    this.count += 1;
    const round: CrashRound = {
      id: `rnd_${String(this.count).padStart(8, '0')}`,
      index: this.count,
      seed: null,
      nonce: 0,
      crashCents: 0,
      openedAtMs: 0,
      bettingClosesAtMs: 0,
      crashAtMs: 0,
      bets: [],
      status: 'queued',
    };
    this.rounds.set(round.id, round);
    assert(state.config.rotateAfterNonces >= 1, 'seeds serve at least one nonce');
    return round;
  }

  private open(state: CasinoState, round: CrashRound, nowMs: number): void {
    const { seed, nonce } = state.seeds.take(CRASH_SEED_OWNER, nowMs);
    round.seed = { hex: seed.hex, hash: seed.hash };
    round.nonce = nonce;
    round.crashCents = crashPointCents(new DrawStream(seed.hex, CRASH_CLIENT_SEED, nonce));
    round.openedAtMs = nowMs;
    round.bettingClosesAtMs = nowMs + BETTING_MS;
    round.crashAtMs = round.bettingClosesAtMs + crashStep(round.crashCents) * STEP_MS;
    round.status = 'betting';
    state.ctx.timers.schedule(round.crashAtMs, { kind: 'casino.crash-round', roundId: round.id });
  }

  /** Manual cash-out at the current step's multiplier. */
  cashOut(
    state: CasinoState,
    agentId: string,
    betId: string,
    nowMs: number,
  ): Outcome<{ round: CrashRound; bet: CrashBet; record: BetRecord }> {
    const round = this.byBet.get(betId);
    const bet = round?.bets.find((candidate) => candidate.betId === betId);
    if (round === undefined || bet === undefined) return fail('NOT_FOUND', `crash bet ${betId} not found`);
    if (bet.agentId !== agentId) return fail('FORBIDDEN', `crash bet ${betId} belongs to another agent`);
    if (bet.settled !== null) return fail('CONFLICT', `crash bet ${betId} is already settled`);
    if (round.status !== 'betting' && round.status !== 'flying')
      return fail('CONFLICT', 'the round has not opened yet');
    if (nowMs < round.bettingClosesAtMs) return fail('CONFLICT', 'the round has not taken off yet');
    const step = Math.floor((nowMs - round.bettingClosesAtMs) / STEP_MS);
    const cents = stepCents(step);
    assert(cents < round.crashCents, 'a flying round shows a multiplier below its crash point');
    const record = this.settleBet(state, round, bet, cents, nowMs);
    return succeed({ round, bet, record });
  }

  /** The crash: settles every open bet of the round, reveals its seed, opens the queued round. */
  onCrash(state: CasinoState, roundId: string, nowMs: number): void {
    const round = this.rounds.get(roundId);
    assert(round !== undefined && round.crashAtMs === nowMs, "a crash timer fires at its round's crash instant");
    for (const bet of round.bets) {
      if (bet.settled !== null) continue;
      const auto = bet.autoCashOutCents;
      this.settleBet(state, round, bet, auto !== null && auto <= round.crashCents ? auto : null, nowMs);
    }
    round.status = 'crashed';
    state.seeds.rotate(CRASH_SEED_OWNER, nowMs);
    this.current = null;
    const queued = this.queued;
    this.queued = null;
    if (queued !== null) {
      this.open(state, queued, nowMs);
      this.current = queued;
    }
  }

  /** Pays `cents` (null = lost), records the bet. */
  private settleBet(
    state: CasinoState,
    round: CrashRound,
    bet: CrashBet,
    cents: number | null,
    nowMs: number,
  ): BetRecord {
    assert(round.seed !== null, 'an open round has a seed');
    state.ctx.ledger.transfer({
      from: heldAccount(round),
      to: 'casino-house',
      amountMicro: bet.amountMicro,
      reason: 'casino.crash.stake',
      reference: bet.betId,
    });
    const multiplier = cents === null ? ratio(0) : ratio(cents, 100);
    const record = settleRecord(state, round, bet, multiplier, cents, nowMs);
    bet.settled = record;
    return record;
  }

  /** Every round retained, in creation order (the conservation audit reads their holds). */
  all(): IterableIterator<CrashRound> {
    return this.rounds.values();
  }

  round(roundId: string): CrashRound | undefined {
    return this.rounds.get(roundId);
  }

  roundOfBet(betId: string): CrashRound | undefined {
    return this.byBet.get(betId);
  }
}

/** Stakes of a round wait here until their bets settle. */
export function crashRoundAccount(roundId: string): string {
  return `crash-round:${roundId}`;
}

function heldAccount(round: CrashRound): string {
  return crashRoundAccount(round.id);
}

function settleRecord(
  state: CasinoState,
  round: CrashRound,
  bet: CrashBet,
  multiplier: ReturnType<typeof ratio>,
  cents: number | null,
  nowMs: number,
): BetRecord {
  assert(round.seed !== null, 'an open round has a seed');
  const resultHash = new DrawStream(round.seed.hex, CRASH_CLIENT_SEED, round.nonce).firstBlockHex;
  // The house already holds the stake (moved from the round's hold): settle pays the return.
  return settle(
    state,
    {
      agentId: bet.agentId,
      game: crash,
      params: { cashOutCents: cents ?? 0 },
      paramsJson: {
        round_id: round.id,
        auto_cash_out: bet.autoCashOutCents === null ? null : bet.autoCashOutCents / 100,
      },
      amountMicro: bet.amountMicro,
      clientSeed: CRASH_CLIENT_SEED,
      source: 'short',
      stakeHeld: true,
      betId: bet.betId,
      variant: 'crash:round',
    },
    {
      result: {
        multiplier,
        detail: {
          round_id: round.id,
          crash_point: round.crashCents / 100,
          cashed_out_at: cents === null ? null : cents / 100,
        },
      },
      seedHash: round.seed.hash,
      clientSeed: CRASH_CLIENT_SEED,
      nonce: round.nonce,
      resultHash,
    },
    nowMs,
  );
}
