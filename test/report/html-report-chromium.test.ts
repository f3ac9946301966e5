// report.html in a real browser: a realistic report (3 games × 50 checkpoints from simulated bets,
// 3 bankroll archetypes over a virtual week) opened by Debian's headless Chromium from file://.
// The DOM after the scripts ran (--dump-dom) must show every chart container drawn, with a
// non-trivial count of non-blank pixels and of coloured pixels inside the plot area, body
// chartsDrawn == chartsExpected and no chartError; the screenshot (--screenshot) must be a PNG
// that decodes (signature, IHDR, inflated IDAT of the right length, filters undone) to the window
// size and shows the charts' colours.
// Chromium missing fails the test (CI installs it: .ci/run), unless AFP_SKIP_CHROMIUM=1, which
// skips it and says why. Each run gets its own --user-data-dir and process group; the group is
// killed on timeout and after the run, and the test asserts no process of it is left alive.
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, describe, expect, test } from 'vitest';
import { Rng } from '../../src/core/rng.ts';
import type { BankrollSeries, CasinoReportInput, EdgePoint, GameEdgeSeries } from '../../src/report/html/casino-report-data.ts';
import { renderCasinoReport } from '../../src/report/html/html-report.ts';

const SKIP = process.env.AFP_SKIP_CHROMIUM === '1';
const CHROMIUM_TIMEOUT_MS = 60_000;
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;
const WINDOW = { width: 1280, height: 2400 } as const;
const Z_99 = 2.576;

if (SKIP) console.warn('html-report-chromium: skipped because AFP_SKIP_CHROMIUM=1 (the charts are not checked in a browser)');

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
  { game: 'dice', variant: 'over 50', winPerMillion: 495_000, payout: 2, advertisedEdge: 0.01, verdict: 'matches advertised' },
  { game: 'roulette', variant: 'european, straight up', winPerMillion: 27_027, payout: 36, advertisedEdge: 0.025, verdict: 'advertised edge not given by the payouts' },
  { game: 'coin-flip', variant: 'default', winPerMillion: 500_000, payout: 1.96, advertisedEdge: null, verdict: 'no advertised edge' },
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
  return { game: model.game, variant: model.variant, advertisedEdge: model.advertisedEdge, theoreticalEdge, verdict: model.verdict, points };
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

// ---- chromium ----

function findChromium(): string | undefined {
  for (const directory of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(directory, 'chromium');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/** Live (not zombie) processes whose command line mentions `marker`. Linux /proc. */
function liveProcessesWith(marker: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      const state = /\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1];
      if (commandLine.includes(marker) && state !== 'Z') found.push(`${pid} ${commandLine.slice(0, 160)}`);
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is already gone
  }
}

interface ChromiumRun {
  readonly stdout: string;
  readonly stderr: string;
  readonly commandLine: string;
}

/**
 * Runs chromium in its own process group (spawn with `detached`: execFile does not pass that
 * option on), collecting its output; kills the whole group on timeout and after it exits, so no
 * renderer or zygote outlives the run.
 */
async function runChromium(binary: string, args: readonly string[]): Promise<ChromiumRun> {
  const commandLine = [binary, ...args].join(' ');
  const child = spawn(binary, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const stdout: Buffer[] = [];
  let stdoutBytes = 0;
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdoutBytes += chunk.length;
    if (stdoutBytes <= MAX_OUTPUT_BYTES) stdout.push(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-8_000);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      killGroup(child.pid);
      reject(new Error(`${commandLine}\ndid not finish within ${CHROMIUM_TIMEOUT_MS} ms: its process group was killed\n${stderr}`));
    }, CHROMIUM_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${commandLine}\ncould not start: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      killGroup(child.pid);
      if (code === 0 && stdoutBytes <= MAX_OUTPUT_BYTES) resolve({ stdout: Buffer.concat(stdout).toString('utf8'), stderr, commandLine });
      else reject(new Error(`${commandLine}\nexited with ${code ?? signal} (${stdoutBytes} bytes of output)\n${stderr}`));
    });
  });
}

