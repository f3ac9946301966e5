/**
 * What a sweep reports: every seed's row, the failures with the command that reproduces each, and
 * the distribution of each summary figure across the seeds that completed. Rendered as
 * `sweep.json` (every row; what `afp sweep merge` reads back), `seeds.csv`, `distributions.csv`,
 * `coverage.csv` (per coverage probe: seeds that hit it, hits) and `sweep.junit.xml` (a test case per seed). Why rows and not only aggregates: shards made on
 * other machines merge exactly, and any row can be checked with `afp run --seed`.
 * Invariants: pure and byte-stable — rows in the sweep's seed order, no wall times, no host
 * names; money exact (bigint micro-USDC, written with 6 decimals in every money column); a
 * percentile is the nearest-rank value of the sorted figures (an observed value, never an
 * interpolation); the mean of money is rounded down to the micro-USDC.
 */
import { stringify } from 'csv-stringify/sync';
import { assert } from '../core/assert.ts';
import { renderJunit, type JunitOutcome } from '../report/kit/junit.ts';
import { jsonDocument } from '../report/kit/summary.ts';
import { PROBES, type ProbeCount } from '../sim.ts';
import { FIGURES, type SeedFigures } from './seed-figures.ts';
import type { SeedResult } from './seed-run.ts';

/** 2: the money columns follow the money table (one per holder row, total held) since afp-sweep/1's four. */
export const SWEEP_FORMAT = 'afp-sweep/2';

export interface SweepReport {
  readonly scenario: string;
  readonly file: string;
  readonly defects: readonly string[];
  /** `i/n` when this report holds one machine's share, else null (a whole or merged sweep). */
  readonly shard: string | null;
  /** How many seeds the whole sweep has (all shards): a merge says which are missing. */
  readonly seedsTotal: number;
  /** The --seeds text the whole sweep was given (null: a file written before it was kept), so a merge joins one sweep's shards only. */
  readonly seedsGiven: string | null;
  /** Each seed its own swarm draw (--swarm); null: a file written before it was kept. */
  readonly swarm: boolean | null;
  /** In the whole sweep's seed order; `index` is the seed's position in that order. */
  readonly results: readonly SweepRow[];
  /**
   * This run's seeds that did not run because the sweep was interrupted (Ctrl-C), in order: the
   * JUnit lists each as skipped, so a CI report shows what was not tested. Absent: none (a merge
   * says which seeds are missing by `seeds_total`).
   */
  readonly notRun?: readonly string[];
}

export interface SweepRow extends SeedResult {
  readonly index: number;
}

const figureOf = (figures: SeedFigures, name: string): bigint => figures[name] ?? 0n;

export const PERCENTILES = [10, 50, 90] as const;

export interface Distribution {
  readonly figure: string;
  readonly money: boolean;
  readonly runs: number;
  readonly min: bigint;
  readonly percentiles: readonly bigint[];
  readonly max: bigint;
  /** Sum over runs, kept exact; the mean is derived when rendered. */
  readonly sum: bigint;
}

export interface SweepTally {
  readonly seeds: number;
  readonly completed: number;
  readonly invariantFailed: number;
  readonly limitReached: number;
  readonly crashed: number;
}

export function tally(report: SweepReport): SweepTally {
  const count = (outcome: SeedResult['outcome']): number =>
    report.results.filter((result) => result.outcome === outcome).length;
  return {
    seeds: report.results.length,
    completed: count('completed'),
    invariantFailed: count('invariant-failed'),
    limitReached: count('limit-reached'),
    crashed: count('crashed'),
  };
}

/** The failing rows, in seed order: invariant failures, limits and crashes. */
/** The tally as sweep.json and `afp sweep --json` write it (snake_case keys, in this order). */
export function tallyJson(counts: SweepTally): Record<string, number> {
  return {
    seeds: counts.seeds,
    completed: counts.completed,
    invariant_failed: counts.invariantFailed,
    limit_reached: counts.limitReached,
    crashed: counts.crashed,
  };
}

export function failures(report: SweepReport): SweepRow[] {
  return report.results.filter((result) => result.outcome !== 'completed');
}

/** Nearest rank: the smallest value with at least p% of the values at or below it. */
function nearestRank(sorted: readonly bigint[], percent: number): bigint {
  const rank = Math.max(1, Math.ceil((percent / 100) * sorted.length));
  return sorted[rank - 1] as bigint;
}

