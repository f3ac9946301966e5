// `afp load merge FILE… --out DIR [--scenario FILE]` in process: two shards' load.json files merge
// into one load.json and the load reports; the scenario's thresholds are judged on the merged run
// (a loose one exits 0, one that must fail exits 5); bad files and flags exit 2 with every problem.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { main as loadEnding } from '../../src/cli/load.ts';
import { systemLoadClock } from '../../src/load/options.ts';
import { loadRunFileText } from '../../src/load/load-run-file.ts';
import { parseLoadFile } from '../../src/load/merge-files.ts';
import { shardArrivals } from '../../src/load/shard.ts';
import { recorded, runFile, samples } from '../load/load-run-fixture.ts';
import { coded } from './ending-code.ts';

const main = coded(loadEnding);

const root = join(import.meta.dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'afp-load-merge-cli-'));

function shards(): string[] {
  return [1, 2].map((index) => {
    const path = join(scratch, `shard-${index}.json`);
    writeFileSync(
      path,
      loadRunFileText(runFile({ index, count: 2 }, recorded(shardArrivals(samples, { index, count: 2 })))),
    );
    return path;
  });
}

/** scenarios/load-smoke.yaml named as the shards' run (load-run-fixture.ts) with `thresholds` of our own. */
function scenario(name: string, thresholds: string): string {
  const text = readFileSync(join(root, 'scenarios', 'load-smoke.yaml'), 'utf8')
    .replace(/^name: load-smoke$/m, 'name: escrow-rush')
    .replace(/ {2}thresholds:\n(?: {4}.*\n)+/, thresholds === '' ? '' : `  thresholds:\n${thresholds}`);
  const path = join(scratch, `${name}.yaml`);
  writeFileSync(path, text);
  return path;
}

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    out: (text) => (stdout += text),
    err: (text) => (stderr += text),
    errIsTty: false,
    onInterrupt: () => () => undefined,
    clock: systemLoadClock(),
  });
  return { code, stdout, stderr };
}

describe('afp load merge', () => {
  test('shards merge into one load.json and the reports; a loose threshold passes (exit 0)', async () => {
    const out = join(scratch, 'merged');
    const result = await run([
      'merge',
      ...shards(),
      '--out',
      out,
      '--scenario',
      scenario('loose', "    http_req_duration: ['p(99)<1000']\n"),
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'merged: 2 file(s) of escrow-rush (seed 7) against local: 300 requests, 0 dropped iterations',
    );
    expect(result.stdout).toContain('  pass http_req_duration: p(99)<1000');
    const merged = parseLoadFile(readFileSync(join(out, 'load.json'), 'utf8'));
    expect('errors' in merged ? merged.errors : merged.snapshot.iterations).toEqual({
      started: 300,
      completed: 300,
      dropped: 0,
    });
    for (const file of ['summary.json', 'latency.csv', 'timeseries.csv', 'load.junit.xml', 'load.html'])
      expect(existsSync(join(out, file)), file).toBe(true);
  });

  test('a threshold that must fail exits 5; without --scenario none is judged', async () => {
    const strict = await run([
      'merge',
      ...shards(),
      '--out',
      join(scratch, 'strict'),
      '--scenario',
      scenario('strict', "    http_req_duration: ['p(99)<1']\n"),
    ]);
    expect(strict.code).toBe(5);
    expect(strict.stdout).toContain('  FAIL http_req_duration: p(99)<1');
    expect(strict.stdout).toContain('FAILED: 1 of 1 thresholds');
    const json = await run([
      'merge',
      ...shards(),
      '--out',
      join(scratch, 'strict-json'),
      '--scenario',
      scenario('strict', "    http_req_duration: ['p(99)<1']\n"),
      '--json',
    ]);
    expect(json.code).toBe(5);
    expect(JSON.parse(json.stdout)).toMatchObject({
      command: 'afp load merge',
      seed: '7',
      verdict: 'threshold-failed',
      exit_code: 5,
      scenario: 'escrow-rush',
      shards: 2,
      requests: 300,
      dropped_iterations: 0,
      thresholds: [{ metric: 'http_req_duration', expression: 'p(99)<1', ok: false }],
    });
    expect(json.stderr).toContain('FAILED: 1 of 1 thresholds');
    const none = await run(['merge', ...shards(), '--out', join(scratch, 'none')]);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('thresholds: none judged (give --scenario FILE');
  });

  test("another scenario's thresholds are refused (exit 2); a scenario of the same name with none says so", async () => {
    const other = await run([
      'merge',
      ...shards(),
      '--out',
      join(scratch, 'other'),
      '--scenario',
      join(root, 'scenarios', 'k6-smoke.yaml'),
    ]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain("is the scenario 'k6-smoke', but the files are a run of 'escrow-rush'");
    const bare = scenario('bare', '');
    const none = await run(['merge', ...shards(), '--out', join(scratch, 'bare'), '--scenario', bare]);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toContain(`thresholds: none: ${bare} names none`);
  });

  test('bad files and flags: exit 2, every problem at once', async () => {
    const [one] = shards();
    const result = await run(['merge', one ?? '', join(scratch, 'missing.json'), '--bogus']);
    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines[0]).toBe('afp load merge: unknown flag --bogus');
    expect(lines[1]).toBe('afp load merge: --out DIR is required (where the merged load.json and reports go)');
    expect(lines[2]).toMatch(/^afp load merge: .*missing\.json: cannot read: ENOENT/);
    expect(lines.at(-1)).toBe('usage: afp load merge FILE... --out DIR [--scenario FILE] [--json]');
  });
});
