// The copies and the digest afp serve takes in slices (src/platform/graph-copy.ts copyGraphSliced,
// copyGraphIntoSliced; src/platform/state-digest.ts platformDigestSliced) are the one-shot ones:
// on a platform with agents, balances, ledger transfers and limiter entries, a snapshot copied one value
// per step has the digest of the platform and of its one-shot copy; a restore in steps leaves the
// live platform untouched until its last step, then gives back the snapshot's digest; the digest
// hashed piece by piece equals the digest of the whole text, whatever the step.
import { describe, expect, test } from 'vitest';
import { Dispatcher } from '../../src/http/dispatcher.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { copyGraphIntoSliced, copyGraphSliced, copyToEnd } from '../../src/platform/graph-copy.ts';
import { capturePlatform, captureSliced, restoreSliced } from '../../src/platform/platform-snapshot.ts';
import { Platform } from '../../src/platform/platform.ts';
import { platformDigest, platformDigestSliced } from '../../src/platform/state-digest.ts';

const START_MS = Date.UTC(2026, 0, 1);

/** A platform that 40 agents used: registered (the 10 USDC grant), each claiming the style-A faucet. */
function usedPlatform(): Platform {
  const platform = new Platform({ seed: 'sliced', startMs: START_MS, defects: [], faults: [], closures: [] });
  const dispatcher = new Dispatcher(platform, ALL_ROUTES);
  for (let index = 0; index < 40; index++) {
    const ip = `10.1.0.${index}`;
    const registered = dispatcher.handle(
      {
        mount: 'api',
        method: 'POST',
        path: '/register',
        query: {},
        headers: {},
        body: { agent_id: `agent-${index}` },
        ip,
      },
      START_MS + index,
    );
    expect(registered.status).toBe(201);
    const key = String(registered.body['api_key']);
    const claimed = dispatcher.handle(
      {
        mount: 'faucet',
        method: 'POST',
        path: '/api/v1/faucet/claim',
        query: {},
        headers: { authorization: `Bearer ${key}` },
        ip,
      },
      START_MS + index,
    );
    expect(claimed.status).toBe(200);
  }
  return platform;
}

/** Runs `sliced` one step of `units` at a time; the number of steps taken. */
function stepAll(sliced: { step(units: number): boolean }, units: number): number {
  let steps = 1;
  while (!sliced.step(units)) steps++;
  return steps;
}

describe('sliced copies and digest', () => {
  test('a snapshot copied one value per step is the one-shot copy', () => {
    const platform = usedPlatform();
    const digest = platformDigest(platform);
    const sliced = captureSliced(platform);
    expect(stepAll(sliced, 1)).toBeGreaterThan(1_000);
    expect(platformDigest(sliced.result().copy)).toBe(digest);
    expect(platformDigest(capturePlatform(platform).copy)).toBe(digest);
    expect(() => captureSliced(platform).result()).toThrow(/before its last step/);
  });

  test('a restore in steps leaves the live platform as it was until its last step', () => {
    const platform = usedPlatform();
    const image = capturePlatform(platform);
    const before = platformDigest(platform);
    const dispatcher = new Dispatcher(platform, ALL_ROUTES);
    dispatcher.handle(
      {
        mount: 'api',
        method: 'POST',
        path: '/register',
        query: {},
        headers: {},
        body: { agent_id: 'later' },
        ip: '10.2.0.1',
      },
      START_MS + 1_000,
    );
    const changed = platformDigest(platform);
    expect(changed).not.toBe(before);
    const restore = restoreSliced(image, platform);
    for (let step = 0; step < 50; step++) expect(restore.step(7)).toBe(false);
    expect(platformDigest(platform)).toBe(changed);
    stepAll(restore, 7);
    expect(platformDigest(platform)).toBe(before);
  });

  test('the digest hashed piece by piece is the digest of the whole text, whatever the step', () => {
    const platform = usedPlatform();
    const digest = platformDigest(platform);
    for (const units of [1, 13, 2_048, Number.MAX_SAFE_INTEGER]) {
      const sliced = platformDigestSliced(platform);
      stepAll(sliced, units);
      expect(sliced.result()).toBe(digest);
    }
  });

  test('generic graphs: shared, cyclic and big containers filled in pieces; copyGraphIntoSliced sets the target last', () => {
    const shared = { n: 1 };
    const source: Record<string, unknown> = {
      list: Array.from({ length: 100 }, (_, index) => (index % 2 === 0 ? shared : { index })),
      byKey: new Map(Array.from({ length: 50 }, (_, index) => [`k${index}`, shared])),
      set: new Set([shared, 'x']),
    };
    source['self'] = source;
    const whole = copyToEnd(copyGraphSliced(source));
    const inPieces = copyGraphSliced(source);
    expect(stepAll(inPieces, 3)).toBeGreaterThan(50);
    const result = inPieces.result();
    expect(result).toEqual(whole);
    expect(result['self']).toBe(result);
    const list = result['list'] as unknown[];
    expect(list[0]).toBe(list[2]);
    expect((result['byKey'] as Map<string, unknown>).get('k3')).toBe(list[0]);
    expect(list[0]).not.toBe(shared);
    const target: Record<string, unknown> = { kept: true };
    const into = copyGraphIntoSliced(source, target);
    expect(into.step(5)).toBe(false);
    expect(target).toEqual({ kept: true });
    stepAll(into, 5);
    expect(target['self']).toBe(target);
    expect(target['kept']).toBe(true);
    expect((target['list'] as unknown[]).length).toBe(100);
  });

  test('a large buffer (a casino journal) is copied a piece per step, its views kept over one copy', () => {
    const buffer = new ArrayBuffer(4 << 20);
    const cells = new Float64Array(buffer);
    const amounts = new BigInt64Array(buffer, 8, 16);
    for (let index = 0; index < cells.length; index += 997) cells[index] = index / 7;
    amounts[3] = -12_345_678_901n;
    const source = { cells, amounts, bytes: new Uint8Array(buffer, 100, 50) };
    const whole = copyToEnd(copyGraphSliced(source));
    const inPieces = copyGraphSliced(source);
    // 2,048 units of 256 bytes each: the 4 MiB buffer spans 8 steps at least.
    expect(stepAll(inPieces, 2_048)).toBeGreaterThanOrEqual(8);
    for (const copy of [whole, inPieces.result()]) {
      expect(copy.cells.buffer).not.toBe(buffer);
      expect(copy.amounts.buffer).toBe(copy.cells.buffer);
      expect(copy.bytes.buffer).toBe(copy.cells.buffer);
      expect(new Uint8Array(copy.cells.buffer)).toEqual(new Uint8Array(buffer));
      expect(copy.amounts[3]).toBe(-12_345_678_901n);
      expect([copy.bytes.byteOffset, copy.bytes.length]).toEqual([100, 50]);
    }
    cells[0] = 1;
    expect(whole.cells[0]).toBe(0);
  });
});