/** Distributions over the completed runs (a failed run stopped early: its figures are not comparable). */
export function distributions(report: SweepReport): Distribution[] {
  const completed = report.results.filter((result) => result.outcome === 'completed' && result.figures !== null);
  if (completed.length === 0) return [];
  return FIGURES.map(({ name, money }) => {
    const values = completed
      .map((result) => figureOf(result.figures as SeedFigures, name))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return {
      figure: name,
      money,
      runs: values.length,
      min: values[0] as bigint,
      percentiles: PERCENTILES.map((percent) => nearestRank(values, percent)),
      max: values[values.length - 1] as bigint,
      sum: values.reduce((total, value) => total + value, 0n),
    };
  });
}

export interface ProbeCoverage {
  readonly probe: string;
  readonly description: string;
  /** Seeds whose run hit the probe at least once. */
  readonly seeds: number;
  readonly hits: number;
}

/** Per probe, in the table's order: how many seeds hit it and how often, over every run that counted (crashes did not). */
export function coverage(report: SweepReport): ProbeCoverage[] {
  const counted = report.results.filter((result) => result.probes !== null);
  return PROBES.map((probe, index) => {
    let seeds = 0;
    let hits = 0;
    for (const result of counted) {
      const count = (result.probes as readonly ProbeCount[])[index]?.hits ?? 0;
      if (count > 0) seeds++;
      hits += count;
    }
    return { probe: probe.name, description: probe.description, seeds, hits };
  });
}

/** The probes no seed hit: what this sweep never tested. */
export function neverHit(report: SweepReport): ProbeCoverage[] {
  return coverage(report).filter((row) => row.seeds === 0);
}

/** Micro-USDC with all 6 decimals: one format for every money column. */
export function money6(micro: bigint): string {
  const negative = micro < 0n;
  const magnitude = negative ? -micro : micro;
  return `${negative ? '-' : ''}${magnitude / 1_000_000n}.${(magnitude % 1_000_000n).toString().padStart(6, '0')}`;
}

/** A count's mean with 2 decimals, or money's mean (rounded down to the micro-USDC) with 6. */
/** The mean, rounded half away from zero: to the micro for money, to hundredths for counts (4 of 6: 0.67). */
function meanText(distribution: Distribution): string {
  const runs = BigInt(distribution.runs);
  if (distribution.money) return money6(roundedQuotient(distribution.sum, runs));
  const hundredths = roundedQuotient(distribution.sum * 100n, runs);
  const size = hundredths < 0n ? -hundredths : hundredths;
  return `${hundredths < 0n ? '-' : ''}${size / 100n}.${(size % 100n).toString().padStart(2, '0')}`;
}

/** a / b (b > 0) rounded half away from zero. */
function roundedQuotient(a: bigint, b: bigint): bigint {
  return a < 0n ? -((-a * 2n + b) / (2n * b)) : (a * 2n + b) / (2n * b);
}

const figureText = (distribution: Distribution, value: bigint): string =>
  distribution.money ? money6(value) : value.toString();

function figuresJson(figures: SeedFigures | null): Record<string, number | string> | null {
  if (figures === null) return null;
  return Object.fromEntries(
    FIGURES.map(({ name, money }) => [name, money ? money6(figureOf(figures, name)) : Number(figureOf(figures, name))]),
  );
}

export function renderSweepJson(report: SweepReport): string {
  const counts = tally(report);
  const json = {
    format: SWEEP_FORMAT,
    scenario: report.scenario,
    file: report.file,
    defects: report.defects,
    shard: report.shard,
    seeds_total: report.seedsTotal,
    seeds_given: report.seedsGiven,
    swarm: report.swarm,
    tally: tallyJson(counts),
    coverage: coverage(report).map((row) => ({ probe: row.probe, seeds: row.seeds, hits: row.hits })),
    distributions: distributions(report).map((distribution) => ({
      figure: distribution.figure,
      runs: distribution.runs,
      min: figureText(distribution, distribution.min),
      ...Object.fromEntries(
        PERCENTILES.map((percent, index) => [
          `p${percent}`,
          figureText(distribution, distribution.percentiles[index] as bigint),
        ]),
      ),
      max: figureText(distribution, distribution.max),
      mean: meanText(distribution),
    })),
    seeds: report.results.map((result) => ({
      index: result.index,
      seed: result.seed,
      outcome: result.outcome,
      failure: result.failure,
      stopped: result.stopped,
      figures: figuresJson(result.figures),
      digest: result.digest,
      reproduce: result.reproduce,
      probes:
        result.probes === null ? null : Object.fromEntries(result.probes.map((probe) => [probe.name, probe.hits])),
    })),
  };
  return jsonDocument(json);
}

