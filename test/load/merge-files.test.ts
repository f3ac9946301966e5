// afp load merge: the shards' load.json files of one run (as afp load writes them, with `shard`)
// merge into exactly what one machine recording every request would have measured, header figures
// added up; bad files are refused with every problem of every
// file at once (shape, bounds, rows that do not add up, histograms that do not decode, shards
// given twice or missing, files of different runs).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { mergeSnapshots, overallHistogram, percentilesOf } from '../../src/load/load-recorder.ts';
import { describePlan } from '../../src/load/executors.ts';
import { loadRunFileText, type LoadRunFile } from '../../src/load/load-run-file.ts';
import { mergeLoadFiles, parseLoadFile } from '../../src/load/merge-files.ts';
import { shardArrivals, type Shard } from '../../src/load/shard.ts';
import { plan, recorded, runFile, samples } from './load-run-fixture.ts';

const scratch = mkdtempSync(join(tmpdir(), 'afp-load-merge-'));
let written = 0;

function write(text: string): string {
  written += 1;
  const path = join(scratch, `load-${written}.json`);
  writeFileSync(path, text);
  return path;
}

const shardFile = (shard: Shard, overrides: Partial<LoadRunFile> = {}): string =>
  write(loadRunFileText(runFile(shard, recorded(shardArrivals(samples, shard)), overrides)));

