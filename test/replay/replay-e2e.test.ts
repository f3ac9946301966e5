// End to end: a small run recorded in-process, replayed by `afp replay` (its `main`) against a
// real `afp serve` listener set on 127.0.0.1 (ephemeral ports, manual clock at the record's
// start). Same seed → zero differences; a deliberate defect → exit 3 naming the fee; another
// seed → still zero differences, because every produced id is rebound and bindings hold.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main as replayEnding, type ReplayIo } from '../../src/cli/replay.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import type { DefectName } from '../../src/services/shared/context.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { START_MS, recordSmallRun } from './record-fixture.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { coded } from '../cli/ending-code.ts';

const main = coded(replayEnding);

let directory: string;
let recordPath: string;

interface Captured extends ReplayIo {
  readonly text: () => string;
}

function capture(): Captured {
  const chunks: string[] = [];
  return { out: (text) => chunks.push(text), err: (text) => chunks.push(text), text: () => chunks.join('') };
}

async function serve(options: { seed: string; defects?: DefectName[]; startMs?: number }): Promise<ServeHandle> {
  return startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: ALL_ROUTES,
    seed: options.seed,
    port: 0,
    clockMode: 'manual',
    startMs: options.startMs ?? START_MS,
    defects: options.defects ?? [],
    log: () => undefined,
  });
}

async function replayAgainst(
  handle: ServeHandle,
  name: string,
  extra: string[] = [],
): Promise<{ code: number; output: string; diff: Record<string, unknown> | null }> {
  const out = join(directory, name);
  const io = capture();
  try {
    const code = await main(
      [recordPath, '--target', handle.urls.api as string, '--speed', 'max', '--out', out, ...extra],
      io,
    );
    let diff: Record<string, unknown> | null = null;
    try {
      diff = JSON.parse(await readFile(join(out, 'diff.json'), 'utf8')) as Record<string, unknown>;
    } catch {
      diff = null;
    }
    return { code, output: io.text(), diff };
  } finally {
    await handle.close({ forceAfterMs: 100 });
  }
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'afp-replay-'));
  recordPath = join(directory, 'run.jsonl');
  const run = await recordSmallRun({ seed: '7' });
  await run.recorder.finish(recordPath);
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('afp replay against afp serve', () => {
  test('same seed, manual clock: every exchange matches, exit 0', async () => {
    const result = await replayAgainst(await serve({ seed: '7' }), 'same-seed');
    expect(result.output).toMatch(/^afp replay: seed 7 · scenario replay-fixture/);
    expect(result.code, result.output).toBe(0);
    expect(result.diff?.['sent']).toBe(28);
    expect(result.diff?.['differences_total']).toBe(0);
    expect(result.diff?.['clock']).toMatchObject({ synced: true, exact: true });
    const text = await readFile(join(directory, 'same-seed', 'diff.txt'), 'utf8');
    expect(text).toContain('exchanges sent: 28 of 28');
    expect(text).toMatch(/escrow\.B\.release\s+3\s+0/);
  });

  test('a server with the escrow-fee-2pct defect: exit 3 and the fee difference named', async () => {
    const result = await replayAgainst(await serve({ seed: '7', defects: ['escrow-fee-2pct'] }), 'defect');
    expect(result.code, result.output).toBe(3);
    const differences = result.diff?.['differences'] as {
      seq: number;
      endpoint: string;
      kind: string;
      pointer: string;
      expected: unknown;
      actual: unknown;
    }[];
    expect(differences).toContainEqual(
      expect.objectContaining({
        seq: 9,
        endpoint: 'escrow.B.create',
        kind: 'value',
        pointer: 'body/fee',
        expected: '0.025',
        actual: '0.05',
      }),
    );
    expect(differences).toContainEqual(
      expect.objectContaining({
        endpoint: 'escrow.A.create',
        kind: 'value',
        pointer: 'body/fee',
        expected: 0.005,
        actual: 0.01,
      }),
    );
    expect(result.output).toContain('reproduce: npx afp replay');
    expect(await readFile(join(directory, 'defect', 'diff.txt'), 'utf8')).toContain(
      'body/fee: expected "0.025", actual "0.05"',
    );
  });

  test('another server seed: ids differ, bindings hold, zero differences', async () => {
    const result = await replayAgainst(await serve({ seed: '12345' }), 'other-seed');
    expect(result.code, result.output).toBe(0);
    expect(result.diff?.['differences_total']).toBe(0);
  });

  test('--sync-clock off: time-derived values are skipped, the rest still matches', async () => {
    const result = await replayAgainst(await serve({ seed: '7' }), 'no-sync', ['--sync-clock', 'off']);
    expect(result.diff?.['clock']).toMatchObject({ synced: false, exact: false });
    // Without moving the clock nothing expires and no cooldown ends: the model's answers after
    // those instants differ, and replay says so (exit 3) instead of hiding it.
    expect(result.code).toBe(3);
    const differences = result.diff?.['differences'] as { pointer: string }[];
    expect(
      differences.some((difference) => difference.pointer.endsWith('_at') || difference.pointer === 'body/next_claim'),
    ).toBe(false);
  });

  test('--speed paces the exchanges: a 24 h record at speed 1,000,000 takes at least 86 ms of wall time', async () => {
    const handle = await serve({ seed: '7' });
    const startedMs = performance.now();
    const result = await replayAgainst(handle, 'paced', ['--speed', '1000000']);
    expect(result.code, result.output).toBe(0);
    expect(performance.now() - startedMs).toBeGreaterThanOrEqual(86);
  });

  test('a target whose clock is already past the record: --sync-clock on is refused (exit 2)', async () => {
    const result = await replayAgainst(await serve({ seed: '7', startMs: START_MS + 86_400_000 }), 'late-clock', [
      '--sync-clock',
      'on',
    ]);
    expect(result.code).toBe(2);
    expect(result.output).toContain('--clock manual --start 2025-03-01T00:00:00.000Z');
  });
});

describe('afp replay input and liveness', () => {
  test('a malformed record: exit 2 with line numbers', async () => {
    const text = await readFile(recordPath, 'utf8');
    const lines = text.split('\n');
    lines[3] = '{"seq": 3, "at_ms": "soon"}';
    lines[5] = 'not json';
    const broken = join(directory, 'broken.jsonl');
    await writeFile(broken, lines.join('\n'));
    const io = capture();
    const code = await main([broken, '--target', 'http://127.0.0.1:9'], io);
    expect(code).toBe(2);
    expect(io.text()).toContain('line 4: at_ms must be a non-negative integer');
    expect(io.text()).toContain('line 6: not JSON');
  });

  test('bad flags are all reported together: exit 2', async () => {
    const io = capture();
    const code = await main([recordPath, '--speed', 'fast', '--sync-clock', 'maybe', '--concurrency', '4'], io);
    expect(code).toBe(2);
    expect(io.text()).toContain('--target URL is required');
    expect(io.text()).toContain('--speed must be');
    expect(io.text()).toContain('--sync-clock must be auto, on or off');
    expect(io.text()).toContain('--concurrency must be 1');
  });

  test('a target that does not answer: exit 4', async () => {
    const handle = await serve({ seed: '7' });
    const api = handle.urls.api as string;
    await handle.close({ forceAfterMs: 100 });
    const io = capture();
    const code = await main(
      [recordPath, '--target', api, '--speed', 'max', '--out', join(directory, 'gone'), '--timeout-ms', '500'],
      io,
    );
    expect(code).toBe(4);
    expect(io.text()).toContain('does not answer');
  });
});
