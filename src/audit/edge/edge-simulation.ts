/**
 * The in-process house-edge simulator behind `afp audit house-edge`: N bets per game, split
 * evenly across the game's variants, each drawn through the real provably fair path.
 *
 * Bet i of a variant (i = 0, 1, …) uses server seed index s = ⌊i / 1000⌋ and nonce i mod 1000
 * (the casino retires a seed after 1,000 nonces); the server seed is the hex SHA-256 of
 * "<seed>/<variant name>/<s>", the client seed is "afp-audit/<variant name>", and the multiplier
 * is `game.play(params, new DrawStream(server seed, client seed, nonce))`. So bet i depends only
 * on (seed, variant, i), never on what ran before it or where.
 *
 * Work is cut into jobs (contiguous bet ranges of one variant) whose results are exact tallies
 * (edge-statistics.ts); tallies merge exactly, so rows are identical whether jobs run here or in
 * any number of worker threads (edge-simulation-workers.ts). Cumulative points for the report are
 * taken at 100, 200, 500, 1k, 2k, 5k, … and at the variant's last bet.
 * Defects for audits of the audit: `transform` rewrites each result (in-thread), or the games
 * come from a module of modified games (workers); the faithful path is the default.
 * Non-goals: live bets (the --target path), rendering (edge-table.ts).
 */
import { createHash } from 'node:crypto';
import { assert } from '../../core/assert.ts';
import { mul, ratio, ratioToNumber, type Ratio } from '../../core/ratio.ts';
import { DrawStream } from '../../services/casino/fair/draw-stream.ts';
import type { GameId, GameModule, GameResult, GameVariant } from '../../services/casino/games/game.ts';
import {
  ReturnTally,
  edgeInterval,
  edgeTheory,
  judgeEdge,
  type EdgeInterval,
  type EdgeJudgement,
  type EdgeTheory,
  type TallyData,
} from './edge-statistics.ts';

export const NONCES_PER_SEED = 1000;
/** Bets per job: small enough to balance two workers, large enough that messages cost nothing. */
export const JOB_BETS = 50_000;
export const MAX_BETS_PER_GAME = 1_000_000_000;

export type ResultTransform = (game: GameModule, variant: GameVariant<unknown>, result: GameResult) => GameResult;

export interface EdgePoint {
  readonly bets: number;
  readonly edge: number;
  readonly low: number;
  readonly high: number;
}

export interface EdgeRow {
  readonly game: GameId;
  readonly variant: string;
  readonly advertisedText: string;
  readonly advertised: Ratio | null;
  readonly theory: EdgeTheory;
  readonly interval: EdgeInterval;
  readonly judgement: EdgeJudgement;
  /** N · P(top multiplier class) and the bets actually paid at least the top multiplier. */
  readonly jackpotExpectedHits: number;
  readonly jackpotHits: number;
  readonly points: readonly EdgePoint[];
}

export interface EdgeSimulation {
  readonly seed: string;
  readonly betsPerGame: number;
  readonly rows: readonly EdgeRow[];
}

export interface EdgeSimulationOptions {
  readonly games: readonly GameModule[];
  readonly betsPerGame: number;
  readonly seed: string | number;
  readonly transform?: ResultTransform;
  /** Bets per job (default JOB_BETS); rows do not depend on it. */
  readonly jobBets?: number;
  /** Called after each job with the bets simulated so far and in all (the CLI's progress line; rows do not depend on it). */
  readonly onBets?: (done: number, total: number) => void;
}

export interface EdgeJob {
  readonly gameId: GameId;
  readonly variantIndex: number;
  readonly firstBet: number;
  readonly bets: number;
  /** Bet counts (of the variant, cumulative) in (firstBet, firstBet + bets] at which to copy the job's tally. */
  readonly snapshotsAt: readonly number[];
}

export interface EdgeJobResult {
  readonly tally: TallyData;
  readonly snapshots: readonly TallyData[];
}

/** 100, 200, 500, 1000, … below `total`, then `total` (at least two bets each). */
export function edgeCheckpoints(total: number): number[] {
  const points: number[] = [];
  for (let decade = 100; decade < total; decade *= 10) {
    for (const step of [1, 2, 5]) if (decade * step < total) points.push(decade * step);
  }
  if (total >= 2) points.push(total);
  return points;
}

export function auditServerSeedHex(seed: string, variantName: string, seedIndex: number): string {
  return createHash('sha256').update(`${seed}/${variantName}/${seedIndex}`).digest('hex');
}

export const auditClientSeed = (variantName: string): string => `afp-audit/${variantName}`;

/** Runs one job: the bets [firstBet, firstBet + bets) of one variant. */
export function runEdgeJob(game: GameModule, seed: string, job: EdgeJob, transform?: ResultTransform): EdgeJobResult {
  const variant = game.variants()[job.variantIndex];
  assert(variant !== undefined, `variant ${job.variantIndex} of ${game.id} exists`);
  const clientSeed = auditClientSeed(variant.name);
  const tally = new ReturnTally();
  const snapshots: TallyData[] = [];
  let snapshotIndex = 0;
  let serverSeedIndex = -1;
  let serverSeedHex = '';
  for (let bet = job.firstBet; bet < job.firstBet + job.bets; bet++) {
    const seedIndex = Math.floor(bet / NONCES_PER_SEED);
    if (seedIndex !== serverSeedIndex)
      [serverSeedIndex, serverSeedHex] = [seedIndex, auditServerSeedHex(seed, variant.name, seedIndex)];
    const played = game.play(variant.params, new DrawStream(serverSeedHex, clientSeed, bet % NONCES_PER_SEED));
    tally.add((transform === undefined ? played : transform(game, variant, played)).multiplier);
    if (job.snapshotsAt[snapshotIndex] === bet + 1) {
      snapshots.push(tally.data());
      snapshotIndex += 1;
    }
  }
  assert(snapshotIndex === job.snapshotsAt.length, 'every snapshot of a job lies in its range');
  return { tally: tally.data(), snapshots };
}

