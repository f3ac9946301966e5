// Issue 68 parts 4 and 8: every empirical edge carries its interval, and the report's per-variant
// edge table says the same as the terminal and edges.json. A coin flip whose heads threshold moved
// (heads iff r < 40) follows no published mapping and states no rule of its own: its edge is
// empirical, here over 22 bets. Before, the terminal printed a bare point ("9.1%") below 30 bets;
// now the bounded interval (valid for any law of returns up to the top payout, at any number of
// bets) and "undecided", the same figures in findings.html's edge table and edges.json.
// In-process: real loopback listeners, the deployment's wire, the limits lifted, a manual clock.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseDeployedRulesFile } from '../../../src/cli/deployed-rules-file.ts';
import { percent } from '../../../src/live/audit/edge-findings.ts';
import { serveDeployedRules } from '../../fixtures/deployed-rules-serve.ts';
import { liveHouseEdge } from '../../fixtures/live-house-edge.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-intervals-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

interface EdgeRow {
  readonly variant: string;
  readonly edge_source: string;
  readonly edge: number;
  readonly edge_range: [number, number] | null;
  readonly interval_99: [number, number] | null;
  readonly verdict: string;
}

describe('an empirical edge is never a bare point', () => {
  test('22 bets: the interval and "undecided" on the terminal, in findings.html and in edges.json alike', async () => {
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
      const shown = `${percent(row?.edge ?? 0)} [${percent(low)}, ${percent(high)}]`;
      // The terminal: the point with its interval, and undecided.
      expect(run.text).toMatch(
        new RegExp(
          `^coin_flip +heads +empirical +${escape(shown)} +22/22/\\d+ +0\\.500% \\(list\\) +.*undecided$`,
          'm',
        ),
      );
      // The page: the same figures and verdict in its edge table.
      const html = readFileSync(join(out, 'findings.html'), 'utf8');
      const table = /<section id="edges">[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
      expect(table).toContain('<td>empirical</td>');
      expect(table).toContain(`<td>${percent(row?.edge ?? 0)}</td>`);
      expect(table).toContain(`<td>[${percent(low)}, ${percent(high)}]</td>`);
      expect(table).toContain(`<td>${row?.verdict}</td>`);
      expect(row?.verdict).toMatch(/undecided$/);
      // The word it was held to, and where it was read: the stand-in's game list (its own word).
      expect(table).toMatch(/<td>0\.4999% \(house_edge &quot;0\.4999%&quot; in GET \/api\/v1\/games\)<\/td>/);
    } finally {
      await served.close();
    }
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
