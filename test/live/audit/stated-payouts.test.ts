// A target whose mines pays round4((1/P) × 0.99) where DEPLOYED.md publishes 0.975 (afp serve
// --dialect deployed --rules `casino: { mines: { edge_factor: 0.99 } }`): a variant whose bets all
// lost (here mines:5:10, seed 1) pays nothing as published, but each answer's payout_on_win
// states the target's own payout. The audit says so, as a minor rule finding with that field as
// evidence, and does not call it a measured edge. Before, the finding read "the target pays  (deployed
// scheme)" with nothing after "pays", expected equal to seen, and an edge range ("lies in [2.499%,
// 100%]") that left out the target's true 1%.
// In-process: real loopback listeners, the deployment's wire, the limits lifted, a manual clock.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseDeployedRulesFile } from '../../../src/cli/deployed-rules-file.ts';
import { drawSeed, parseHouseEdgeArgs } from '../../../src/cli/audit-house-edge.ts';
import { runHouseEdgeLive } from '../../../src/cli/audit-house-edge-live.ts';
import { serveDeployedRules } from '../../fixtures/deployed-rules-serve.ts';
import { sink } from '../../fixtures/audit-sink.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-stated-payouts-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

interface Finding {
  readonly id: string;
  readonly severity: string;
  readonly title: string;
  readonly seen: string | null;
  readonly evidence: string;
}

describe('mines at an edge factor of 0.99', () => {
  test('a variant whose bets all lost: a minor finding names the payout_on_win it states; none reads "pays  ("', async () => {
    const rules = parseDeployedRulesFile('casino: { mines: { edge_factor: 0.99 } }\n', 'mines.yaml');
    if (!rules.ok) throw new Error(rules.message);
    const served = await serveDeployedRules(rules.value);
    try {
      const key = await served.fundedKey('50');
      const out = join(DIR, 'edge');
      const flags = parseHouseEdgeArgs(
        ['--target', served.casino, '--key', key, '--games', 'mines', '--bets', '60'],
        drawSeed,
      );
      if ('errors' in flags) throw new Error(flags.errors.join('; '));
      const edge = sink();
      expect(
        await runHouseEdgeLive({ ...flags, seed: '1', out, quiet: true }, edge.io, served.clock),
        edge.text(),
      ).toBe(0);
      const findings = (JSON.parse(readFileSync(join(out, 'findings.json'), 'utf8')) as { findings: Finding[] })
        .findings;
      expect(findings.filter((finding) => /pays {2}\(/.test(finding.title))).toEqual([]);
      const stated = findings.filter((finding) => finding.id.endsWith(':stated-payouts'));
      expect(stated.map((finding) => finding.id)).toContain('rule:mines:5:10:stated-payouts');
      for (const finding of stated) {
        expect(finding.severity).toBe('minor');
        expect(finding.seen).toMatch(/^payout_on_win: [\d.]+ where the scheme gives [\d.]+$/);
        expect(finding.evidence).not.toContain('lies in');
      }
      expect(stated.find((finding) => finding.id === 'rule:mines:5:10:stated-payouts')?.seen).toBe(
        'payout_on_win: 17.5154 where the scheme gives 17.25',
      );
    } finally {
      await served.close();
    }
  });
});
