// findings.json, findings.csv and findings.html from the same report, and the writer that puts the
// four files in a directory: the exact JSON of a small report, the CSV read back by an RFC 4180
// reader (quotes, commas and line breaks inside cells), HTML escaping of hostile text, byte-stable
// output whatever order the findings come in, and files on disk equal to the renderers' text.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { Finding } from '../../../src/report/findings/finding.ts';
import { renderFindingsCsv, spreadsheetText } from '../../../src/report/findings/findings-csv.ts';
import { renderFindingsHtml } from '../../../src/report/findings/findings-html.ts';
import { renderFindingsJson } from '../../../src/report/findings/findings-json.ts';
import { renderFindingsJunit } from '../../../src/report/findings/findings-junit.ts';
import type { FindingsReport } from '../../../src/report/findings/findings-report.ts';
import { readAfpVersion } from '../../../src/report/afp-version.ts';
import { writeFindingsReports } from '../../../src/report/findings/write-findings.ts';
import { HOSTILE, sampleReport } from './fixture.ts';

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

/** RFC 4180: fields separated by commas, records by LF, `"` quotes a field and `""` is a quote in it. */
function readCsv(text: string): string[][] {
  const records: string[][] = [];
  const record: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const character = text[index] as string;
    if (quoted && character === '"' && text[index + 1] === '"') {
      field += '"';
      index++;
    } else if (character === '"' && (quoted || field === '')) {
      quoted = !quoted;
    } else if (quoted || (character !== ',' && character !== '\n')) {
      field += character;
    } else {
      record.push(field);
      field = '';
      if (character === '\n') records.push(record.splice(0));
    }
  }
  expect({ quoted, rest: field + record.join(',') }, 'the text ends with a complete record').toEqual({
    quoted: false,
    rest: '',
  });
  return records;
}

const SMALL: FindingsReport = {
  command: 'check',
  target: { name: 'local', source: 'http://127.0.0.1:8080' },
  failOn: 'critical',
  dropped: 2,
  checks: [{ name: 'bet shape', status: 'finding', findingIds: ['shape:casino.bet:missing:ok'] }],
  findings: [
    {
      id: 'shape:casino.bet:missing:ok',
      severity: 'minor',
      kind: 'shape',
      title: '`ok` is missing',
      field: 'ok',
      expected: true,
      seen: null,
      evidence: 'POST /bet answered 200',
      count: 2,
    },
  ],
};

describe('findings.json', () => {
  test('the verdict first, then the header, checks and findings; absent optional fields null, no seed or version when not given', () => {
    expect(renderFindingsJson(SMALL)).toBe(`{
  "verdict": [
    "verdict: passed — nothing at or above --fail-on critical: 0 critical, 0 major, 1 minor",
    "  minor shape:casino.bet:missing:ok: \`ok\` is missing (×2)"
  ],
  "failure": null,
  "command": "check",
  "target": {
    "name": "local",
    "source": "http://127.0.0.1:8080"
  },
  "failOn": "critical",
  "counts": {
    "critical": 0,
    "major": 0,
    "minor": 1,
    "info": 0
  },
  "reachingFailOn": 0,
  "dropped": 2,
  "checks": [
    {
      "name": "bet shape",
      "group": null,
      "status": "finding",
      "findingIds": [
        "shape:casino.bet:missing:ok"
      ],
      "detail": null
    }
  ],
  "findings": [
    {
      "id": "shape:casino.bet:missing:ok",
      "severity": "minor",
      "kind": "shape",
      "title": "\`ok\` is missing",
      "endpoint": null,
      "field": "ok",
      "expected": true,
      "seen": null,
      "evidence": "POST /bet answered 200",
      "reproduce": null,
      "count": 2,
      "examples": [
        "POST /bet answered 200"
      ]
    }
  ]
}
`);
  });

  test('the sample: seed and version in the header, findings most severe first, hostile text read back exactly', () => {
    const report = sampleReport({ hostile: HOSTILE });
    const parsed = JSON.parse(renderFindingsJson(report)) as {
      seed: string;
      afpVersion: string;
      counts: object;
      reachingFailOn: number;
      findings: Finding[];
    };
    expect(Object.keys(parsed)).toEqual([
      'verdict',
      'failure',
      'command',
      'target',
      'seed',
      'afpVersion',
      'failOn',
      'counts',
      'reachingFailOn',
      'dropped',
      'checks',
      'findings',
    ]);
    // The verdict lists what to act on; the info finding is only counted (folded).
    expect((parsed as unknown as { verdict: string[] }).verdict).toEqual([
      'verdict: FAILED — 2 of 4 findings at or above --fail-on major: 1 critical, 1 major, 1 minor; 1 info, folded',
      `  critical money:withdraw:overdraw: a withdrawal above the balance was accepted ${HOSTILE}`,
      '  major edge:dice:over-50: dice over 50: empirical edge 4.1% where 1% is advertised',
      '  minor limit:casino.bet:no-retry-after: =HYPERLINK("http://evil") 429 without Retry-After',
    ]);
    expect([parsed.seed, parsed.afpVersion, parsed.counts, parsed.reachingFailOn]).toEqual([
      '42',
      '0.1.0',
      { critical: 1, major: 1, minor: 1, info: 1 },
      2,
    ]);
    expect(parsed.findings.map((finding) => [finding.severity, finding.count])).toEqual([
      ['critical', 1],
      ['major', 1],
      ['minor', 1],
      ['info', 3],
    ]);
    expect(parsed.findings[0]?.seen).toEqual({ status: 200, body: { note: HOSTILE } });
    expect(parsed.findings[0]?.title.endsWith(HOSTILE)).toBe(true);
  });
});

