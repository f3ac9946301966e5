// findings.html in a real browser: the sample report with hostile text in every field, opened by
// Debian's headless Chromium from file:// (no script on the page, so the dumped DOM is the parse).
// The first table of the parsed page must be the summary of the findings to act on, one row of
// five cells per finding, the titles in the report's order and equal to the text given (markup
// stayed text: the parser built no element from it), the curl lines inside <code>; info findings
// folded in a <details>; the screenshot must decode to the window size and show the severity
// colours. The house-edge audit's per-variant edge table parses to the cells edge-cells.ts built.
// At a laptop's 1366 px the page must not overflow sideways, even with 260-character unbroken ids,
// evidence and curl lines, and with the edge table (a page built to overflow shows the check can see it).
// Skipped without Chromium, never on CI (test/report/chromium-presence.ts).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { boundedText } from '../../../src/report/html/html-text.ts';
import { renderFindingsHtml } from '../../../src/report/findings/findings-html.ts';
import { sortedFindings } from '../../../src/report/findings/findings-report.ts';
import {
  CHROMIUM_SKIPPED,
  CHROMIUM_TIMEOUT_MS,
  chromiumArgs,
  decodePng,
  requireChromium,
  runChromium,
  waitForNoProcessWith,
} from '../chromium.ts';
import { HOSTILE, sampleReport } from './fixture.ts';
import { EDGE_CELL_KEYS, edgeCells } from '../../../src/audit/live/edge-cells.ts';
import { edgeReportTable } from '../../../src/audit/live/edge-table.ts';
import { sampleEdgeAudit } from '../../live/audit/edge-sample.ts';

const WINDOW = { width: 1280, height: 1400 } as const;
const LAPTOP = { width: 1366, height: 900 } as const;

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

/** Text of serialised DOM markup: Chromium escapes &, <, > and no-break spaces in text nodes. */
function textOf(markup: string): string {
  return markup
    .replace(/<[^>]*>/g, '')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&nbsp;', '\u00a0')
    .replaceAll('&amp;', '&');
}

/** What the page shows for a text: capped and cleaned by boundedText, line breaks normalised by the parser. */
function shown(text: string): string {
  return boundedText(text, 2_000).replace(/\r\n?/g, '\n');
}

