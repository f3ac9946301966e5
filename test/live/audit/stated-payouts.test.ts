// A target whose mines pays round4((1/P) × 0.99) where DEPLOYED.md publishes 0.975 (afp serve
// --dialect deployed --rules `casino: { mines: { edge_factor: 0.99 } }`): a variant whose bets all
// lost (here mines:5:10, seed 1) pays nothing as published, but each answer's payout_on_win
// states the target's own payout. The audit says so, as a minor rule finding with that field as
// evidence, and does not call it a measured edge. Before, the finding read "the target pays  (deployed
// scheme)" with nothing after "pays", expected equal to seen, and an edge range ("lies in [2.499%,
// 100%]") that left out the target's true 1%.
// In-process: real loopback listeners, the deployment's wire, the limits lifted, a manual clock.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseDeployedRulesFile } from '../../../src/cli/deployed-rules-file.ts';
import { serveDeployedRules } from '../../fixtures/deployed-rules-serve.ts';
import { liveHouseEdge } from '../../fixtures/live-house-edge.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-stated-payouts-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

describe('mines at an edge factor of 0.99', () => {
  test('a variant whose bets all lost: a minor finding names the payout_on_win it states; none reads "pays  ("', async () => {
    const rules = parseDeployedRulesFile('casino: { mines: { edge_factor: 0.99 } }\n', 'mines.yaml');
    if (!rules.ok) throw new Error(rules.message);
    const served = await serveDeployedRules(rules.value);
    try {
      const { code, text, findings } = await liveHouseEdge(served, {
        args: ['--games', 'mines', '--bets', '60'],
        seed: '1',
        out: join(DIR, 'edge'),
      });
      expect(code, text).toBe(0);
      expect(findings.filter((finding) => /pays {2}\(/.test(finding.title))).toEqual([]);
      const stated = findings.filter((finding) => finding.id.endsWith(':stated-payouts'));
      expect(stated.map((finding) => finding.id)).toContain('rule:mines:5:10:stated-payouts');
      for (const finding of stated) {
        expect(finding.severity).toBe('minor');
        expect(finding.seen).toMatch(/^payout_on_win: [\d.]+ where the scheme gives [\d.]+$/);
        expect(finding.evidence).not.toContain('lies in');
        expect(finding.reproduce).toMatch(/^curl -sS -X POST 'http:\/\/127\.0\.0\.1:\d+\/api\/v1\/(games|bets)\//);
      }
      expect(stated.find((finding) => finding.id === 'rule:mines:5:10:stated-payouts')?.seen).toBe(
        'payout_on_win: 17.5154 where the scheme gives 17.25',
      );
    } finally {
      await served.close();
    }
  });
});
