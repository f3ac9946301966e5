// The house-edge audit's renderings: the same seed gives the same bytes (table, CSV, JSON); the
// table's columns and the CSV header are pinned; JSON carries exact edges and the points.
import { describe, expect, it } from 'vitest';
import { simulateHouseEdge } from '../../../src/audit/edge/edge-simulation.ts';
import {
  edgeJson,
  integerDigits,
  renderEdgeCsv,
  renderEdgeJson,
  renderEdgeTable,
} from '../../../src/audit/report/edge-table.ts';
import { ratio } from '../../../src/core/ratio.ts';
import { coinFixture, heavyFixture } from '../../audit/edge-fixtures.ts';

const games = [coinFixture({ advertised: ratio(5n, 1000n) }), heavyFixture()];
const run = (seed: number): ReturnType<typeof simulateHouseEdge> =>
  simulateHouseEdge({ games, betsPerGame: 3_000, seed });

describe('edge table renderings', () => {
  it('are byte-stable for a seed and differ for another', () => {
    const [first, again, other] = [run(5), run(5), run(6)];
    for (const render of [renderEdgeTable, renderEdgeCsv, renderEdgeJson]) {
      expect(render(again)).toBe(render(first));
      expect(render(other)).not.toBe(render(first));
    }
  });

  it('prints the pinned text table', () => {
    expect(renderEdgeTable(run(5))).toBe(
      [
        'house edge: seed 5, 3,000 bets per game, 99% intervals',
        'variant     advertised  theoretical  empirical  99% interval            bets          bets needed  verdict     model     jackpot',
        'coin:heads      0.500%       2.000%     0.955%  [-5.565%, 7.474%]      1,500              113,283  unresolved  pass   758/750.00',
        'coin:tails      0.500%       2.000%     4.744%  [-1.774%, 11.262%]     1,500              113,283  unresolved  pass   729/750.00',
        'jackpot         3.000%       2.999%    17.413%  [-131.355%, 166.182%]  3,000  266,000,000,000,000  unresolved  pass       0/0.03',
        '',
      ].join('\n'),
    );
  });

  it('writes a CSV with the pinned header and one line per variant', () => {
    const lines = renderEdgeCsv(run(5)).split('\n');
    expect(lines[0]).toBe(
      'game,variant,advertised_text,advertised_edge,advertised_edge_exact,theoretical_edge,theoretical_edge_exact,theoretical_sigma,bets,empirical_edge,low,high,sigma,reference,verdict,model,bets_needed,jackpot_multiplier,jackpot_probability,jackpot_expected_hits,jackpot_hits',
    );
    expect(lines).toHaveLength(5);
    expect(lines[3]?.startsWith('keno,jackpot,about 3%,0.03000000,3/100,0.02999000,2999/100000,')).toBe(true);
  });

  it('writes bets needed as whole digits in every row, never in exponent form', () => {
    expect(integerDigits(113_283)).toBe('113283');
    expect(integerDigits(2.6612e14)).toBe('266000000000000');
    expect(integerDigits(1.5e30)).toBe(`150${'0'.repeat(28)}`);
    const needed = renderEdgeCsv(run(5))
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',')[16]);
    expect(needed).toEqual(['113283', '113283', '266000000000000']);
  });

  it('gives JSON the exact edges, the verdicts and the points', () => {
    const json = edgeJson(run(5)) as { rows: Array<Record<string, unknown>> };
    expect(json.rows[0]).toMatchObject({
      game: 'coin_flip',
      variant: 'coin:heads',
      advertised_edge: 0.005,
      advertised_edge_exact: '1/200',
      theoretical_edge: 0.02,
      theoretical_edge_exact: '1/50',
      bets: 1500,
      verdict: 'unresolved',
      model: 'pass',
      bets_needed: 113283,
    });
    expect((json.rows[0]?.['points'] as unknown[] | undefined)?.length).toBe(5);
    expect(renderEdgeJson(run(5)).endsWith('}\n')).toBe(true);
  });
});
