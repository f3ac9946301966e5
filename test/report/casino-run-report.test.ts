// The casino files of `afp run`: casino.csv, report.html and summary.json's casino section are
// written for a run that placed casino bets — byte-stable for a seed, one edge chart per game
// with bets (one variant each here) plus the bankroll chart — and a run without casino bets
// writes (and digests) exactly the files it did before they existed.
import { describe, expect, test } from 'vitest';
import { renderReports } from '../../src/report/write-reports.ts';
import { scenarioFromTable } from '../../src/agent/load-scenario.ts';
import { runScenarioWith } from '../../src/sim/runner.ts';
import { AGENTS } from '../../agents/index.ts';

const ALL = ['summary', 'agents', 'endpoints', 'escrows', 'events', 'casino', 'html'] as const;
const BEFORE_CASINO = ['summary', 'agents', 'endpoints', 'escrows', 'events'] as const;

const CASINO = `
name: casino-report
duration: 4h
populations:
  - { agent: batch-bettor, count: 3, tier: pro, params: { every: 1m, mix: [{ game: dice, params: { direction: over, threshold: 30 } }, { game: crash, params: { cash_out_at: 2 } }] } }
  - { agent: fixed-bettor, count: 2, params: { game: roulette, params: { bet_type: even }, amount: 0.05, every: 2m } }
  - { agent: martingale, count: 2, params: { game: coin_flip, base: 0.02, max_doublings: 5, every: 2m } }
  - { agent: challenger, count: 2, params: { every: 30m } }
casino: { starting_deposit: '40.00', closures: [{ game: roulette, from: 1h, for: 15m }] }
`;

function text(files: readonly { file: string; text: string }[], name: string): string {
  const found = files.find((file) => file.file === name);
  expect(found, name).toBeDefined();
  return found?.text ?? '';
}

describe('casino reports of afp run', () => {
  test('casino.csv, report.html and the summary section are byte-stable for a seed; one chart per game with bets', async () => {
    const scenario = scenarioFromTable(CASINO, { agents: AGENTS });
    const first = renderReports(await runScenarioWith(scenario, { agents: AGENTS, seed: 3 }), ALL);
    const second = renderReports(await runScenarioWith(scenario, { agents: AGENTS, seed: 3 }), ALL);
    expect(second.digest).toBe(first.digest);
    expect(second.files).toEqual(first.files);
    expect(first.files.map((file) => file.file)).toEqual([
      'agents.csv',
      'endpoints.csv',
      'escrows.csv',
      'events.jsonl',
      'casino.csv',
      'report.html',
      'summary.json',
    ]);

    const csv = text(first.files, 'casino.csv').trimEnd().split('\n');
    expect(csv[0]).toBe(
      'game,variant,bets,wagered,returned,money_edge,empirical_edge,low,high,advertised_text,advertised_edge,theoretical_edge,verdict,model,bets_needed',
    );
    expect(csv.slice(1).map((line) => line.split(',').slice(0, 2).join(','))).toEqual([
      'coin_flip,coin_flip:heads',
      'dice,dice:over:30',
      'roulette,roulette:even',
      'crash,crash:2',
    ]);
    expect(csv[4]).toMatch(
      /^crash,crash:2,\d+,\d+\.\d{6},\d+\.\d{6},-?0\.\d{8},-?0\.\d{8},-?0\.\d{8},0\.\d{8},0\.5%,0\.00500000,0\.00500000,consistent,pass,$/,
    );

    const html = text(first.files, 'report.html');
    const data = JSON.parse(
      /<script type="application\/json" id="[^"]+">(.*?)<\/script>/s.exec(html)?.[1] ?? 'null',
    ) as { games: { title: string }[]; bankroll: { lines: { label: string }[] } | null };
    expect(data.games.map((chart) => chart.title)).toEqual([
      'Coin Flip — coin_flip:heads',
      'Dice — dice:over:30',
      'Roulette — roulette:even',
      'Crash — crash:2',
    ]);
    expect(html.match(/<svg class="chart"/g)?.length).toBe(data.games.length + 1);
    expect(data.bankroll?.lines.map((line) => line.label)).toEqual([
      'batch-bettor (3 agents)',
      'fixed-bettor (2 agents)',
      'martingale (2 agents)',
    ]);
    // The summary table opens the report and lists every variant casino.csv lists.
    const summaryTable = /<table id="summary-table">[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
    expect([...summaryTable.matchAll(/<tr><td>[^<]*<\/td><td>([^<]*)<\/td>/g)].map((match) => match[1])).toEqual([
      'coin_flip:heads',
      'dice:over:30',
      'roulette:even',
      'crash:2',
    ]);
    expect(html.indexOf('<section id="summary">')).toBeLessThan(html.indexOf('<section id="games">'));

    const summary = JSON.parse(text(first.files, 'summary.json')) as {
      casino: { bets: number; closures: unknown[]; variants: { variant: string; verdict: string }[] };
      files: Record<string, string>;
    };
    expect(summary.casino.bets).toBe(Number(csv.slice(1).reduce((sum, line) => sum + Number(line.split(',')[2]), 0)));
    expect(summary.casino.closures).toEqual([
      { game: 'roulette', from: '2026-01-01T01:00:00.000Z', until: '2026-01-01T01:15:00.000Z' },
    ]);
    expect(Object.keys(summary.files)).toContain('report.html');
  });

  test('a run without casino bets writes and digests exactly the files it did before', async () => {
    const record = await runScenarioWith(
      scenarioFromTable(
        'name: plain\nduration: 1d\npopulations:\n  - { agent: faucet-farmer, count: 5, style: mixed }\n',
        { agents: AGENTS },
      ),
      { agents: AGENTS, seed: 3 },
    );
    expect(record.casino).toBeUndefined();
    const all = renderReports(record, ALL);
    const before = renderReports(record, BEFORE_CASINO);
    expect(all.digest).toBe(before.digest);
    expect(all.files.map((file) => file.file)).toEqual([
      'agents.csv',
      'endpoints.csv',
      'escrows.csv',
      'events.jsonl',
      'summary.json',
    ]);
    expect(text(all.files, 'summary.json')).not.toContain('"casino"');
  });
});
