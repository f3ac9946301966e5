// load.html in a real browser: Debian's headless Chromium opens the page from file:// (no script
// on it, so the dumped DOM is the parse). With hostile endpoint, check and scenario names, the
// first table must be the summary, the thresholds table one row of five cells per threshold with
// the names as the text given (markup stayed text), and the four charts SVG elements holding their
// lines. A run whose thresholds all pass (no red cell) is screenshotted: the coloured pixels there
// are the charts' lines, so the SVG was drawn. Chromium missing fails the test, unless
// Skipped without Chromium, never on CI (test/report/chromium-presence.ts).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { renderLoadHtml } from '../../src/load/report/load-html.ts';
import { boundedText } from '../../src/report/html/html-text.ts';
import {
  CHROMIUM_SKIPPED,
  CHROMIUM_TIMEOUT_MS,
  chromiumArgs,
  decodePng,
  requireChromium,
  runChromium,
  waitForNoProcessWith,
} from '../report/chromium.ts';
import { hostileReport, reportOf, smallSnapshot } from './report-fixture.ts';

const WINDOW = { width: 1280, height: 2600 } as const;

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
  return boundedText(text, 300).replace(/\r\n?/g, '\n');
}

describe('load.html in headless Chromium', () => {
  test.skipIf(CHROMIUM_SKIPPED)(
    'hostile names stay text; summary first, thresholds in order, four SVG charts drawn',
    { timeout: 3 * CHROMIUM_TIMEOUT_MS },
    async () => {
      const chromium = requireChromium();
      const directory = mkdtempSync(join(tmpdir(), 'afp-load-html-'));
      directories.push(directory);
      const hostile = hostileReport();
      const hostilePage = join(directory, 'hostile.html');
      writeFileSync(hostilePage, renderLoadHtml(hostile));
      const passingPage = join(directory, 'passing.html');
      writeFileSync(
        passingPage,
        renderLoadHtml(reportOf(smallSnapshot(), { http_req_duration: ['p(99)<1000'], checks: ['rate>0.5'] })),
      );

      const dom = (
        await runChromium(chromium, [...chromiumArgs(directory, WINDOW), '--dump-dom', `file://${hostilePage}`])
      ).stdout;
      const shot = join(directory, 'shot.png');
      await runChromium(chromium, [
        ...chromiumArgs(directory, WINDOW),
        `--screenshot=${shot}`,
        `file://${passingPage}`,
      ]);

      expect(dom.match(/<script/g), 'no element built from the names').toBeNull();
      const tables = [...dom.matchAll(/<table id="([^"]+)"/g)].map((match) => match[1]);
      expect(tables).toEqual(['summary', 'thresholds', 'endpoints', 'checks']);
      const thresholdRows = [...dom.matchAll(/<tr class="threshold">([\s\S]*?)<\/tr>/g)].map((match) =>
        [...(match[1] ?? '').matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) => textOf(cell[1] ?? '')),
      );
      expect(thresholdRows.map((row) => row.length)).toEqual([5, 5]);
      expect(thresholdRows.map((row) => row[0])).toEqual(hostile.thresholds.map((result) => shown(result.metric)));
      const endpointNames = [...dom.matchAll(/<tr class="endpoint"><td[^>]*>([\s\S]*?)<\/td>/g)].map((match) =>
        textOf(match[1] ?? ''),
      );
      expect(endpointNames).toEqual(hostile.snapshot.endpoints.map((row) => shown(row.endpoint)));
      const charts = [...dom.matchAll(/<svg class="chart" id="([^"]+)"[\s\S]*?<\/svg>/g)];
      expect(charts.map((match) => match[1])).toEqual([
        'chart-latency',
        'chart-throughput',
        'chart-errors',
        'chart-distribution',
      ]);
      expect(charts.map((match) => (match[0].match(/<polyline class="series"/g) ?? []).length)).toEqual([3, 2, 1, 3]);

      const decoded = decodePng(readFileSync(shot));
      expect({ width: decoded.width, height: decoded.height }).toEqual(WINDOW);
      expect(decoded.colouredPixels, 'coloured pixels (the chart lines) in the screenshot').toBeGreaterThan(4_000);
      expect(await waitForNoProcessWith(directory), 'chromium processes left running').toEqual([]);
    },
  );
});
