// scenarios/house-edge.yaml: a small override of it (an eighth of each population, 2 virtual
// hours) runs clean with every invariant and bets on every core game, refusing dice inside its
// closure; the same override stops on each casino defect naming the right invariant; and the
// full file, as `afp run` runs it, exits 3 on a defect (those runs stop within seconds; the
// faithful full run takes about a minute and is not part of the suite).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parse, stringify } from 'yaml';
import type { DefectName } from '../../src/services/shared/context.ts';
import { CORE_GAME_IDS } from '../../src/services/casino/games/game.ts';
import { scenarioFromTable } from '../../src/agent/load-scenario.ts';
import { runSimulationWith } from '../../src/sim/runner.ts';
import { keptEvents } from '../fixtures/kept-events.ts';
import { AGENTS } from '../../agents/index.ts';

const root = join(import.meta.dirname, '..', '..');
const FILE = join(root, 'scenarios', 'house-edge.yaml');
const START_MS = Date.parse('2026-01-01T00:00:00Z');
const MINUTE_MS = 60_000;

/** house-edge.yaml with an eighth of every population (at least two agents: a lone challenger has nobody to challenge) over 2 hours. */
function smallHouseEdge(): string {
  const file = parse(readFileSync(FILE, 'utf8')) as {
    duration: string;
    populations: { count: number }[];
    casino: { closures: { from: string; for: string }[] };
  };
  file.duration = '2h';
  for (const population of file.populations) population.count = Math.max(2, Math.round(population.count / 8));
  file.casino.closures = [{ ...file.casino.closures[0], from: '30m', for: '30m' } as { from: string; for: string }];
  return stringify(file);
}

describe('scenarios/house-edge.yaml, small override', () => {
  test('runs clean, bets on every core game, refuses dice while it is closed', async () => {
    const result = await runSimulationWith(scenarioFromTable(smallHouseEdge(), { agents: AGENTS }), {
      agents: AGENTS,
      seed: 42,
    });
    expect(result.record.outcome).toBe('completed');
    for (const invariant of result.record.invariants) expect(invariant.violations, invariant.name).toBe(0);
    const casino = result.record.casino;
    expect(casino?.bets).toBeGreaterThan(10_000);
    for (const game of CORE_GAME_IDS)
      expect(
        casino?.variants.filter((row) => row.game === game).reduce((sum, row) => sum + row.bets, 0),
        game,
      ).toBeGreaterThan(500);
    const dice = keptEvents(result.record).filter((event) => event.type === 'casino.bet' && event.game === 'dice');
    expect(
      dice.some((event) => event.atMs >= START_MS + 30 * MINUTE_MS && event.atMs < START_MS + 60 * MINUTE_MS),
    ).toBe(false);
    expect(dice.some((event) => event.atMs >= START_MS + 60 * MINUTE_MS)).toBe(true);
    expect(casino?.bankrolls.map((series) => series.archetype)).toEqual([
      'batch-bettor',
      'fixed-bettor',
      'martingale',
      'kelly-bettor',
      'tournament-player',
      'fairness-checker',
    ]);
  });

  const expected: readonly [DefectName, string][] = [
    ['casino-payout-short', 'casino-bets-verify'],
    ['casino-biased-draw', 'casino-bets-verify'],
    ['casino-replayable-nonce', 'casino-bets-verify'],
    ['casino-keno-8', 'casino-bets-verify'],
    ['casino-skip-balance-check', 'no-negative-balance'],
  ];
  for (const [defect, invariant] of expected) {
    test(`--defect ${defect} stops it with ${invariant}`, async () => {
      const result = await runSimulationWith(scenarioFromTable(smallHouseEdge(), { agents: AGENTS }), {
        agents: AGENTS,
        seed: 42,
        defects: [defect],
      });
      expect(result.record.outcome).toBe('invariant-failed');
      expect(result.failure?.invariant).toBe(invariant);
    });
  }
});

describe('afp run scenarios/house-edge.yaml --defect', () => {
  const work = mkdtempSync(join(tmpdir(), 'afp-house-edge-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  for (const [defect, invariant] of [
    ['casino-keno-8', 'casino-bets-verify'],
    ['casino-skip-balance-check', 'no-negative-balance'],
  ] as const) {
    test(`${defect}: exit 3 naming ${invariant}, the seed and the reproduce command`, () => {
      const run = spawnSync(
        process.execPath,
        ['src/cli/main.ts', 'run', 'scenarios/house-edge.yaml', '--defect', defect, '--out', join(work, defect)],
        { cwd: root, encoding: 'utf8', timeout: 60_000 },
      );
      expect(run.status).toBe(3);
      expect(run.stdout).toContain(`invariant failed: ${invariant}\n`);
      expect(run.stdout).toContain(`reproduce: npx afp run scenarios/house-edge.yaml --seed 42 --defect ${defect}\n`);
    });
  }
});
