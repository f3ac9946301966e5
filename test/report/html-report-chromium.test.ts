// report.html in a real browser: a realistic report (3 games × 50 checkpoints from simulated bets,
// 3 bankroll archetypes over a virtual week) opened by Debian's headless Chromium from file://.
// The charts are the report kit's inline SVG (no script on the page): the DOM Chromium parsed
// (--dump-dom) must hold every chart's <svg> with its band and lines, and no script but the JSON
// data block; the screenshot (--screenshot) must be a PNG that decodes (signature, IHDR, inflated
// IDAT of the right length, filters undone) to the window size and shows the charts' colours.
// Skipped without Chromium, never on CI (test/report/chromium-presence.ts). Each run gets its own --user-data-dir and process group; the group is
// killed on timeout and after the run, and the test asserts no process of it is left alive.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { Rng } from '../../src/core/rng.ts';
import type { BankrollSeries, CasinoReportInput, GameEdgeSeries } from '../../src/report/html/casino-report-data.ts';
import { renderCasinoReport } from '../../src/report/html/html-report.ts';
import {
  CHROMIUM_SKIPPED,
  CHROMIUM_TIMEOUT_MS,
  chromiumArgs as chromiumArgsFor,
  decodePng,
  requireChromium,
  runChromium,
  waitForNoProcessWith,
} from './chromium.ts';
import type { EdgePoint } from '../../src/audit/edge/edge-simulation.ts';

const SKIP = CHROMIUM_SKIPPED;
const WINDOW = { width: 1280, height: 2400 } as const;
const Z_99 = 2.576;

// ---- a realistic input: simulated bets, running edge with its 99 % normal interval ----

interface GameModel {
  readonly game: string;
  readonly variant: string;
  readonly winPerMillion: number; // chance of a win, in millionths
  readonly payout: number; // total returned per unit staked on a win
  readonly advertisedEdge: number | null;
  readonly verdict: string;
}

const GAMES: readonly GameModel[] = [
  {
    game: 'dice',
    variant: 'over 50',
    winPerMillion: 495_000,
    payout: 2,
    advertisedEdge: 0.01,
    verdict: 'matches advertised',
  },
  {
    game: 'roulette',
    variant: 'european, straight up',
    winPerMillion: 27_027,
    payout: 36,
    advertisedEdge: 0.025,
    verdict: 'advertised edge not given by the payouts',
  },
  {
    game: 'coin-flip',
    variant: 'default',
    winPerMillion: 500_000,
    payout: 1.96,
    advertisedEdge: null,
    verdict: 'no advertised edge',
  },
];

function simulateGame(model: GameModel, rng: Rng): GameEdgeSeries {
  const theoreticalEdge = 1 - (model.winPerMillion / 1_000_000) * model.payout;
  const points: EdgePoint[] = [];
  let bets = 0;
  let returned = 0;
  let returnedSquares = 0;
  for (let i = 0; i < 50; i += 1) {
    const target = Math.round(20 * 1.2 ** i); // 20 … ≈ 150,000 bets, geometric
    for (; bets < target; bets += 1) {
      const back = rng.int(1_000_000) < model.winPerMillion ? model.payout : 0;
      returned += back;
      returnedSquares += back * back;
    }
    const mean = returned / bets;
    const half = Z_99 * Math.sqrt(Math.max(returnedSquares / bets - mean * mean, 0) / bets);
    points.push({ bets, edge: 1 - mean, low: 1 - mean - half, high: 1 - mean + half });
  }
  return {
    game: model.game,
    variant: model.variant,
    advertisedEdge: model.advertisedEdge,
    theoreticalEdge,
    verdict: model.verdict,
    points,
  };
}

