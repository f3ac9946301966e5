/**
 * `afp shrink`: a failing run is cut down — less time, fewer populations and agents — while the
 * same invariant still fails first; the file it writes reproduces the failure with `afp run`, and
 * the same input always shrinks to the same bytes.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main as runEnding } from '../../src/cli/run.ts';
import { main as shrinkEnding } from '../../src/cli/shrink.ts';
import { formatDuration } from '../../src/scenario/duration.ts';
import { shrinkRun } from '../../src/shrink/shrink-run.ts';
import { coded } from '../cli/ending-code.ts';

const runMain = coded(runEnding);
const shrinkMain = coded(shrinkEnding);

const work = mkdtempSync(join(tmpdir(), 'afp-shrink-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function capture(): {
  io: { out(text: string): void; err(text: string): void; errIsTty: boolean };
  out: () => string;
  err: () => string;
} {
  let out = '';
  let err = '';
  return {
    io: { out: (text) => (out += text), err: (text) => (err += text), errIsTty: false },
    out: () => out,
    err: () => err,
  };
}

describe('afp shrink', () => {
  it('writes durations in the largest exact unit', () => {
    expect(formatDuration(86_400_000)).toBe('1d');
    expect(formatDuration(7_200_000)).toBe('2h');
    expect(formatDuration(2_035_000)).toBe('2035s');
    expect(formatDuration(1_500)).toBe('1500ms');
  });

  it('shrinks a failing run to a smaller file that afp run reproduces, the same bytes every time', async () => {
    const out = join(work, 'shrunk');
    const shrink = capture();
    const code = await shrinkMain(
      ['scenarios/escrow-expiry.yaml', '--defect', 'escrow-release-twice', '--out', out],
      shrink.io,
    );
    expect(code, shrink.err()).toBe(3);
    expect(shrink.out()).toMatch(/^seed: 42\ninvariant failed: escrow-settles-once\n/);
    const figures =
      /original: (\d+) agents over \S+; the run: (\d+) requests.*\nshrunk: +(\d+) agents over \S+; the run: (\d+) requests/.exec(
        shrink.out(),
      );
    if (figures === null) throw new Error(shrink.out());
    const [originalAgents, originalRequests, shrunkAgents, shrunkRequests] = figures.slice(1).map(Number) as [
      number,
      number,
      number,
      number,
    ];
    // Agents before the failing one are dropped with `first`, so the failing pair is all that is left.
    expect(shrunkAgents * 100).toBeLessThanOrEqual(originalAgents);
    expect(shrunkRequests * 10).toBeLessThan(originalRequests);
    expect(readFileSync(join(out, 'shrunk.yaml'), 'utf8')).toMatch(/\n {4}first: \d+\n/);

    const file = join(out, 'shrunk.yaml');
    const run = capture();
    expect(await runMain([file, '--defect', 'escrow-release-twice', '--out', join(work, 'rerun')], run.io)).toBe(3);
    expect(run.out()).toContain('invariant failed: escrow-settles-once');
    expect(readFileSync(join(out, 'events.jsonl'), 'utf8')).toBe(
      readFileSync(join(work, 'rerun', 'events.jsonl'), 'utf8'),
    );

    const text = readFileSync('scenarios/escrow-expiry.yaml', 'utf8');
    const again = await shrinkRun({
      text,
      fileName: 'scenarios/escrow-expiry.yaml',
      seed: '42',
      defects: ['escrow-release-twice'],
    });
    expect(again.kind).toBe('shrunk');
    if (again.kind === 'shrunk') expect(readFileSync(file, 'utf8')).toContain(again.text);
  });

  it('says so and exits 0 when the run holds, and 2 on bad input', async () => {
    const holds = capture();
    expect(await shrinkMain(['scenarios/k6-smoke.yaml', '--out', join(work, 'none')], holds.io)).toBe(0);
    expect(holds.out()).toMatch(/the run holds every invariant .*: nothing to shrink/);
    const bad = capture();
    expect(await shrinkMain(['scenarios/k6-smoke.yaml', '--max-runs', '0'], bad.io)).toBe(2);
    expect(bad.err()).toMatch(/--max-runs must be/);
  });
});

describe('population first', () => {
  it('numbers a population from `first`, so an agent keeps its name and its run without the agents before it', async () => {
    const { firstArchetypeIndexes } = await import('../../src/agent/agent-numbering.ts');
    expect(
      firstArchetypeIndexes([
        { agent: 'a', count: 5 },
        { agent: 'b', count: 2 },
        { agent: 'a', count: 3, first: 2 },
        { agent: 'a', count: 1 },
      ]),
    ).toEqual([0, 0, 7, 10]);
  });
});
