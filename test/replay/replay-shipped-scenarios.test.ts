// Every shipped scenario records and replays with zero differences (issue 43): each
// scenarios/*.yaml, scaled down where its full run would take more than seconds (populations
// divided, at least one agent each; agents, params, settings and duration kept unless named), is
// recorded in-process by `afp run --record` (its `main`), served as `afp serve --clock manual
// --scenario` on 127.0.0.1 and replayed by `afp replay --speed max` (its `main`): exit 0, no
// difference, every exchange sent. million.yaml gets its 1/1000 copy. The wallet scenarios also
// show the harness's out-of-band funding recorded (header `mints`) and re-issued as set-up calls —
// without them their replays differed from exchange 42 (wallet-swaps) and 62 (referral-tree) on.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseDocument } from 'yaml';
import { recordScenario, replayRecord, serveFromScenario } from './scenario-replay-fixture.ts';

interface ShippedCase {
  readonly file: string;
  /** Every population's count is divided by this (rounded, at least 1). */
  readonly divideCounts: number;
  /** A shorter duration, where the scenario's settings all fall inside it. */
  readonly duration?: string;
}

const CASES: readonly ShippedCase[] = [
  { file: 'domain-rush.yaml', divideCounts: 10 },
  { file: 'escrow-expiry.yaml', divideCounts: 20 },
  { file: 'house-edge.yaml', divideCounts: 4 },
  { file: 'k6-smoke.yaml', divideCounts: 1 },
  { file: 'load-smoke.yaml', divideCounts: 5 },
  { file: 'million.yaml', divideCounts: 1_000 },
  { file: 'quickstart.yaml', divideCounts: 20 },
  { file: 'referral-tree.yaml', divideCounts: 4 },
  { file: 'tiers-and-faults.yaml', divideCounts: 4 },
  { file: 'trading-crash.yaml', divideCounts: 10 },
  { file: 'wallet-swaps.yaml', divideCounts: 4 },
];

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'afp-replay-shipped-'));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** The scenario file with its populations scaled down (and its duration shortened), written under the test's directory. */
async function scaledCopy(shipped: ShippedCase): Promise<string> {
  const document = parseDocument(await readFile(join('scenarios', shipped.file), 'utf8'));
  const populations = document.get('populations', true) as { items: { get(key: string): unknown; set(key: string, value: unknown): void }[] };
  for (const population of populations.items) population.set('count', Math.max(1, Math.round(Number(population.get('count')) / shipped.divideCounts)));
  if (shipped.duration !== undefined) document.set('duration', shipped.duration);
  const file = join(directory, shipped.file);
  await writeFile(file, document.toString());
  return file;
}

describe.each(CASES)('scenarios/$file, populations divided by $divideCounts', (shipped) => {
  test('records, serves and replays with zero differences', async () => {
    const name = shipped.file.replace(/\.yaml$/, '');
    const recording = await recordScenario(await scaledCopy(shipped), directory, `${name}.jsonl`);
    expect(recording.header.complete).toBe(true);
    expect(recording.exchanges.length).toBeGreaterThan(0);
    const serve = await serveFromScenario(recording.scenario);
    try {
      const { code, output, diff } = await replayRecord(recording.recordPath, serve.urls.api as string, directory, `${name}-replay`);
      expect({ differences: diff.differences_total, first: diff.differences.slice(0, 3), notes: diff.notes }, output).toEqual({ differences: 0, first: [], notes: [] });
      expect(code, output).toBe(0);
      expect(diff.sent).toBe(recording.exchanges.length);
      const mints = recording.header.mints ?? [];
      const funds = recording.scenario.wallet.startingFunds.length;
      const created = recording.exchanges.filter((exchange) => exchange.request.path === '/v1/wallet/create' && exchange.response.status === 200).length;
      // Each created wallet got every starting fund, right after its create, and the replay made each one again.
      expect(mints.length).toBe(created * funds);
      if (funds > 0) expect(created).toBeGreaterThan(0);
      const tiers = Object.keys(recording.header.tiers ?? {}).length;
      const deposits = Object.keys(recording.header.deposits ?? {}).length;
      expect(diff.setup_calls).toBe(1 + tiers + deposits + mints.length);
    } finally {
      await serve.close();
    }
  }, 60_000);
});
