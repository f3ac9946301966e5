// A target whose mines pays round4((1/P) × 0.99) where DEPLOYED.md publishes 0.975 (afp serve
// --dialect deployed --rules `casino: { mines: { edge_factor: 0.99 } }`): a variant whose bets all
// lost (here mines:5:10, seed 1) pays nothing as published, but each answer's payout_on_win
// states the target's own payout. The audit says so, as a minor rule finding with that field as
// evidence, and does not call it a measured edge. Before, the finding read "the target pays  (deployed
// scheme)" with nothing after "pays", expected equal to seen, and an edge range ("lies in [2.499%,
// 100%]") that left out the target's true 1%.
// The same target stating its own 1% edge (house_edge_pct on every mines answer, as an honest
// deployment at 0.99 would): a variant none of whose paying outcomes was seen (mines:10:10 wins
// about 1 in 1,100) was called "observed edge 2.479% [2.479%, 100%] where 1% is advertised",
// major, exit 3: the lower end priced the unseen outcomes at the published payouts, though the
// target's answers said it pays them more. Only the upper end bounds such a variant's edge.
// In-process: real loopback listeners, the deployment's wire, the limits lifted, a manual clock.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseDeployedRulesFile } from '../../../src/cli/deployed-rules-file.ts';
import { serveDeployedRules } from '../../fixtures/deployed-rules-serve.ts';
import { liveHouseEdge } from '../../fixtures/live-house-edge.ts';
import { proxiedHouseEdge, resultRewrite } from '../../fixtures/proxied-house-edge.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-stated-payouts-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

describe('mines at an edge factor of 0.99', () => {
  test('a variant whose bets all lost: a minor finding names the payout_on_win it states; none reads "pays  ("', async () => {
    const rules = parseDeployedRulesFile('casino: { mines: { edge_factor: 0.99 } }\n', 'mines.yaml');
    if (!rules.ok) throw new Error(rules.message);
    // Its game list states the edges it plays (about 1%): the test is of the answers' payout_on_win.
    const served = await serveDeployedRules(rules.value, '4', 'played');
    try {
      const { code, text, findings } = await liveHouseEdge(served, {
        args: ['--games', 'mines', '--bets', '60'],
        seed: '1',
        out: join(DIR, 'edge'),
      });
      expect(code, text).toBe(0);
      expect(findings.filter((finding) => /pays {2}\(/.test(finding.title))).toEqual([]);
      // The payout_on_win every answer states is one rule, read from them: the factor 0.99, whatever won.
      const restated = findings.filter((finding) => finding.id.endsWith(':restated'));
      expect(restated.map((finding) => finding.id)).toContain('rule:mines:5:10:restated');
      for (const finding of restated) {
        expect(finding.severity).toBe('minor');
        expect(finding.seen).toBe('mines edge_factor 0.99');
        expect(finding.evidence).not.toContain('lies in');
        expect(finding.reproduce).toMatch(/^curl -sS -X POST 'http:\/\/127\.0\.0\.1:\d+\/api\/v1\/(games|bets)\//);
      }
      expect(restated.find((finding) => finding.id === 'rule:mines:5:10:restated')?.title).toBe(
        'mines:5:10: the answers state a rule of their own (mines edge_factor 0.99): exact edge 0.988%; the published rule gives 2.488%',
      );
    } finally {
      await served.close();
    }
  });

  test('stating its own 1% edge: no edge finding above minor while its paying outcomes are unseen, exit 0', async () => {
    const rules = parseDeployedRulesFile('casino: { mines: { edge_factor: 0.99 } }\n', 'mines.yaml');
    if (!rules.ok) throw new Error(rules.message);
    const states = resultRewrite('mines', (result) => {
      result['house_edge_pct'] = 1;
    });
    const { code, text, findings } = await proxiedHouseEdge(
      DIR,
      'own-edge',
      'mines',
      states,
      { bets: '60' },
      rules.value,
    );
    const edges = findings.filter((finding) => finding.id.startsWith('edge:mines:'));
    expect(edges.length, text).toBeGreaterThan(0);
    expect(
      edges.filter((finding) => finding.severity !== 'minor' && finding.severity !== 'info').map((f) => f.title),
      text,
    ).toEqual([]);
    // Its paying outcomes unseen, its edge is still measured: the factor its answers state
    // (payout_on_win on every bet) is one rule every bet follows, whose exact edge keeps its word.
    expect(
      edges.filter((finding) => finding.severity !== 'info').map((finding) => finding.id),
      text,
    ).not.toContain('edge:mines:5:10');
    expect(text).toMatch(/mines +5:10 +observed +0\.988% .*matches advertised/);
    expect(code, text).toBe(0);
  });
});
