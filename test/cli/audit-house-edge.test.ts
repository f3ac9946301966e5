// `afp audit house-edge` in-process: the seed first, the table, exit 0 over several seeds on the
// faithful games; edges.csv / edges.json / report.html byte-stable for a seed whatever the worker
// count; --json and --csv print the documents alone; each deliberate edge defect fails the model
// check (exit 3, the rows, the seed and the reproduce command); invalid flags exit 2.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { main as auditEnding } from '../../src/cli/audit.ts';
import type { AuditIo } from '../../src/cli/audit-io.ts';
import { coded } from './ending-code.ts';

const main = coded(auditEnding);

const DIR = mkdtempSync(join(tmpdir(), 'afp-audit-edge-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

interface Ran {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

async function audit(argv: readonly string[]): Promise<Ran> {
  let out = '';
  let err = '';
  const io: AuditIo = { out: (text) => void (out += text), err: (text) => void (err += text) };
  const code = await main(['house-edge', ...argv], io);
  return { code, out, err };
}

const CORE = 'coin_flip,dice,multiplier,roulette,custom,crash';
const read = (dir: string, name: string): string => readFileSync(join(DIR, dir, name), 'utf8');

describe('afp audit house-edge (in-process)', () => {
  test('prints the seed first, then the table, and exits 0 on the faithful games over several seeds', async () => {
    for (const seed of ['1', '2', '3', '4', '5']) {
      const ran = await audit([
        '--games',
        CORE,
        '--bets',
        '3000',
        '--seed',
        seed,
        '--workers',
        '1',
        '--out',
        join(DIR, `seeds-${seed}`),
      ]);
      expect(ran.code, ran.out + ran.err).toBe(0);
      const lines = ran.out.split('\n');
      expect(lines[0]).toBe(`seed: ${seed}`);
      expect(lines[1]).toBe(`house edge: seed ${seed}, 3,000 bets per game, 99% intervals`);
      expect(ran.out).toMatch(/^coin_flip:heads +0\.500% +2\.000% /m);
      expect(ran.out).toMatch(
        /model check: \d+ of 17 99% intervals exclude the theoretical edge \(at most 2 by chance\) — ok/,
      );
      expect(ran.out).toContain('findings about the documents, not failures');
    }
  });

  test('every game runs (55 variants) in worker threads; the report charts every game', async () => {
    const ran = await audit(['--bets', '2000', '--seed', '9', '--workers', '2', '--out', join(DIR, 'all')]);
    expect(ran.code, ran.out + ran.err).toBe(0);
    expect(read('all', 'edges.csv').trim().split('\n')).toHaveLength(56);
    const html = read('all', 'report.html');
    // The summary opens the report and lists all 55 variants, saying how many have no chart.
    expect(html.indexOf('<section id="summary">')).toBeLessThan(html.indexOf('<section id="games">'));
    expect(html).toContain('55 variants; 40 charted below. 15 have none: a report draws at most 40 charts');
    const summary = /<table id="summary-table">[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
    expect(summary.match(/<tr><td>/g)).toHaveLength(55);
    expect(summary.match(/<a href="#game-\d+">chart<\/a>/g)).toHaveLength(40);
    for (const game of ['baccarat:player', 'mines:1:1', 'wheel', 'video_poker:optimal', 'keno:1'])
      expect(summary).toContain(`<td>${game}</td>`);
    // An audit has no agents, so no bankroll section (never an empty one).
    expect(html).not.toContain('id="bankrolls"');
    expect(html).not.toContain('No bankroll series');
  });

  test('edges.csv, edges.json and report.html are byte-stable for a seed, whatever the worker count', async () => {
    const argv = ['--games', 'coin_flip,dice,keno', '--bets', '6000', '--seed', 'stable'];
    const one = await audit([...argv, '--workers', '1', '--out', join(DIR, 'one')]);
    const two = await audit([...argv, '--workers', '2', '--out', join(DIR, 'two')]);
    expect([one.code, two.code]).toEqual([0, 0]);
    for (const name of ['edges.csv', 'edges.json', 'report.html'])
      expect(read('two', name), name).toBe(read('one', name));
    expect(two.out.replace(/files: .*/, '')).toBe(one.out.replace(/files: .*/, ''));
    const json = JSON.parse(read('one', 'edges.json')) as {
      seed: string;
      rows: Array<{ variant: string; points: unknown[] }>;
    };
    expect(json.seed).toBe('stable');
    expect(json.rows.map((row) => row.variant)).toContain('keno:10');
    expect(json.rows[0]?.points.length).toBeGreaterThan(3);
  });

  test('--json prints one JSON object (verdict, figures, the rows of edges.json) and --csv the CSV alone on stdout, the seed and verdicts on stderr', async () => {
    const json = await audit([
      '--games',
      'coin_flip',
      '--bets',
      '500',
      '--seed',
      '4',
      '--json',
      '--workers',
      '1',
      '--out',
      join(DIR, 'json'),
    ]);
    expect(json.code).toBe(0);
    expect(json.out.endsWith('}\n') && json.out.split('\n').length).toBe(2);
    const object = JSON.parse(json.out) as Record<string, unknown>;
    expect(object).toMatchObject({
      command: 'afp audit house-edge',
      seed: '4',
      verdict: 'ok',
      exit_code: 0,
      bets_per_game: 500,
      rows: 1,
      model_misses: 0,
    });
    expect(object['edges']).toEqual(JSON.parse(read('json', 'edges.json')));
    expect(json.err.split('\n')[0]).toBe('seed: 4');
    const csv = await audit([
      '--games',
      'coin_flip',
      '--bets',
      '500',
      '--seed',
      '4',
      '--csv',
      '--workers',
      '1',
      '--out',
      join(DIR, 'csv'),
    ]);
    expect(csv.out).toBe(read('csv', 'edges.csv'));
    expect(csv.out.split('\n')[0]).toMatch(/^game,variant,advertised_text,/);
  });

  test('--defect keno-8 fails the model check on keno: exit 3 with the rows, the seed and the reproduce command', async () => {
    const ran = await audit([
      '--games',
      'keno',
      '--bets',
      '20000',
      '--seed',
      '11',
      '--defect',
      'keno-8',
      '--workers',
      '1',
      '--out',
      join(DIR, 'keno'),
    ]);
    expect(ran.code, ran.out).toBe(3);
    expect(ran.out).toMatch(
      /FAILED: model check: \d+ of 10 99% intervals exclude the theoretical edge \(at most 2 by chance\)/,
    );
    expect(ran.out).toMatch(/^ {2}keno:1: theoretical 12\.500%, empirical/m);
    expect(ran.out).toContain(
      'seed: 11\nreproduce: npx afp audit house-edge --games keno --bets 20000 --seed 11 --defect keno-8\n',
    );
    const faithful = await audit([
      '--games',
      'keno',
      '--bets',
      '20000',
      '--seed',
      '11',
      '--workers',
      '1',
      '--out',
      join(DIR, 'keno-faithful'),
    ]);
    expect(faithful.code).toBe(0);
  });

  test('--defect biased-draw and casino-payout-short are caught too', async () => {
    const biased = await audit([
      '--games',
      'coin_flip,dice',
      '--bets',
      '2000',
      '--seed',
      '5',
      '--defect',
      'casino-biased-draw',
      '--workers',
      '1',
      '--out',
      join(DIR, 'biased'),
    ]);
    expect(biased.code).toBe(3);
    expect(biased.out).toMatch(/FAILED: model check: 4 of 4/);
    const short = await audit([
      '--games',
      'coin_flip,custom',
      '--bets',
      '300000',
      '--seed',
      '5',
      '--defect',
      'payout-short',
      '--out',
      join(DIR, 'short'),
    ]);
    expect(short.code, short.out).toBe(3);
    expect(short.out).toMatch(/^ {2}coin_flip:heads: theoretical 2\.000%/m);
  });

  test('invalid flags exit 2 with every error; non-edge defects name the audit that catches them', async () => {
    const nonce = await audit(['--defect', 'casino-replayable-nonce']);
    expect(nonce.code).toBe(2);
    expect(nonce.err).toContain(
      '--defect casino-replayable-nonce changes no house edge; it is caught by afp audit fairness --target URL --key KEY',
    );
    const balance = await audit(['--defect', 'skip-balance-check']);
    expect(balance.err).toContain('caught by afp check');
    // Empty names are said once, an unknown name once however often it is given.
    const empty = await audit(['--games', ',,nope,nope']);
    expect(empty.code).toBe(2);
    expect(empty.err.match(/--games has an empty name/g)).toHaveLength(1);
    expect(empty.err.match(/unknown game 'nope'/g)).toHaveLength(1);
    // The deployed parlay is named, with why it is not sampled and which audit verifies it.
    const parlay = await audit(['--games', 'parlay']);
    expect(parlay.code).toBe(2);
    expect(parlay.err).toContain("--games: 'parlay' is not sampled by the house-edge audit");
    expect(parlay.err).toContain('afp audit fairness verifies the parlays an account placed');
    const many = await audit([
      '--games',
      'keno,nope',
      '--bets',
      '19',
      '--defect',
      'mint-on-claim',
      '--workers',
      '0',
      '--json',
      '--csv',
      'extra',
    ]);
    expect(many.code).toBe(2);
    for (const text of [
      "unknown game 'nope'",
      '--bets must be a whole number from 20 to',
      "unknown --defect 'mint-on-claim'",
      '--workers must be',
      '--json and --csv exclude each other',
      "unexpected argument 'extra'",
    ]) {
      expect(many.err).toContain(text);
    }
    // With --json even invalid input prints its one object: the verdict and every error.
    expect(JSON.parse(many.out)).toMatchObject({
      command: 'afp audit house-edge',
      seed: null,
      verdict: 'invalid-input',
      exit_code: 2,
    });
    expect((JSON.parse(many.out) as { errors: string[] }).errors).toContain('--json and --csv exclude each other');
    // Every one of the 17 games is live-audited; in-process flags are refused with --target, live ones without it.
    const live = await audit([
      '--target',
      'http://127.0.0.1:9',
      '--defect',
      'keno-8',
      '--workers',
      '2',
      '--games',
      'keno,nope',
      '--fail-on',
      'loud',
    ]);
    expect(live.err).toContain('--defect is for the in-process simulation only');
    expect(live.err).toContain('--workers is for in-process runs only');
    expect(live.err).toContain("unknown game 'nope'");
    expect(live.err).not.toContain("unknown game 'keno'");
    expect(live.err).toMatch(/--fail-on .*loud/);
    expect((await audit(['--usdc', '5'])).err).toContain('--usdc is for --target runs only');
    expect((await audit(['--key', 'k'])).err).toContain('--key goes with --target');
  });
});