describe('findings.csv', () => {
  test('one row per finding under the header; quotes, commas and line breaks read back; JSON cells are JSON', () => {
    const report = sampleReport({ hostile: 'with "quotes", commas,\nand a line break' });
    const rows = readCsv(renderFindingsCsv(report));
    expect(rows[0]).toEqual([
      'severity',
      'kind',
      'id',
      'title',
      'endpoint',
      'field',
      'expected',
      'seen',
      'evidence',
      'reproduce',
      'count',
      'examples',
    ]);
    expect(rows.slice(1).map((row) => row.length)).toEqual([12, 12, 12, 12]);
    const [severity, kind, id, title, endpoint, field, expected, seen, evidence, reproduce, count, examples] =
      rows[1] ?? [];
    expect(JSON.parse(examples ?? '')).toEqual([evidence]);
    expect([severity, kind, id, endpoint, field, count]).toEqual([
      'critical',
      'money',
      'money:withdraw:overdraw',
      'casino.withdraw',
      '',
      '1',
    ]);
    expect(title).toBe('a withdrawal above the balance was accepted with "quotes", commas,\nand a line break');
    expect([JSON.parse(expected ?? ''), JSON.parse(seen ?? '')]).toEqual([
      { status: '4xx' },
      { status: 200, body: { note: 'with "quotes", commas,\nand a line break' } },
    ]);
    expect(evidence).toBe('withdrew 5 with balance 1; answer with "quotes", commas,\nand a line break');
    expect(reproduce).toContain(`--data '{"amount":5,"note":"with \\"quotes\\", commas,\\nand a line break"}'`);
    expect(rows[4]?.slice(6, 8)).toEqual(['"new_balance"', '"balance"']);
  });

  test('a text cell a spreadsheet would evaluate starts with a quote; control characters are replaced', () => {
    const rows = readCsv(renderFindingsCsv(sampleReport()));
    expect(rows[3]?.[3]).toBe(`'=HYPERLINK("http://evil") 429 without Retry-After`);
    expect(rows[3]?.[8]).toBe(`'-3 requests waited the default`);
    expect(rows[3]?.[7]).toBe('null');
    expect(['+1', '@x', '\tx', '\uff1dx', 'x=1', '\u0000a\ud800'].map(spreadsheetText)).toEqual([
      "'+1",
      "'@x",
      "'\tx",
      "'\uff1dx",
      'x=1',
      '\ufffda\ufffd',
    ]);
  });

  test('an empty report is the header alone', () => {
    expect(renderFindingsCsv({ ...SMALL, findings: [], checks: [] })).toBe(
      'severity,kind,id,title,endpoint,field,expected,seen,evidence,reproduce,count,examples\n',
    );
  });
});

