// Shipped scenarios, the files themselves, on the real k6 with the traffic afp load sends (issue 70
// part 1): `afp export k6 scenarios/X.yaml -i 40` and `afp load scenarios/X.yaml -i 40` (k6's own
// flag bounding either engine to exactly 40 arrivals) each against a fresh in-process `afp serve`;
// the per-endpoint request counts agree within ±5% (±2 requests where 5% is less:
// k6-agents-kit.ts). quickstart and trading-crash have no load: section (their derived profile, at
// 10 arrivals a second); load-smoke keeps its own profile's rate (20/s) and thresholds. The full comparison of every
// scenario on a test profile is k6-agents.test.ts.
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  afpLoadRun,
  exportScript,
  k6Dropped,
  K6_SKIP,
  k6Kit,
  k6Run,
  mismatches,
  ROOT,
  table,
} from './k6-agents-kit.ts';

const kit = k6Kit();
const ARRIVALS = ['-i', '40'];

describe.skipIf(K6_SKIP !== undefined)('shipped scenarios as shipped, on the real k6', () => {
  test.each(['load-smoke.yaml', 'quickstart.yaml', 'trading-crash.yaml'])(
    '%s -i 40: per-endpoint counts of k6 match afp load within ±5 percent',
    async (name) => {
      const file = join(ROOT, 'scenarios', name);
      const base = join(kit.dir, name.replace(/\.yaml$/, ''));
      const script = await exportScript(file, ARRIVALS, `${base}.k6.js`);
      const afp = await kit.withServe((api) => afpLoadRun(api, file, ARRIVALS, `${base}-load`));
      const out = `${base}.k6.json`;
      const seen = await kit.withServe((api) => k6Run(api, script, out));
      const shown = `${name} afp/k6: ${table(afp.counts, seen)}; dropped or late: afp ${afp.dropped}, k6 ${k6Dropped(out)}`;
      expect(afp.dropped, shown).toBe(0);
      expect(k6Dropped(out), shown).toBe(0);
      expect(mismatches(afp.counts, seen, 0.05), shown).toStrictEqual([]);
    },
    300_000,
  );
});
