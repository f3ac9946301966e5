// Issue 68 part 3: the edge measured from everything the answers state. A deployed stand-in whose
// dice pays round4((1/p) × 0.97) shows payout_multiplier 9.7 on every bet of under 10, lost ones
// too: the audit reads the rule from them (observed, exact 12.700%), where before it recited the
// published 10.450% when all bets lost. A crash at an edge factor of 0.96 states win_probability
// 0.96 / target and the crash point the roll gives under 0.96: observed at exactly 4%, where before
// it printed bare empirical edges of 9–55%. Each restated rule is one minor rule finding naming it.
// In-process: real loopback listeners, the deployment's wire, the limits lifted, a manual clock.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseDeployedRulesFile } from '../../../src/cli/deployed-rules-file.ts';
import type { JsonObject } from '../../../src/core/errors.ts';
import { lawEdge } from '../../../src/audit/live/edge-verdict.ts';
import type { DeployedCasinoRules } from '../../../src/services/casino/deployed/deployed-casino-rules.ts';
import { deployedRuleTable } from '../../../src/services/casino/deployed/deployed-rule-table.ts';
import { serveDeployedRules } from '../../fixtures/deployed-rules-serve.ts';
import { liveHouseEdge } from '../../fixtures/live-house-edge.ts';

/** The exact edge of a variant under the rules the stand-in plays (deployed-rule-table.ts). */
function trueEdge(rules: DeployedCasinoRules, game: string, params: JsonObject): number | null {
  const law = deployedRuleTable(rules).get(game)?.law(params) ?? null;
  return law === null ? null : lawEdge(law);
}

const DIR = mkdtempSync(join(tmpdir(), 'afp-restated-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

interface EdgeRow {
  readonly variant: string;
  readonly params: JsonObject;
  readonly edge_source: string;
  readonly edge: number | null;
}

async function audited(rulesText: string, games: string, bets: number, out: string) {
  const rules = parseDeployedRulesFile(rulesText, 'rules.yaml');
  if (!rules.ok) throw new Error(rules.message);
  const served = await serveDeployedRules(rules.value);
  try {
    const run = await liveHouseEdge(served, {
      args: ['--games', games, '--bets', String(bets)],
      seed: '3',
      out: join(DIR, out),
    });
    const rows = (JSON.parse(readFileSync(join(DIR, out, 'edges.json'), 'utf8')) as { variants: EdgeRow[] }).variants;
    return { ...run, rows, rules: rules.value };
  } finally {
    await served.close();
  }
}

describe('a rule the answers state is read from them, with its exact edge', () => {
  test('dice at 0.97: under 10 observed at 12.700% from the multipliers its lost bets show', async () => {
    const run = await audited('casino: { dice: { edge_factor: 0.97 } }\n', 'dice', 66, 'dice');
    const under = run.rows.find((row) => row.variant === 'dice:under:10');
    expect(under?.edge_source, run.text).toBe('observed');
    // round4((1/0.1) × 0.97) = 9.7 on a chance of 9 in 100 (the deployed roll's bias is below 1e-5).
    expect(under?.edge).toBeCloseTo(0.127, 5);
    expect(under?.edge).toBe(trueEdge(run.rules, 'dice', { direction: 'under', threshold: 10 }));
    for (const row of run.rows) expect(row.edge_source).toBe('observed');
    expect(run.findings.find((finding) => finding.id === 'rule:dice:under:10:restated')).toMatchObject({
      severity: 'minor',
      seen: 'dice edge_factor 0.97',
    });
  });

  test('crash at 0.96: observed at exactly 4% from the stated win_probability and crash point', async () => {
    const run = await audited('casino: { crash: { edge_factor: 0.96 } }\n', 'crash', 90, 'crash');
    expect(run.rows.length).toBeGreaterThan(0);
    for (const row of run.rows) {
      expect([row.variant, row.edge_source], run.text).toEqual([row.variant, 'observed']);
      // The exact law of the crash point round2(0.96 / (1 − r/100)) on the deployed roll: about 4%.
      expect(row.edge).toBe(trueEdge(run.rules, 'crash', row.params));
      expect(Math.abs((row.edge ?? 1) - 0.04)).toBeLessThan(0.005);
    }
    expect(run.findings.filter((finding) => finding.id === 'rule:crash:scheme')).toEqual([]);
  });
});

/** C(n, k) as a number (small arguments). */
const choose = (n: number, k: number): number => {
  let result = 1;
  for (let i = 1; i <= k; i += 1) result = (result * (n - k + i)) / i;
  return result;
};

/** The exact edge of a keno paytable row under 20 distinct numbers of 80 drawn alike. */
function fairKenoEdge(spots: number, row: Readonly<Record<number, number>>): number {
  let returned = 0;
  for (let catches = 0; catches <= spots; catches += 1)
    returned += ((choose(spots, catches) * choose(80 - spots, 20 - catches)) / choose(80, 20)) * (row[catches] ?? 0);
  return 1 - returned;
}

describe('keno: the draw measured from its answers', () => {
  test('a fixed keno (20 of 80, alike) is observed at the exact edge of its stated table under that draw', async () => {
    const run = await audited('casino: { keno: { draw: uniform } }\n', 'keno', 600, 'keno-fixed');
    const draw = run.findings.find((finding) => finding.id === 'rule:keno:draw');
    expect(draw?.severity, run.text).toBe('info');
    expect(draw?.seen).toMatch(
      /^\d+ bets drew 20 \(\d+ bets\) distinct numbers; 80 numbers of 1-80 ever drawn over \d+ draws, each number alike/,
    );
    const paytable = run.rules.casino.keno.paytable;
    for (const row of run.rows) {
      const spots = (row.params['picks'] as number[]).length;
      expect([row.variant, row.edge_source], run.text).toEqual([row.variant, 'observed']);
      expect(row.edge).toBeCloseTo(fairKenoEdge(spots, paytable[spots] ?? {}), 9);
    }
  });

  test("the published keno's draw (5–8 numbers) is a minor draw finding; its edges stay the published rule's", async () => {
    const run = await audited('money: { float_noise: false }\n', 'keno', 200, 'keno-published');
    const draw = run.findings.find((finding) => finding.id === 'rule:keno:draw');
    expect(draw?.severity, run.text).toBe('minor');
    expect(draw?.expected).toBe('20 distinct numbers of 1-80 a bet, each alike');
    for (const row of run.rows) expect(row.edge_source).toBe('published');
  });
});
