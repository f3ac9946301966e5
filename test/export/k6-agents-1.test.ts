// `afp export k6` runs afp's own agents on the real k6 and sends the traffic `afp load` sends: for
// every shipped scenario but million.yaml, given the same short load profile, the export passes
// `k6 inspect`, runs against a fresh `afp serve` (in-process, on loopback), and its per-endpoint
// request counts match afp load's of the same window against another fresh serve, within ±10%
// (test/export/k6-agents-kit.ts). This file takes part 2 of three, of about equal wall time
// (scenariosOf); the three files run side by side. Two execution segments and --k8s: test/export/k6-segments.test.ts.
import { describe, test } from 'vitest';
import { compareWithAfpLoad, k6Kit, scenariosOf } from './k6-agents-kit.ts';

const kit = k6Kit();

describe('shipped scenarios on the real k6, with the traffic afp load sends (part 2 of 3)', () => {
  test.each(scenariosOf(1))('%s: passes k6 inspect; per-endpoint counts match afp load within ±10 percent', (name) =>
    compareWithAfpLoad(kit, name),
  );
});