async function waitForNoProcessWith(marker: string): Promise<string[]> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const live = liveProcessesWith(marker);
    if (live.length === 0) return [];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return liveProcessesWith(marker);
}

// ---- reading the results ----

function attributes(tag: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of tag.matchAll(/([\w-]+)="([^"]*)"/g)) found[match[1] ?? ''] = match[2] ?? '';
  return found;
}

interface DecodedPng {
  readonly width: number;
  readonly height: number;
  /** Pixels with a clear colour (max − min channel > 48): chart lines and bands, not grey text. */
  readonly colouredPixels: number;
}

function paeth(left: number, up: number, upLeft: number): number {
  const estimate = left + up - upLeft;
  const [a, b, c] = [Math.abs(estimate - left), Math.abs(estimate - up), Math.abs(estimate - upLeft)];
  return a <= b && a <= c ? left : b <= c ? up : upLeft;
}

function unfilterRow(filter: number, row: Buffer, previous: Buffer | undefined, channels: number): void {
  for (let x = 0; x < row.length; x += 1) {
    const left = x >= channels ? (row[x - channels] ?? 0) : 0;
    const up = previous?.[x] ?? 0;
    const upLeft = x >= channels ? (previous?.[x - channels] ?? 0) : 0;
    const predictor = filter === 1 ? left : filter === 2 ? up : filter === 3 ? (left + up) >> 1 : filter === 4 ? paeth(left, up, upLeft) : 0;
    row[x] = ((row[x] ?? 0) + predictor) & 0xff;
  }
}

/** A minimal PNG decoder: 8-bit RGB or RGBA, not interlaced (what Chromium writes). */
function decodePng(png: Buffer): DecodedPng {
  expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'PNG signature').toBe(true);
  expect(png.toString('latin1', 12, 16), 'first chunk is IHDR').toBe('IHDR');
  const [width, height, depth, colourType, interlace] = [png.readUInt32BE(16), png.readUInt32BE(20), png[24], png[25], png[28]];
  expect({ depth, interlace, rgb: colourType === 2 || colourType === 6 }).toEqual({ depth: 8, interlace: 0, rgb: true });
  const channels = colourType === 6 ? 4 : 3;
  const idat: Buffer[] = [];
  for (let offset = 8; offset < png.length; ) {
    const length = png.readUInt32BE(offset);
    if (png.toString('latin1', offset + 4, offset + 8) === 'IDAT') idat.push(png.subarray(offset + 8, offset + 8 + length));
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  expect(raw.length, 'inflated image data size').toBe(height * (stride + 1));
  const filters = new Set<number>();
  let previous: Buffer | undefined;
  let colouredPixels = 0;
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)] ?? 255;
    filters.add(filter);
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    unfilterRow(filter, row, previous, channels);
    for (let x = 0; x < stride; x += channels) {
      const r = row[x] ?? 0;
      const g = row[x + 1] ?? 0;
      const b = row[x + 2] ?? 0;
      if (Math.max(r, g, b) - Math.min(r, g, b) > 48) colouredPixels += 1;
    }
    previous = row;
  }
  expect([...filters].every((filter) => filter <= 4), `PNG row filters ${[...filters].join(',')}`).toBe(true);
  return { width, height, colouredPixels };
}

// ---- the test ----

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

function requireChromium(): string {
  const chromium = findChromium();
  expect(chromium, "chromium is not on PATH: install Debian's chromium (apt-get install chromium; .ci/run does it when missing) or set AFP_SKIP_CHROMIUM=1 to skip this test").toBeDefined();
  return chromium ?? '';
}

function chromiumArgs(directory: string): string[] {
  return [
    '--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--no-first-run', '--disable-extensions',
    '--force-device-scale-factor=1', `--user-data-dir=${join(directory, 'profile')}`, '--virtual-time-budget=5000',
    `--window-size=${WINDOW.width},${WINDOW.height}`,
  ];
}

