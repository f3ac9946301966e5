// `afp export k6` runs afp's own agents on the real k6 and sends the traffic `afp load` sends: for
// every shipped scenario but million.yaml, given the same short load profile, the export passes
// `k6 inspect`, runs against a fresh `afp serve` (in-process, on loopback), and its per-endpoint
// request counts match afp load's of the same window against another fresh serve, within ±10%
// (test/export/k6-agents-kit.ts). Two execution segments and --k8s: test/export/k6-segments.test.ts.
// Why one file whose scenarios run side by side (at most SIDE_BY_SIDE at once, the longest
// first): a comparison is mostly waiting on its windows (about 0.4 CPU s per wall s), so the
// scenarios share one of vitest's workers instead of holding three, and the other workers keep
// the cores busy with CPU-bound files (three files, one a worker, left the 2-core machine 30-60 %
// idle for the suite's first minute).
import { describe, test } from 'vitest';
import { compareWithAfpLoad, K6_SKIP, k6Kit, scenarioNames, windowOf } from './k6-agents-kit.ts';

const kit = k6Kit();
/** Comparisons in flight at once: as many as the three files that ran side by side before. */
const SIDE_BY_SIDE = 3;
/** A bound on a hang, not a budget: a test waits for a free place, then measures up to two windows of each engine. */
const TIMEOUT_MS = 1_200_000;

let free = SIDE_BY_SIDE;
const waiting: (() => void)[] = [];

/** Runs `work` once fewer than SIDE_BY_SIDE comparisons are in flight. */
async function inTurn(work: () => Promise<void>): Promise<void> {
  if (free === 0) await new Promise<void>((resolve) => waiting.push(resolve));
  else free -= 1;
  try {
    await work();
  } finally {
    const next = waiting.shift();
    if (next === undefined) free += 1;
    else next();
  }
}

/** The longest windows first, so that the last comparison to start is a short one. */
const names = scenarioNames().sort((a, b) => windowOf(b) - windowOf(a) || (a < b ? -1 : 1));

describe.skipIf(K6_SKIP !== undefined)('shipped scenarios on the real k6, with the traffic afp load sends', () => {
  test.concurrent.each(names)(
    '%s: passes k6 inspect; per-endpoint counts match afp load within ±10 percent',
    (name) => inTurn(() => compareWithAfpLoad(kit, name)),
    TIMEOUT_MS,
  );
});
