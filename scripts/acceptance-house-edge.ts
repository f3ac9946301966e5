// Acceptance of the house-edge audit at full scale (issue 3, acceptance 2): `afp audit house-edge
// --bets 1000000` runs every game and prints its verdicts, and the theoretical edges agree with the
// empirical ones within their intervals over 20 seeds — judged as the audit judges: the misses over
// all K = 20 × 55 intervals must stay within allowedMisses(K) (the binomial 99.9% quantile of 1%
// misses), never zero. Each seed is one real `afp audit house-edge` process (its exit code, its
// last lines and its time are printed), its edges.json read back; then one line per variant: its
// edges, its misses over the seeds and its verdicts against the advertised edge.
// Not part of `npm test` (about 100 s per seed on two cores). Run: `npm run acceptance:house-edge`
// [-- --seeds N] [-- --bets N] [-- --workers N]. Output files go under a temp dir, removed at the end.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { allowedMisses } from '../src/audit/edge/edge-statistics.ts';

const root = join(import.meta.dirname, '..');
const main = join(root, 'src', 'cli', 'main.ts');
const work = mkdtempSync(join(tmpdir(), 'afp-acceptance-edge-'));
const SEED_TIMEOUT_MS = 3_600_000;

interface Row {
  readonly variant: string;
  readonly advertised_edge: number | null;
  readonly theoretical_edge: number;
  readonly empirical_edge: number;
  readonly verdict: string;
  readonly model: string;
}

interface Tally {
  theoretical: number;
  advertised: number | null;
  misses: number;
  verdicts: Record<string, number>;
}

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '20' },
    bets: { type: 'string', default: '1000000' },
    workers: { type: 'string', default: '2' },
  },
});
const seeds = Number(values.seeds);
const bets = values.bets;

function runSeed(seed: number, tallies: Map<string, Tally>): { rows: number; misses: number; status: number | null } {
  const out = join(work, String(seed));
  const started = Date.now();
  const result = spawnSync(
    process.execPath,
    [
      '--max-semi-space-size=32',
      main,
      'audit',
      'house-edge',
      '--bets',
      bets,
      '--seed',
      String(seed),
      '--workers',
      values.workers,
      '--out',
      out,
    ],
    { cwd: root, encoding: 'utf8', timeout: SEED_TIMEOUT_MS },
  );
  const seconds = (Date.now() - started) / 1000;
  const tail = `${result.stdout}${result.stderr}`.trimEnd().split('\n').slice(-3).join('\n  ');
  console.log(`seed ${seed}: exit ${result.status} in ${seconds.toFixed(1)} s\n  ${tail}`);
  if (result.status !== 0 && result.status !== 3) return { rows: 0, misses: 0, status: result.status };
  const rows = (JSON.parse(readFileSync(join(out, 'edges.json'), 'utf8')) as { rows: Row[] }).rows;
  for (const row of rows) {
    const tally = tallies.get(row.variant) ?? {
      theoretical: row.theoretical_edge,
      advertised: row.advertised_edge,
      misses: 0,
      verdicts: {},
    };
    if (row.model === 'fail') tally.misses += 1;
    tally.verdicts[row.verdict] = (tally.verdicts[row.verdict] ?? 0) + 1;
    tallies.set(row.variant, tally);
  }
  return { rows: rows.length, misses: rows.filter((row) => row.model === 'fail').length, status: result.status };
}

function printVariants(tallies: ReadonlyMap<string, Tally>): void {
  const percent = (value: number | null): string => (value === null ? '-' : `${(value * 100).toFixed(3)}%`);
  console.log(
    `\n${'variant'.padEnd(22)} ${'advertised'.padStart(10)} ${'theoretical'.padStart(11)}  misses  verdicts over ${seeds} seeds`,
  );
  for (const [variant, tally] of tallies) {
    const verdicts = Object.entries(tally.verdicts)
      .map(([verdict, count]) => `${verdict} ${count}`)
      .join(', ');
    console.log(
      `${variant.padEnd(22)} ${percent(tally.advertised).padStart(10)} ${percent(tally.theoretical).padStart(11)}  ${String(tally.misses).padStart(6)}  ${verdicts}`,
    );
  }
}

function acceptance(): number {
  const started = Date.now();
  const tallies = new Map<string, Tally>();
  let intervals = 0;
  let misses = 0;
  let crashed = 0;
  for (let seed = 1; seed <= seeds; seed++) {
    const ran = runSeed(seed, tallies);
    intervals += ran.rows;
    misses += ran.misses;
    if (ran.status !== 0 && ran.status !== 3) crashed += 1;
  }
  printVariants(tallies);
  const allowed = allowedMisses(intervals);
  const ok = crashed === 0 && intervals === seeds * 55 && misses <= allowed;
  console.log(
    `\n${ok ? 'ok' : 'FAILED'}: ${misses} of ${intervals} 99% intervals exclude the theoretical edge (at most ${allowed} by chance); ${crashed} runs crashed; ${((Date.now() - started) / 1000).toFixed(0)} s in all`,
  );
  return ok ? 0 : 1;
}

try {
  process.exitCode = acceptance();
} finally {
  rmSync(work, { recursive: true, force: true });
}