describe('findings.html', () => {
  test('hostile text is escaped everywhere: no markup from the target reaches the page', () => {
    const report = {
      ...sampleReport({ hostile: HOSTILE }),
      command: `audit ${HOSTILE}`,
      target: { name: HOSTILE, source: HOSTILE },
      seed: HOSTILE,
    };
    const html = renderFindingsHtml(report);
    expect(html.match(/<script/g)).toBeNull();
    expect(html.match(/<\/td>/g)?.length).toBe(html.match(/<td[ >]/g)?.length);
    expect(html).toContain('&lt;/td&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; ]]&gt; &amp; &#39;q&#39;');
    expect(
      ['\u0000', '\u0007', '\u001b'].some((character) => html.includes(character)),
      'control characters',
    ).toBe(false);
    expect(html.isWellFormed(), 'no lone surrogate').toBe(true);
  });

  test('no empty sections: a command that reported no checks gets no checks section', () => {
    const html = renderFindingsHtml(sampleReport({ checks: [] }));
    expect(html).not.toContain('id="checks-run"');
    expect([...html.matchAll(/<table id="([^"]+)">/g)].map((match) => match[1])).toEqual([
      'findings',
      'info-findings',
      'counts',
    ]);
    expect(html.endsWith('</html>\n')).toBe(true);
    expect(renderFindingsHtml(sampleReport())).toContain('<section id="checks-run">');
  });

  test('it opens with the verdict, then the summary table of what to act on (most severe first, curl lines in <code>, counts); info is folded in <details>', () => {
    const html = renderFindingsHtml(sampleReport());
    expect(html.indexOf('<section id="verdict" class="verdict failed">')).toBeGreaterThan(html.indexOf('</header>'));
    expect(html.indexOf('<section id="verdict"')).toBeLessThan(html.indexOf('<table'));
    expect(html).toContain(
      '<p>verdict: FAILED — 2 of 4 findings at or above --fail-on major: 1 critical, 1 major, 1 minor; 1 info, folded</p>',
    );
    const firstTable = html.slice(html.indexOf('<table'), html.indexOf('</table>'));
    expect(firstTable.startsWith('<table id="findings">')).toBe(true);
    expect([...firstTable.matchAll(/<span class="title">([^<]*)<\/span>/g)].map((match) => match[1])).toEqual([
      'a withdrawal above the balance was accepted and &quot;more&quot; &lt;b&gt;bold&lt;/b&gt;',
      'dice over 50: empirical edge 4.1% where 1% is advertised',
      '=HYPERLINK(&quot;http://evil&quot;) 429 without Retry-After',
    ]);
    expect(firstTable).toContain(
      `<code>curl -sS &#39;http://127.0.0.1:9/api/v1/casino/balance&#39; -H &quot;Authorization: Bearer $AFP_KEY&quot;</code>`,
    );
    expect([...firstTable.matchAll(/<td class="count">(\d+)<\/td>/g)].map((match) => match[1])).toEqual([
      '1',
      '1',
      '1',
    ]);
    const folded = html.slice(html.indexOf('<details id="info">'), html.indexOf('</details>'));
    expect(folded).toContain('<summary>1 info findings (documented or harmless deviations)</summary>');
    expect([...folded.matchAll(/<span class="title">([^<]*)<\/span>/g)].map((match) => match[1])).toEqual([
      'casino.bet: `balance` is what the documents call `new_balance`',
    ]);
    expect([...folded.matchAll(/<td class="count">(\d+)<\/td>/g)].map((match) => match[1])).toEqual(['3']);
    expect(html.indexOf('<details id="info">')).toBeLessThan(html.indexOf('<table id="counts">'));
    expect(html).toContain('<title>afp audit house-edge — staging &lt;casino&gt;</title>');
    expect(html.indexOf('<table id="counts">')).toBeGreaterThan(html.indexOf('<table id="findings">'));
    expect(html.indexOf('<table id="checks">')).toBeGreaterThan(html.indexOf('<table id="counts">'));
  });

  test('no external resource: no src, no href, a CSP that forbids every network source', () => {
    const html = renderFindingsHtml(sampleReport());
    expect(/\s(src|href)=/.test(html)).toBe(false);
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    );
  });
});

describe('byte stability and the writer', () => {
  const renderers = [renderFindingsJson, renderFindingsCsv, renderFindingsJunit, renderFindingsHtml];

  test('the same report gives the same bytes in every format, whatever order the findings come in', () => {
    const report = sampleReport({ hostile: HOSTILE });
    const reordered = {
      ...report,
      findings: [report.findings[2], report.findings[0], report.findings[3], report.findings[1]] as Finding[],
    };
    for (const render of renderers) {
      expect(render(reordered)).toBe(render(report));
      expect(render(sampleReport({ hostile: HOSTILE }))).toBe(render(report));
    }
  });

  test('writeFindingsReports writes the four files, creating the directory, with the version from package.json', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'afp-findings-'));
    directories.push(directory);
    const report = { ...sampleReport(), afpVersion: undefined };
    const paths = await writeFindingsReports(join(directory, 'a', 'b'), report);
    expect(paths).toEqual(
      ['findings.json', 'findings.csv', 'findings.junit.xml', 'findings.html'].map((file) =>
        join(directory, 'a', 'b', file),
      ),
    );
    const version = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { version: string };
    expect(readAfpVersion()).toBe(version.version);
    const withVersion = { ...report, afpVersion: version.version };
    paths.forEach((path, index) => expect(readFileSync(path, 'utf8')).toBe(renderers[index]?.(withVersion)));
    expect(JSON.parse(readFileSync(paths[0] ?? '', 'utf8'))).toMatchObject({ afpVersion: version.version });
  });
});