describe('mergeLoadFiles', () => {
  test('three shards merge into what one machine recording everything measured', async () => {
    const paths = [3, 1, 2].map((index) => shardFile({ index, count: 3 }));
    const merged = await mergeLoadFiles(paths);
    expect(merged.ok).toBe(true);
    if (!merged.ok) return;
    const whole = recorded(samples);
    const { snapshot, ...header } = merged.file;
    expect(header).toEqual({
      ...runFile(null, whole),
      snapshot: undefined,
      agents: 30,
      ended: { by: 'schedule', reason: null, interrupted: 6, failed_iterations: 3 },
      reports: {
        count: 3,
        first: [
          { agentId: 'a3', message: 'a rule' },
          { agentId: 'a1', message: 'a rule' },
          { agentId: 'a2', message: 'a rule' },
        ],
      },
    });
    expect(snapshot.endpoints.map((row) => [row.endpoint, row.requests, row.failed, row.statuses])).toEqual(
      whole.endpoints.map((row) => [row.endpoint, row.requests, row.failed, row.statuses]),
    );
    expect(snapshot.seconds.map((row) => [row.second, row.requests, row.failed])).toEqual([
      [0, 100, 4],
      [1, 100, 4],
      [2, 100, 4],
    ]);
    expect(snapshot.iterations).toEqual({ started: 300, completed: 300, dropped: 0 });
    expect(percentilesOf(overallHistogram(snapshot))).toEqual(percentilesOf(overallHistogram(whole)));
    // The merged file reads back as a load.json of its own.
    expect(parseLoadFile(loadRunFileText(merged.file))).toEqual(merged.file);
  });

  test('one unsharded file is its own merge, and reads back as written', async () => {
    const file = runFile(null, recorded(samples));
    const text = loadRunFileText(file);
    expect(parseLoadFile(text)).toEqual(file);
    expect(await mergeLoadFiles([write(text)])).toEqual({
      ok: true,
      file: { ...file, snapshot: mergeSnapshots([file.snapshot]) },
    });
  });

  test('every problem of every file at once, each with its file', async () => {
    const good = JSON.parse(
      loadRunFileText(runFile({ index: 1, count: 2 }, recorded(shardArrivals(samples, { index: 1, count: 2 })))),
    ) as Record<string, unknown> & { snapshot: Record<string, unknown> & { endpoints: Record<string, unknown>[] } };
    const notJson = write('{"format": ');
    const shape = write(
      JSON.stringify({
        ...good,
        format: 'afp-load-run/2',
        extra: 1,
        snapshot: { ...good.snapshot, iterations: { started: -1, completed: 0, dropped: 0 } },
      }),
    );
    const { endpoints } = good.snapshot;
    const rows = write(
      JSON.stringify({
        ...good,
        snapshot: {
          ...good.snapshot,
          endpoints: [
            { ...endpoints[0], failed: 10_000 },
            { ...endpoints[1], statuses: { '200': 1 } },
            { ...endpoints[1], latency: { count: 100, encoded: 'AAAA' } },
          ],
        },
      }),
    );
    const missing = join(scratch, 'no-such-file.json');
    const result = await mergeLoadFiles([notJson, shape, rows, missing]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const errors = result.errors.map((error) => error.replace(scratch, 'DIR'));
    expect(errors[0]).toMatch(/^DIR\/load-\d+\.json: not JSON: /);
    expect(errors.filter((error) => error.includes(shape.replace(scratch, 'DIR')))).toEqual([
      `${shape.replace(scratch, 'DIR')}: format: Invalid input: expected "afp-load-run/1"`,
      `${shape.replace(scratch, 'DIR')}: snapshot.iterations.started: Too small: expected number to be >=0`,
      `${shape.replace(scratch, 'DIR')}: (file): Unrecognized key: "extra"`,
    ]);
    const rowsPath = rows.replace(scratch, 'DIR');
    expect(
      errors.filter((error) => error.startsWith(rowsPath)).map((error) => error.slice(rowsPath.length + 2)),
    ).toEqual([
      "endpoint 'escrow.B.create' appears more than once",
      "endpoint 'casino.A.bet': failed 10000 > requests 100",
      "endpoint 'escrow.B.create': statuses add up to 1, not requests 50",
      "endpoint 'escrow.B.create': latency.count 100 is not requests 50",
      "endpoint 'escrow.B.create': latency.encoded is not an HDR histogram",
      "the endpoints' requests (200) differ from the seconds' (150)",
      "the endpoints' failed (10004) differ from the seconds' (6)",
    ]);
    expect(errors.at(-1)).toMatch(/^DIR\/no-such-file\.json: cannot read: ENOENT/);
  });

  test('shards of one run, each once: duplicates, missing shards and other runs refused', async () => {
    const one = shardFile({ index: 1, count: 3 });
    const again = shardFile({ index: 1, count: 3 });
    const duplicate = await mergeLoadFiles([one, again]);
    expect(duplicate).toEqual({
      ok: false,
      errors: [
        `shard 1/3 is given more than once: ${one}, ${again}`,
        'shards 2/3, 3/3 missing: the merge would not be the whole run',
      ],
    });
    const other = shardFile({ index: 2, count: 3 }, { scenario: 'other', seed: '8' });
    const otherPlan = shardFile(
      { index: 3, count: 3 },
      { plan: { ...plan, rate: 200, description: describePlan({ ...plan, rate: 200 }) } },
    );
    const otherRun = await mergeLoadFiles([one, other]);
    expect(otherRun).toEqual({
      ok: false,
      errors: [
        `${other}: scenario other differs from ${one}'s escrow-rush`,
        `${other}: seed 8 differs from ${one}'s 7`,
      ],
    });
    expect(await mergeLoadFiles([one, otherPlan])).toEqual({
      ok: false,
      errors: [
        `${otherPlan}: plan ${describePlan({ ...plan, rate: 200 })} differs from ${one}'s ${describePlan(plan)}`,
      ],
    });
    const whole = write(loadRunFileText(runFile(null, recorded(samples))));
    const wholeTwice = await mergeLoadFiles([whole, whole]);
    expect(wholeTwice).toEqual({
      ok: false,
      errors: [
        `${whole}, ${whole}: not shards of one run (no --shard): merge the files of one run's --shard i/n machines`,
      ],
    });
    expect(await mergeLoadFiles([])).toEqual({ ok: false, errors: ['no load.json file given'] });
  });
});
