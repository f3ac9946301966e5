// Issue 68 parts 4 and 8: every empirical edge carries its interval, and the four outputs of the
// live house-edge audit (the terminal's table, edges.csv, edges.json, findings.html's edge table)
// show the same cells, built once by edge-cells.ts. Pure: verdicts from judgeVariant over tallies
// made here (or, for the published tier, as the audit states them), no sockets.
import { describe, expect, test } from 'vitest';
import type { EdgeAuditResult } from '../../../src/audit/live/edge-audit.ts';
import { EDGE_CELL_KEYS, edgeCells, NO_BOUND, type EdgeCells } from '../../../src/audit/live/edge-cells.ts';
import { recordEdgeFindings } from '../../../src/audit/live/edge-findings.ts';
import {
  edgeReportTable,
  renderEdgeAuditCsv,
  renderEdgeAuditJson,
  renderEdgeAuditTable,
} from '../../../src/audit/live/edge-table.ts';
import type { VariantOutcome } from '../../../src/audit/live/variant-outcome.ts';
import { AFP_SCHEME } from '../../../src/audit/fairness/afp-scheme.ts';
import { FindingsCollector } from '../../../src/report/findings/finding.ts';
import { renderFindingsHtml } from '../../../src/report/findings/findings-html.ts';
import { htmlEdgeRows, parseCsv, TERMINAL_KEYS, terminalRows } from './edge-outputs.ts';
import { COIN_LAW, empirical, outcome, PUBLISHED, result } from './edge-sample.ts';

/** findings.html's edge table, each row its cells as text. */
function htmlRows(audit: EdgeAuditResult): string[][] {
  const html = renderFindingsHtml({
    command: 'audit house-edge',
    target: { name: 'stand-in', source: 'http://127.0.0.1:9' },
    afpVersion: '0.1.0',
    failOn: 'major',
    findings: [],
    dropped: 0,
    checks: [],
    tables: [edgeReportTable(audit)],
  });
  return htmlEdgeRows(html);
}

/** Every output's cells for the audit, checked equal to edgeCells cell by cell; returns them. */
function agreeingCells(audit: EdgeAuditResult): EdgeCells[] {
  const cells = audit.variants.map(edgeCells);
  expect(terminalRows(renderEdgeAuditTable(audit))).toEqual(
    cells.map((row) => Object.fromEntries(TERMINAL_KEYS.map((key) => [key, row[key]]))),
  );
  const csv = parseCsv(renderEdgeAuditCsv(audit));
  expect(csv.map((row) => Object.fromEntries(EDGE_CELL_KEYS.map((key) => [key, row[`shown_${key}`]])))).toEqual(cells);
  expect(csv.map((row) => row.verdict)).toEqual(cells.map((row) => row.detail));
  const json = JSON.parse(renderEdgeAuditJson(audit, {})) as { variants: Array<{ shown: EdgeCells; verdict: string }> };
  expect(json.variants.map((variant) => variant.shown)).toEqual(cells);
  expect(json.variants.map((variant) => variant.verdict)).toEqual(cells.map((row) => row.detail));
  expect(htmlRows(audit)).toEqual(cells.map((row) => EDGE_CELL_KEYS.map((key) => row[key])));
  return cells;
}

describe('every empirical edge carries its interval, in all four outputs alike', () => {
  test('22 bets: the point, its bounded interval and "undecided (22 of 30 bets)", never a bare point', () => {
    const verdict = empirical(22, 10, COIN_LAW);
    expect(verdict).toMatchObject({ edgeSource: 'empirical', rule: 'unknown', returnBound: 1.99 });
    const [low, high] = verdict.statedRange ?? [Number.NaN, Number.NaN];
    expect(low).toBeLessThan(0.005);
    expect(high).toBeGreaterThan(0.005);
    const audit = result([outcome('heads', verdict)]);
    const [cells] = agreeingCells(audit);
    expect(cells).toMatchObject({
      source: 'empirical',
      edge: '9.545%',
      interval: `[${(low * 100).toFixed(3)}%, ${(high * 100).toFixed(3)}%]`,
      bets: '22/22/0',
      advertised: '0.500% (documents)',
      word: "0.5% (the documents')",
      verdict: 'undecided (22 of 30 bets); not replayed',
      detail: 'not replayed; undecided: 22 bets, a verdict from returns needs 30',
    });
    // The CSV's figures are the interval's too, at 8 decimals, as edges.json's interval_99.
    const [row] = parseCsv(renderEdgeAuditCsv(audit));
    expect([row?.low, row?.high]).toEqual([low.toFixed(8), high.toFixed(8)]);
    const [variant] = (JSON.parse(renderEdgeAuditJson(audit, {})) as { variants: Array<{ interval_99: number[] }> })
      .variants;
    expect(variant?.interval_99).toEqual([low, high]);
  });

  test('past 30 bets an interval that holds the word is still undecided, and says why in full', () => {
    const audit = result([outcome('heads', empirical(60, 30, COIN_LAW))]);
    const [cells] = agreeingCells(audit);
    expect(cells?.interval).toMatch(/^\[-?\d+\.\d{3}%, \d+\.\d{3}%\]$/);
    expect(cells?.verdict).toBe('undecided; not replayed');
    expect(cells?.detail).toBe('not replayed; undecided: its interval holds the advertised edge');
  });

  test('without a published law nothing bounds the returns: the point with "no bound: decides nothing"', () => {
    const audit = result([outcome('few', empirical(22, 10, null)), outcome('many', empirical(40, 20, null))]);
    const [few, many] = agreeingCells(audit);
    expect(few).toMatchObject({ edge: '9.545%', interval: 'none (no bound)', verdict: `${NO_BOUND}; not replayed` });
    expect(many?.interval).toMatch(/^\[-?\d+\.\d{3}%, \d+\.\d{3}%\] sample's \(no bound\)$/);
    expect(many?.verdict).toBe(`${NO_BOUND}; not replayed`);
    expect(many?.detail).toBe(`not replayed; ${NO_BOUND}`);
  });

  test('a published-tier variant shows its exact edge as before, and the table still fits 120 columns', () => {
    const audit = result([outcome('heads', PUBLISHED), outcome('tails', empirical(22, 10, COIN_LAW))]);
    const [published] = agreeingCells(audit);
    expect(published).toMatchObject({
      source: 'published',
      edge: '0.500%',
      interval: 'exact',
      bets: '400/400/400',
      verdict: 'matches advertised',
      detail: 'matches advertised',
    });
    for (const line of renderEdgeAuditTable(audit).split('\n')) expect(line.length).toBeLessThanOrEqual(120);
  });

  test("a finding that quotes an empirical edge quotes its interval: the scheme finding's seen", () => {
    const verdict = { ...empirical(22, 10, COIN_LAW), cause: 'mapping' as const };
    const audit = result([outcome('heads', verdict, { brokeMapping: 4, followedMapping: 18 })]);
    const collector = new FindingsCollector();
    recordEdgeFindings(collector, audit, AFP_SCHEME);
    const scheme = collector.list().find((finding) => finding.id === 'rule:coin_flip:scheme');
    const cells = edgeCells(audit.variants[0] as VariantOutcome);
    expect(scheme?.seen).toBe(`edge measured empirically: coin_flip:heads ${cells.edge} ${cells.interval}`);
  });
});
