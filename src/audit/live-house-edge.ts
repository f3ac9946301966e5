/**
 * The live house-edge audit (`afp audit house-edge --target URL`): small bets on a live casino
 * through the client, each proof verified client-side once its seed is revealed, the empirical
 * edge per variant with its 99% interval (the same rows as the simulator's), and Wald's SPRT per
 * variant against the advertised edge.
 *
 * Plan: bet i (0 ≤ i < N) plays LIVE_BETS[i mod V] — the core games' default variants — at the
 * game's minimum bet, with client seed `afp-<sha256(seed)[0..12]>-<i>` (the auditor's randomness
 * comes from the printed seed). Bets go out in batches of BATCH_BETS (POST /bets/batch), at most
 * `concurrency` batches in flight, in phases of ROTATE_EVERY_BETS: after each phase the seed is
 * rotated, the revealed seeds are read (GET /fairness/seeds) and the phase's bets are verified
 * and counted in plan order — so tallies, SPRT and findings do not depend on arrival order.
 * Tallies count the return actually paid (payout / amount, exact); a bet whose payout differs from
 * amount × recomputed multiplier is a mismatch whatever N is (a payout cut shows at the first win).
 * Limits: N ≤ LIVE_BETS_MAX; every wait is bounded by the deadline (--max-seconds), after which
 * no batch is sent, the bets placed are still rotated and verified (within GRACE_SECONDS), and the
 * result says it stopped early; at most MAX_LISTED mismatches are listed (all are counted).
 */
import { createHash } from 'node:crypto';
import { assert } from '../core/assert.ts';
import type { AfpClient } from '../client/client.ts';
import type { JsonObject } from '../core/errors.ts';
import { toNumber } from '../core/money.ts';
import { ratio, ratioToNumber } from '../core/ratio.ts';
import type { GameId, GameModule, GameVariant } from '../services/casino/games/game.ts';
import { gameById } from '../services/casino/games/index.ts';
import { ReturnTally, edgeInterval, edgeTheory } from './edge-statistics.ts';
import { buildEdgeRow, edgeCheckpoints, type EdgePoint, type EdgeRow, type EdgeSimulation } from './edge-simulation.ts';
import { Deadline, callPatiently, runBounded, type LiveClock } from './live-target.ts';
import { MAX_LISTED, NonceLedger, type NonceFindings } from './nonce-findings.ts';
import { Sprt, sprtExpectedBets, type SprtDirection } from './sprt.ts';
import { verifyWireBet, type BetMismatch } from './verify-wire-bet.ts';
import { parseBetAnswer, type WireBet } from './wire-bet.ts';

export interface LiveBet {
  readonly game: GameId;
  /** The body parameters of the game's default variant. */
  readonly params: JsonObject;
}

/** The core games (casino.md: 0.5% advertised), each at its default variant. */
export const LIVE_BETS: readonly LiveBet[] = [
  { game: 'coin_flip', params: { side: 'heads' } },
  { game: 'dice', params: { direction: 'over', threshold: 50 } },
  { game: 'multiplier', params: { target_multiplier: 2 } },
  { game: 'roulette', params: { bet_type: 'red' } },
  { game: 'custom', params: { win_probability: 50 } },
  { game: 'crash', params: { cash_out_at: 2 } },
];

export const ROTATE_EVERY_BETS = 1000;
export const BATCH_BETS = 20;
export const LIVE_BETS_MAX = 100_000;
export const GRACE_SECONDS = 60;

/** The game and default variant a live bet plays; asserts the body parameters name that variant. */
export function liveVariant(bet: LiveBet): { game: GameModule; variant: GameVariant<unknown> } {
  const game = gameById(bet.game);
  const parsed = game.parse(bet.params);
  const variant = game.variants()[0];
  assert(parsed.ok && variant !== undefined && game.variantName(parsed.value) === variant.name, `${bet.game}: the live parameters are its default variant`);
  return { game, variant };
}

/** Enough to lose every bet and keep a Kelly bankroll: N minimum bets plus 1 USDC. */
export function liveFundMicro(bets: number, games: readonly LiveBet[]): bigint {
  const largestMinimum = games.reduce((max, bet) => (gameById(bet.game).minBetMicro > max ? gameById(bet.game).minBetMicro : max), 0n);
  return BigInt(bets) * largestMinimum + 1_000_000n;
}

export function liveClientSeed(seed: string, index: number): string {
  return `afp-${createHash('sha256').update(seed).digest('hex').slice(0, 12)}-${index}`;
}

export interface SprtRow {
  readonly game: GameId;
  readonly variant: string;
  readonly advertisedEdge: number;
  /** The exact edge of afp's rules, reported beside the test (the test is against the advertised one). */
  readonly theoreticalEdge: number;
  readonly decision: 'accept-h0' | 'accept-h1' | 'undecided';
  readonly direction: SprtDirection | null;
  /** Bets observed until the decision (or all of them). */
  readonly bets: number;
  /** Wald's expected bets to a decision under H0. */
  readonly expectedBets: number;
}