function simulateBankroll(archetype: string, agents: number, driftPerHour: number, rng: Rng): BankrollSeries {
  const points = [];
  let balance = 100;
  for (let halfHour = 0; halfHour <= 7 * 48; halfHour += 1) {
    points.push({ atMs: Date.UTC(2026, 0, 1) + halfHour * 1_800_000, balance });
    balance = Math.max(0, balance + driftPerHour / 2 + (rng.int(2001) - 1000) / 400);
  }
  return { archetype, agents, points };
}

function realisticInput(): CasinoReportInput {
  const rng = new Rng('html-report-chromium');
  return {
    title: 'Casino report — quickstart',
    subtitle: 'seed 42 · afp run scenarios/casino.yaml --seed 42',
    games: GAMES.map((model) => simulateGame(model, rng.fork(model.game))),
    bankrolls: [
      simulateBankroll('martingale', 40, -0.45, rng.fork('martingale')),
      simulateBankroll('flat-bettor', 120, -0.1, rng.fork('flat-bettor')),
      simulateBankroll('kelly', 25, -0.02, rng.fork('kelly')),
    ],
  };
}

// ---- the test ----

const chromiumArgs = (directory: string): string[] => chromiumArgsFor(directory, WINDOW);

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

function writeReport(html: string): { directory: string; report: string } {
  const directory = mkdtempSync(join(tmpdir(), 'afp-report-html-'));
  directories.push(directory);
  const report = join(directory, 'report.html');
  writeFileSync(report, html);
  return { directory, report };
}

describe('report.html in headless Chromium', () => {
  test.skipIf(SKIP)(
    'every chart draws, and the screenshot shows them',
    { timeout: 3 * CHROMIUM_TIMEOUT_MS },
    async () => {
      const chromium = requireChromium();
      const { directory, report } = writeReport(renderCasinoReport(realisticInput()));
      const started = performance.now();
      const dom = await runChromium(chromium, [...chromiumArgs(directory), '--dump-dom', `file://${report}`]);
      const shot = join(directory, 'shot.png');
      await runChromium(chromium, [...chromiumArgs(directory), `--screenshot=${shot}`, `file://${report}`]);
      console.log(
        `html-report-chromium: ${dom.commandLine}\n  two runs took ${Math.round(performance.now() - started)} ms; report ${statSync(report).size} bytes`,
      );

      // The summary table opens the page, one row per variant, each linked to its drawn chart.
      const summary = /<table id="summary-table">[\s\S]*?<\/table>/.exec(dom.stdout)?.[0] ?? '';
      expect(dom.stdout.indexOf('<section id="summary">')).toBeLessThan(dom.stdout.indexOf('<section id="games">'));
      expect([...summary.matchAll(/<a href="#(game-\d+)">chart<\/a>/g)].map((match) => match[1])).toEqual([
        'game-0',
        'game-1',
        'game-2',
      ]);
      expect(dom.stdout.match(/<script/g)?.length, 'only the JSON data block').toBe(1);
      const charts = [...dom.stdout.matchAll(/<svg class="chart" id="([^"]+)"[\s\S]*?<\/svg>/g)];
      expect(charts.map((match) => match[1])).toEqual([
        'chart-edge-0',
        'chart-edge-1',
        'chart-edge-2',
        'chart-bankroll',
      ]);
      // dice and roulette: empirical, theoretical and advertised; coin-flip has no advertised edge; 3 archetypes.
      expect(charts.map((match) => (match[0].match(/<polyline class="series"/g) ?? []).length)).toEqual([3, 3, 2, 3]);
      expect(charts.map((match) => (match[0].match(/<polygon class="band"/g) ?? []).length)).toEqual([1, 1, 1, 0]);

      const png = readFileSync(shot);
      expect(png.length, 'screenshot size').toBeGreaterThan(20_000);
      const decoded = decodePng(png);
      expect({ width: decoded.width, height: decoded.height }).toEqual(WINDOW);
      expect(decoded.colouredPixels, 'coloured pixels (chart lines) in the screenshot').toBeGreaterThan(5_000);

      expect(await waitForNoProcessWith(directory), 'chromium processes left running').toEqual([]);
    },
  );
});