export interface VariantPlan {
  readonly game: GameModule;
  readonly variant: GameVariant<unknown>;
  readonly bets: number;
  readonly jobs: readonly EdgeJob[];
}

/** The smallest --bets that gives every variant of these games the two bets an interval needs. */
export function minimumBetsPerGame(games: readonly GameModule[]): number {
  return 2 * Math.max(1, ...games.map((game) => game.variants().length));
}

/** Splits each game's bets evenly across its variants (the first variants take the remainder) and cuts jobs. */
export function planEdgeSimulation(
  games: readonly GameModule[],
  betsPerGame: number,
  jobBets = JOB_BETS,
): VariantPlan[] {
  assert(
    Number.isSafeInteger(betsPerGame) && betsPerGame >= 1 && betsPerGame <= MAX_BETS_PER_GAME,
    'bets per game in [1, 1e9]',
  );
  assert(Number.isSafeInteger(jobBets) && jobBets >= 1, 'bets per job is a positive integer');
  assert(new Set(games.map((game) => game.id)).size === games.length, 'each game once');
  const plans: VariantPlan[] = [];
  for (const game of games) {
    const variants = game.variants();
    assert(
      variants.length >= 1 && betsPerGame >= 2 * variants.length,
      `${game.id}: at least 2 bets per variant (${variants.length} variants)`,
    );
    variants.forEach((variant, variantIndex) => {
      const bets = Math.floor(betsPerGame / variants.length) + (variantIndex < betsPerGame % variants.length ? 1 : 0);
      const checkpoints = edgeCheckpoints(bets);
      const jobs: EdgeJob[] = [];
      for (let firstBet = 0; firstBet < bets; firstBet += jobBets) {
        const size = Math.min(jobBets, bets - firstBet);
        const snapshotsAt = checkpoints.filter((point) => point > firstBet && point <= firstBet + size);
        jobs.push({ gameId: game.id, variantIndex, firstBet, bets: size, snapshotsAt });
      }
      plans.push({ game, variant, bets, jobs });
    });
  }
  return plans;
}

const pointOf = (interval: EdgeInterval): EdgePoint => ({
  bets: interval.bets,
  edge: interval.edge,
  low: interval.low,
  high: interval.high,
});

/** One row from a variant's tally (also for tallies of live bets) and its cumulative points. */
export function buildEdgeRow(
  game: GameModule,
  variant: GameVariant<unknown>,
  tally: TallyData,
  points: readonly EdgePoint[],
): EdgeRow {
  const theory = edgeTheory(game.distribution(variant.params));
  const interval = edgeInterval(tally, theory.sigma);
  const advertised = game.advertisedEdge(variant.params);
  const hits = new ReturnTally();
  hits.merge(tally);
  return {
    game: game.id,
    variant: variant.name,
    advertisedText: game.advertisedEdgeText,
    advertised,
    theory,
    interval,
    judgement: judgeEdge({ advertised, theory, interval }),
    jackpotExpectedHits: ratioToNumber(mul(ratio(BigInt(interval.bets)), theory.topProbability)),
    jackpotHits: hits.countAtLeast(theory.topMultiplier),
    points,
  };
}

/** Assembles rows from job results (in plan order): exact merges, so the result is independent of who ran the jobs. */
export function assembleEdgeRows(
  plans: readonly VariantPlan[],
  results: ReadonlyMap<EdgeJob, EdgeJobResult>,
): EdgeRow[] {
  return plans.map((plan) => {
    const sigma = edgeTheory(plan.game.distribution(plan.variant.params)).sigma;
    const cumulative = new ReturnTally();
    const points: EdgePoint[] = [];
    for (const job of plan.jobs) {
      const result = results.get(job);
      assert(result !== undefined, 'every job has a result');
      for (const snapshot of result.snapshots) {
        const prefix = new ReturnTally();
        prefix.merge(cumulative.data());
        prefix.merge(snapshot);
        points.push(pointOf(edgeInterval(prefix.data(), sigma)));
      }
      cumulative.merge(result.tally);
    }
    assert(cumulative.bets === plan.bets, 'a variant ran exactly its bets');
    return buildEdgeRow(plan.game, plan.variant, cumulative.data(), points);
  });
}

/** Runs every job here, in order. */
export function simulateHouseEdge(options: EdgeSimulationOptions): EdgeSimulation {
  const seed = String(options.seed);
  const plans = planEdgeSimulation(options.games, options.betsPerGame, options.jobBets);
  const results = new Map<EdgeJob, EdgeJobResult>();
  const total = plans.reduce((sum, plan) => sum + plan.jobs.reduce((bets, job) => bets + job.bets, 0), 0);
  let done = 0;
  for (const plan of plans) {
    for (const job of plan.jobs) {
      results.set(job, runEdgeJob(plan.game, seed, job, options.transform));
      done += job.bets;
      options.onBets?.(done, total);
    }
  }
  return { seed, betsPerGame: options.betsPerGame, rows: assembleEdgeRows(plans, results) };
}
