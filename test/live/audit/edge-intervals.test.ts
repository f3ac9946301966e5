// Issue 68 parts 4 and 8: every empirical edge carries its interval, and the report's per-variant
// edge table says the same as the terminal and edges.json. A coin flip whose heads threshold moved
// (heads iff r < 40) follows no published mapping and states no rule of its own: its edge is
// empirical, here over 22 bets. Before, the terminal printed a bare point ("9.1%") below 30 bets;
// now the bounded interval (valid for any law of returns up to the top payout, at any number of
// bets) and "undecided", the same cells (edge-cells.ts) in findings.html's edge table, edges.csv
// and edges.json.
// In-process: real loopback listeners, the deployment's wire, the limits lifted, a manual clock.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseDeployedRulesFile } from '../../../src/cli/deployed-rules-file.ts';
import { EDGE_CELL_KEYS, type EdgeCells } from '../../../src/audit/live/edge-cells.ts';
import { edgePercentText } from '../../../src/audit/live/edge-percent.ts';
import { serveDeployedRules } from '../../fixtures/deployed-rules-serve.ts';
import { liveHouseEdge } from '../../fixtures/live-house-edge.ts';
import { htmlEdgeRows, parseCsv, TERMINAL_KEYS, terminalRows } from './edge-outputs.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-intervals-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

interface EdgeRow {
  readonly variant: string;
  readonly edge_source: string;
  readonly edge: number;
  readonly edge_range: [number, number] | null;
  readonly interval_99: [number, number] | null;
  readonly verdict: string;
  readonly shown: EdgeCells;
}

describe('an empirical edge is never a bare point', () => {
  test('22 bets: the interval and "undecided" on the terminal, in findings.html, edges.csv and edges.json alike', async () => {
    const rules = parseDeployedRulesFile('casino: { coin_flip: { heads_below: 40 } }\n', 'heads.yaml');
    if (!rules.ok) throw new Error(rules.message);
    const served = await serveDeployedRules(rules.value);
    try {
      const out = join(DIR, 'coin');
      const run = await liveHouseEdge(served, { args: ['--games', 'coin_flip', '--bets', '22'], seed: '4', out });
      const [row] = (JSON.parse(readFileSync(join(out, 'edges.json'), 'utf8')) as { variants: EdgeRow[] }).variants;
      expect(row?.edge_source, run.text).toBe('empirical');
      const range = row?.edge_range ?? null;
      expect(range).not.toBeNull();
      expect(row?.interval_99).toEqual(range);
      const [low, high] = range as [number, number];
      expect(low).toBeLessThan(row?.edge ?? Number.NaN);
      expect(high).toBeGreaterThan(row?.edge ?? Number.NaN);
      // The point with its interval, and undecided with why: 22 of the 30 bets a verdict needs.
      expect(row?.shown).toMatchObject({
        source: 'empirical',
        edge: edgePercentText(row?.edge ?? 0),
        interval: `[${edgePercentText(low)}, ${edgePercentText(high)}]`,
        bets: expect.stringMatching(/^22\/22\/\d+$/),
        advertised: '0.500% (list)',
        // The word it was held to, and where it was read: the stand-in's game list (its own word).
        word: '0.4999% (house_edge "0.4999%" in GET /api/v1/games)',
        verdict: expect.stringMatching(/^undecided \(22 of 30 bets\); \d+ off mapping$/),
      });
      expect(row?.verdict).toBe(row?.shown.detail);
      expect(row?.verdict).toMatch(/undecided: 22 bets, a verdict from returns needs 30$/);
      // The terminal, edges.csv and findings.html: the same cells.
      const lines = run.text.split('\n');
      const start = lines.findIndex((line) => line.startsWith('game '));
      const table = lines.slice(
        start,
        lines.findIndex((line, index) => index > start && line.startsWith('bets: ')) + 1,
      );
      const shown = row?.shown as EdgeCells;
      expect(terminalRows(table.join('\n'))).toEqual([
        Object.fromEntries(TERMINAL_KEYS.map((key) => [key, shown[key]])),
      ]);
      const [csv] = parseCsv(readFileSync(join(out, 'edges.csv'), 'utf8'));
      expect(Object.fromEntries(EDGE_CELL_KEYS.map((key) => [key, csv?.[`shown_${key}`]]))).toEqual(shown);
      expect(htmlEdgeRows(readFileSync(join(out, 'findings.html'), 'utf8'))).toEqual([
        EDGE_CELL_KEYS.map((key) => shown[key]),
      ]);
    } finally {
      await served.close();
    }
  });
});