export function renderSeedsCsv(report: SweepReport): string {
  const header = ['seed', 'outcome', 'invariant', 'at', ...FIGURES.map((figure) => figure.name), 'digest', 'reproduce'];
  const rows = report.results.map((result) => [
    result.seed,
    result.outcome,
    result.failure?.invariant ?? '',
    result.failure?.at ?? '',
    ...FIGURES.map(({ name, money }) =>
      result.figures === null
        ? ''
        : money
          ? money6(figureOf(result.figures, name))
          : String(figureOf(result.figures, name)),
    ),
    result.digest ?? '',
    result.reproduce,
  ]);
  return stringify([header, ...rows], { eof: true });
}

export function renderDistributionsCsv(report: SweepReport): string {
  const header = ['figure', 'runs', 'min', ...PERCENTILES.map((percent) => `p${percent}`), 'max', 'mean'];
  const rows = distributions(report).map((distribution) => [
    distribution.figure,
    String(distribution.runs),
    figureText(distribution, distribution.min),
    ...distribution.percentiles.map((value) => figureText(distribution, value)),
    figureText(distribution, distribution.max),
    meanText(distribution),
  ]);
  return stringify([header, ...rows], { eof: true });
}

function seedOutcome(result: SeedResult): JunitOutcome {
  switch (result.outcome) {
    case 'completed':
      return { kind: 'pass' };
    case 'invariant-failed': {
      const failure = result.failure;
      assert(failure !== null, 'an invariant-failed seed has its failure');
      return {
        kind: 'failure',
        message: `invariant ${failure.invariant}: ${failure.message}`,
        type: 'invariant',
        body: `${failure.message}\nat: ${failure.at}\nevent: ${failure.event}\nreproduce: ${result.reproduce}`,
      };
    }
    case 'limit-reached':
      return {
        kind: 'failure',
        message: `limit reached: ${result.stopped ?? ''}`,
        type: 'liveness',
        body: `reproduce: ${result.reproduce}`,
      };
    case 'crashed':
      return {
        kind: 'error',
        message: `crash: ${(result.stopped ?? '').split('\n')[0] ?? ''}`,
        type: 'crash',
        body: `${result.stopped ?? ''}\nreproduce: ${result.reproduce}`,
      };
  }
}

export function renderSweepJunit(report: SweepReport): string {
  const counts = tally(report);
  const notRun = report.notRun ?? [];
  return renderJunit({
    suitesName: 'afp sweep',
    suiteName: report.scenario,
    counts: {
      tests: counts.seeds + notRun.length,
      failures: counts.invariantFailed + counts.limitReached,
      errors: counts.crashed,
      skipped: notRun.length,
    },
    properties: [],
    cases: [
      ...report.results.map((result) => ({
        name: `seed ${result.seed}`,
        classname: `afp sweep.${report.scenario}`,
        outcome: seedOutcome(result),
      })),
      ...notRun.map((seed) => ({
        name: `seed ${seed}`,
        classname: `afp sweep.${report.scenario}`,
        outcome: { kind: 'skipped' as const, message: 'not run: the sweep was interrupted before this seed' },
      })),
    ],
  });
}

export function renderCoverageCsv(report: SweepReport): string {
  return stringify(
    [
      ['probe', 'seeds', 'hits', 'description'],
      ...coverage(report).map((row) => [row.probe, String(row.seeds), String(row.hits), row.description]),
    ],
    { eof: true },
  );
}

export const SWEEP_FILES = ['sweep.json', 'seeds.csv', 'distributions.csv', 'coverage.csv', 'sweep.junit.xml'] as const;

export function renderSweepFiles(report: SweepReport): { name: (typeof SWEEP_FILES)[number]; text: string }[] {
  return [
    { name: 'sweep.json', text: renderSweepJson(report) },
    { name: 'seeds.csv', text: renderSeedsCsv(report) },
    { name: 'distributions.csv', text: renderDistributionsCsv(report) },
    { name: 'coverage.csv', text: renderCoverageCsv(report) },
    { name: 'sweep.junit.xml', text: renderSweepJunit(report) },
  ];
}