function writeReport(html: string): { directory: string; report: string } {
  const directory = mkdtempSync(join(tmpdir(), 'afp-report-html-'));
  directories.push(directory);
  const report = join(directory, 'report.html');
  writeFileSync(report, html);
  return { directory, report };
}

function bodyAttributes(dom: string): Record<string, string> {
  return attributes(/<body[^>]*>/.exec(dom)?.[0] ?? '');
}

describe('report.html in headless Chromium', () => {
  test.skipIf(SKIP)('every chart draws, and the screenshot shows them', { timeout: 3 * CHROMIUM_TIMEOUT_MS }, async () => {
    const chromium = requireChromium();
    const { directory, report } = writeReport(renderCasinoReport(realisticInput()));
    const started = performance.now();
    const dom = await runChromium(chromium, [...chromiumArgs(directory), '--dump-dom', `file://${report}`]);
    const shot = join(directory, 'shot.png');
    await runChromium(chromium, [...chromiumArgs(directory), `--screenshot=${shot}`, `file://${report}`]);
    console.log(`html-report-chromium: ${dom.commandLine}\n  two runs took ${Math.round(performance.now() - started)} ms; report ${statSync(report).size} bytes`);

    const body = bodyAttributes(dom.stdout);
    expect(body['data-chart-error'], 'chart error reported by the page').toBeUndefined();
    expect(body['data-charts-expected']).toBe('4');
    expect(body['data-charts-drawn']).toBe(body['data-charts-expected']);
    const charts = [...dom.stdout.matchAll(/<div class="chart"[^>]*>/g)].map((match) => attributes(match[0]));
    expect(charts.map((chart) => chart.id)).toEqual(['chart-edge-0', 'chart-edge-1', 'chart-edge-2', 'chart-bankroll']);
    for (const chart of charts) {
      expect(chart['data-drawn'], `${chart.id} drawn`).toBe('1');
      expect(Number(chart['data-pixels']), `${chart.id} non-blank pixels`).toBeGreaterThan(5_000);
      expect(Number(chart['data-plot-pixels']), `${chart.id} coloured pixels in the plot area`).toBeGreaterThan(1_000);
    }

    const png = readFileSync(shot);
    expect(png.length, 'screenshot size').toBeGreaterThan(20_000);
    const decoded = decodePng(png);
    expect({ width: decoded.width, height: decoded.height }).toEqual(WINDOW);
    expect(decoded.colouredPixels, 'coloured pixels (chart lines) in the screenshot').toBeGreaterThan(5_000);

    expect(await waitForNoProcessWith(directory), 'chromium processes left running').toEqual([]);
  });

  // The check above is only as good as the page's reporting: a library that fails to load must
  // show up as chartError with nothing drawn, or a broken report could pass.
  test.skipIf(SKIP)('a library that fails is reported on <body>, with no chart drawn', { timeout: 2 * CHROMIUM_TIMEOUT_MS }, async () => {
    const chromium = requireChromium();
    const broken = { name: 'Broken', version: '0.0.0', code: 'throw new Error("library exploded");' };
    const { directory, report } = writeReport(renderCasinoReport(realisticInput(), broken));
    const dom = await runChromium(chromium, [...chromiumArgs(directory), '--dump-dom', `file://${report}`]);
    const body = bodyAttributes(dom.stdout);
    expect(body['data-chart-error']).toMatch(/library exploded.*library: Chart\.js did not load/);
    expect(body['data-charts-expected']).toBe('4');
    expect(body['data-charts-drawn']).toBe('0');
    expect(dom.stdout.includes('data-drawn='), 'a chart container marked drawn').toBe(false);
    expect(await waitForNoProcessWith(directory), 'chromium processes left running').toEqual([]);
  });
});