export interface LiveEdgeResult {
  readonly simulation: EdgeSimulation;
  readonly sprt: readonly SprtRow[];
  readonly planned: number;
  readonly placed: number;
  /** Bets whose proof was recomputed (passing or not). */
  readonly checked: number;
  readonly refused: number;
  readonly firstRefusal: string | null;
  readonly mismatchCount: number;
  readonly mismatches: readonly BetMismatch[];
  readonly nonces: NonceFindings;
  readonly rotations: number;
  readonly stoppedBy: 'deadline' | 'refused' | null;
}

export interface LiveEdgeOptions {
  readonly client: AfpClient;
  readonly bets: readonly LiveBet[];
  readonly betCount: number;
  readonly seed: string;
  readonly concurrency: number;
  readonly clock: LiveClock;
  readonly deadline: Deadline;
}

/** One variant's running tally, checkpoints and SPRT. */
class VariantTrack {
  readonly game: GameModule;
  readonly variant: GameVariant<unknown>;
  readonly tally = new ReturnTally();
  readonly points: EdgePoint[] = [];
  readonly sprt: Sprt;
  readonly advertisedEdge: number;
  readonly theoreticalEdge: number;
  private readonly sigma: number;
  private readonly checkpoints: number[];
  private sprtBets = 0;

  constructor(bet: LiveBet, planned: number) {
    const { game, variant } = liveVariant(bet);
    this.game = game;
    this.variant = variant;
    const theory = edgeTheory(game.distribution(variant.params));
    this.sigma = theory.sigma;
    this.theoreticalEdge = ratioToNumber(theory.edge);
    this.advertisedEdge = ratioToNumber(game.advertisedEdge(variant.params) ?? theory.edge);
    this.sprt = new Sprt({ advertisedEdge: this.advertisedEdge, sigma: this.sigma, sides: 'two', maxBets: Math.max(1, planned) });
    this.checkpoints = edgeCheckpoints(planned);
  }

  observe(paid: WireBet): void {
    const perUnit = ratio(paid.payoutMicro, paid.amountMicro);
    this.tally.add(perUnit);
    if (this.tally.bets === this.checkpoints[this.points.length] && this.tally.bets >= 2) this.points.push(this.point());
    if (this.sprt.decision() === 'continue') {
      this.sprt.observe(ratioToNumber(perUnit));
      this.sprtBets = this.sprt.bets;
    }
  }

  private point(): EdgePoint {
    const interval = edgeInterval(this.tally.data(), this.sigma);
    return { bets: interval.bets, edge: interval.edge, low: interval.low, high: interval.high };
  }

  row(): EdgeRow | null {
    if (this.tally.bets < 2) return null;
    const points = this.points.at(-1)?.bets === this.tally.bets ? this.points : [...this.points, this.point()];
    return buildEdgeRow(this.game, this.variant, this.tally.data(), points);
  }

  sprtRow(): SprtRow {
    const decision = this.sprt.decision();
    return {
      game: this.game.id,
      variant: this.variant.name,
      advertisedEdge: this.advertisedEdge,
      theoreticalEdge: this.theoreticalEdge,
      decision: decision === 'accept-h0' || decision === 'accept-h1' ? decision : 'undecided',
      direction: this.sprt.direction(),
      bets: this.sprtBets,
      expectedBets: sprtExpectedBets(this.sigma),
    };
  }
}

/** The mutable state of one live run. */
interface LiveRun {
  readonly options: LiveEdgeOptions;
  readonly tracks: readonly VariantTrack[];
  readonly nonces: NonceLedger;
  readonly mismatches: BetMismatch[];
  mismatchCount: number;
  placed: number;
  checked: number;
  refused: number;
  firstRefusal: string | null;
  rotations: number;
  stoppedBy: 'deadline' | 'refused' | null;
}

export async function auditHouseEdgeLive(options: LiveEdgeOptions): Promise<LiveEdgeResult> {
  assert(Number.isSafeInteger(options.betCount) && options.betCount >= 1 && options.betCount <= LIVE_BETS_MAX, 'live bets in [1, LIVE_BETS_MAX]');
  assert(options.bets.length >= 1, 'at least one live variant');
  const planned = Math.ceil(options.betCount / options.bets.length);
  const run: LiveRun = {
    options,
    tracks: options.bets.map((bet) => new VariantTrack(bet, planned)),
    nonces: new NonceLedger(),
    mismatches: [],
    mismatchCount: 0,
    placed: 0,
    checked: 0,
    refused: 0,
    firstRefusal: null,
    rotations: 0,
    stoppedBy: null,
  };
  for (let first = 0; first < options.betCount && run.stoppedBy === null; first += ROTATE_EVERY_BETS) {
    const slots = await placePhase(run, first, Math.min(ROTATE_EVERY_BETS, options.betCount - first));
    const seeds = await rotateAndReveal(run);
    verifyPhase(run, first, slots, seeds);
  }
  const rows = run.tracks.map((track) => track.row()).filter((row): row is EdgeRow => row !== null);
  return {
    simulation: { seed: options.seed, betsPerGame: planned, rows },
    sprt: run.tracks.filter((track) => track.tally.bets > 0).map((track) => track.sprtRow()),
    planned: options.betCount,
    placed: run.placed,
    checked: run.checked,
    refused: run.refused,
    firstRefusal: run.firstRefusal,
    mismatchCount: run.mismatchCount,
    mismatches: run.mismatches,
    nonces: run.nonces.findings(),
    rotations: run.rotations,
    stoppedBy: run.stoppedBy,
  };
}