describe('findings.html in headless Chromium', () => {
  test.skipIf(CHROMIUM_SKIPPED)(
    'the page renders and opens with the summary table, titles in order',
    { timeout: 3 * CHROMIUM_TIMEOUT_MS },
    async () => {
      const chromium = requireChromium();
      const report = sampleReport({ hostile: HOSTILE });
      const directory = mkdtempSync(join(tmpdir(), 'afp-findings-html-'));
      directories.push(directory);
      const page = join(directory, 'findings.html');
      writeFileSync(page, renderFindingsHtml(report));
      const dom = await runChromium(chromium, [...chromiumArgs(directory, WINDOW), '--dump-dom', `file://${page}`]);
      const shot = join(directory, 'shot.png');
      await runChromium(chromium, [...chromiumArgs(directory, WINDOW), `--screenshot=${shot}`, `file://${page}`]);

      const firstTable = /<table[^>]*>[\s\S]*?<\/table>/.exec(dom.stdout)?.[0] ?? '';
      expect(firstTable.startsWith('<table id="findings">'), 'the first table is the summary').toBe(true);
      expect(dom.stdout.match(/<script/g), 'no element built from the findings').toBeNull();
      const rows = [...firstTable.matchAll(/<tr class="finding">([\s\S]*?)<\/tr>/g)].map((match) => match[1] ?? '');
      expect(rows.map((row) => row.match(/<td[ >]/g)?.length)).toEqual([5, 5, 5]);
      const findings = sortedFindings(report).filter((finding) => finding.severity !== 'info');
      const folded = /<details id="info">[\s\S]*?<\/details>/.exec(dom.stdout)?.[0] ?? '';
      expect([...folded.matchAll(/<tr class="finding">/g)]).toHaveLength(1);
      const titles = rows.map((row) => textOf(/<span class="title">([\s\S]*?)<\/span>/.exec(row)?.[1] ?? ''));
      expect(titles).toEqual(findings.map((finding) => shown(finding.title)));
      const codes = rows
        .map((row) => /<code>([\s\S]*?)<\/code>/.exec(row)?.[1])
        .map((code) => (code === undefined ? undefined : textOf(code)));
      expect(codes).toEqual(findings.map((finding) => finding.reproduce));

      const decoded = decodePng(readFileSync(shot));
      expect({ width: decoded.width, height: decoded.height }).toEqual(WINDOW);
      expect(decoded.colouredPixels, 'coloured pixels (the severity cells) in the screenshot').toBeGreaterThan(2_000);
      expect(await waitForNoProcessWith(directory), 'chromium processes left running').toEqual([]);
    },
  );

  test.skipIf(CHROMIUM_SKIPPED)(
    "the per-variant edge table: parsed, each row's cells are edge-cells.ts's (the interval, undecided, no bound)",
    { timeout: 2 * CHROMIUM_TIMEOUT_MS },
    async () => {
      const chromium = requireChromium();
      const audit = sampleEdgeAudit();
      const report = { ...sampleReport({ hostile: HOSTILE }), tables: [edgeReportTable(audit)] };
      const directory = mkdtempSync(join(tmpdir(), 'afp-findings-edges-'));
      directories.push(directory);
      const page = join(directory, 'findings.html');
      writeFileSync(page, renderFindingsHtml(report));
      const dom = await runChromium(chromium, [...chromiumArgs(directory, WINDOW), '--dump-dom', `file://${page}`]);
      const section = /<section id="edges">[\s\S]*?<\/section>/.exec(dom.stdout)?.[0] ?? '';
      expect(section, 'the edge table follows the findings to act on').toContain('<table id="edges-table">');
      const rows = [...section.matchAll(/<tr>([\s\S]*?)<\/tr>/g)]
        .slice(1)
        .map((row) => [...(row[1] ?? '').matchAll(/<td>([\s\S]*?)<\/td>/g)].map((cell) => textOf(cell[1] ?? '')));
      const cells = audit.variants.map(edgeCells);
      expect(rows).toEqual(cells.map((row) => EDGE_CELL_KEYS.map((key) => row[key])));
      expect(rows.map((row) => row[8])).toEqual([
        'matches advertised',
        'undecided (22 of 30 bets); not replayed',
        'no bound: decides nothing; not replayed',
      ]);
      expect(await waitForNoProcessWith(directory), 'chromium processes left running').toEqual([]);
    },
  );

  test.skipIf(CHROMIUM_SKIPPED)(
    'at 1366 px wide the page does not overflow sideways, even with 260-character unbroken cells',
    { timeout: 3 * CHROMIUM_TIMEOUT_MS },
    async () => {
      const chromium = requireChromium();
      const long = 'f'.repeat(260);
      const base = sampleReport({ hostile: HOSTILE });
      const findings = base.findings.map((finding, index) => ({
        ...finding,
        id: `${finding.id}:${long}`,
        evidence: `${finding.evidence} ${long}`,
        ...(index === 0 ? { reproduce: `curl -sS 'http://127.0.0.1:9/${long}${long}'` } : {}),
      }));
      const report = {
        ...base,
        tables: [edgeReportTable(sampleEdgeAudit())],
        findings,
        checks: base.checks.map((check) => ({ ...check, detail: `${check.detail ?? ''}${long}` })),
      };
      const directory = mkdtempSync(join(tmpdir(), 'afp-findings-width-'));
      directories.push(directory);
      const shots = { page: join(directory, 'page.png'), control: join(directory, 'control.png') };
      const page = join(directory, 'findings.html');
      writeFileSync(page, renderFindingsHtml(report));
      // The control: a page whose one line of unbroken text is wider than the window.
      const control = join(directory, 'control.html');
      writeFileSync(
        control,
        `<!doctype html><html><body style="margin:8px"><p style="white-space:nowrap">${long.repeat(4)}</p></body></html>`,
      );
      await runChromium(chromium, [...chromiumArgs(directory, LAPTOP), `--screenshot=${shots.page}`, `file://${page}`]);
      await runChromium(chromium, [
        ...chromiumArgs(directory, LAPTOP),
        `--screenshot=${shots.control}`,
        `file://${control}`,
      ]);
      const shown = decodePng(readFileSync(shots.page));
      expect(shown.width).toBe(LAPTOP.width);
      expect(
        decodePng(readFileSync(shots.control)).rightmostInkX,
        'the control overflows to the window edge',
      ).toBeGreaterThanOrEqual(LAPTOP.width - 2);
      expect(shown.rightmostInkX, 'nothing drawn in the right margin: no cell wider than the page').toBeLessThan(
        LAPTOP.width - 16,
      );
      expect(shown.rightmostInkX, 'the page shows something').toBeGreaterThan(LAPTOP.width / 2);
      expect(await waitForNoProcessWith(directory), 'chromium processes left running').toEqual([]);
    },
  );
});