/** A placed bet's wire data, or the problem of its answer; undefined = not placed. */
type Slot = WireBet | { readonly problem: string } | undefined;

async function placePhase(run: LiveRun, firstBet: number, count: number): Promise<Slot[]> {
  const { client, bets, seed, clock, deadline, concurrency } = run.options;
  const slots: Slot[] = new Array<Slot>(count);
  const batches = Math.ceil(count / BATCH_BETS);
  await runBounded(batches, concurrency, async (batch) => {
    const offset = batch * BATCH_BETS;
    const size = Math.min(BATCH_BETS, count - offset);
    const plan = Array.from({ length: size }, (_, index) => bets[(firstBet + offset + index) % bets.length] as LiveBet);
    const elements = plan.map((bet, index) => ({ game: bet.game, amount: toNumber(gameById(bet.game).minBetMicro), client_seed: liveClientSeed(seed, firstBet + offset + index), ...bet.params }));
    const answer = await callPatiently(() => client.casino.batch(elements), clock, deadline);
    if (answer === 'deadline') {
      run.stoppedBy ??= 'deadline';
      return;
    }
    const results = answer.ok ? (answer.body['results'] as unknown) : undefined;
    if (!Array.isArray(results) || results.length !== size) {
      refuse(run, size, `POST /bets/batch answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
      return;
    }
    results.forEach((result: unknown, index) => {
      const fields = typeof result === 'object' && result !== null ? (result as Record<string, unknown>) : {};
      if (fields['ok'] !== true) return refuse(run, 1, `a batch bet was refused: ${JSON.stringify(result).slice(0, 300)}`);
      const parsed = parseBetAnswer(result, (plan[index] as LiveBet).params);
      slots[offset + index] = parsed.ok ? parsed.value : { problem: parsed.problem };
      run.placed += 1;
    });
  }, () => run.stoppedBy !== null || deadline.passed());
  if (deadline.passed()) run.stoppedBy ??= 'deadline';
  return slots;
}

function refuse(run: LiveRun, count: number, message: string): void {
  run.refused += count;
  run.firstRefusal ??= message;
  run.stoppedBy ??= 'refused';
}

/** Rotates (revealing the phase's seed) and reads every revealed seed: hash → hex. */
async function rotateAndReveal(run: LiveRun): Promise<Map<string, string>> {
  const { client, clock } = run.options;
  const grace = new Deadline(clock, GRACE_SECONDS);
  const rotated = await callPatiently(() => client.casino.rotate(), clock, grace);
  if (rotated !== 'deadline' && rotated.ok) run.rotations += 1;
  const listed = await callPatiently(() => client.casino.seeds(), clock, grace);
  const seeds = new Map<string, string>();
  const list = listed === 'deadline' || !listed.ok ? [] : listed.body['seeds'];
  for (const seed of Array.isArray(list) ? (list as unknown[]) : []) {
    const { server_seed_hash: hash, server_seed: hex } = (typeof seed === 'object' && seed !== null ? seed : {}) as Record<string, unknown>;
    if (typeof hash === 'string' && typeof hex === 'string') seeds.set(hash, hex);
  }
  return seeds;
}

function verifyPhase(run: LiveRun, firstBet: number, slots: readonly Slot[], seeds: ReadonlyMap<string, string>): void {
  const { bets } = run.options;
  slots.forEach((slot, offset) => {
    if (slot === undefined) return;
    const index = firstBet + offset;
    const bet = bets[index % bets.length] as LiveBet;
    if ('problem' in slot) return recordMismatch(run, { betId: `(bet ${index})`, game: bet.game, variant: null, seedHash: '', nonce: -1, problems: [slot.problem] });
    const problems = slot.game === bet.game ? [...verifyWireBet(slot, seeds.get(slot.seedHash) ?? null).problems] : [`game: sent ${bet.game}, answered ${slot.game}`];
    run.nonces.add({ betId: slot.betId, seedHash: slot.seedHash, nonce: slot.nonce, variant: slot.variant });
    (run.tracks[index % bets.length] as VariantTrack).observe(slot);
    run.checked += 1;
    if (problems.length > 0) recordMismatch(run, { betId: slot.betId, game: slot.game, variant: slot.variant, seedHash: slot.seedHash, nonce: slot.nonce, problems });
  });
}

function recordMismatch(run: LiveRun, mismatch: BetMismatch): void {
  run.mismatchCount += 1;
  if (run.mismatches.length < MAX_LISTED) run.mismatches.push(mismatch);
}
