// findings.junit.xml: well-formed XML 1.0 whatever the texts hold (read back by xml-tree.ts, a
// strict reader), one test case per check with the semantics of each status under each --fail-on,
// the findings no check names in one more test case, and the same bytes for the same report.
import { describe, expect, test } from 'vitest';
import { OUTSIDE_CHECKS_NAME, renderFindingsJunit } from '../../../src/report/findings/findings-junit.ts';
import type { FailOn } from '../../../src/report/findings/fail-on.ts';
import { xmlAttribute, xmlText } from '../../../src/report/kit/xml-text.ts';
import { CHECKS, HOSTILE, sampleReport } from './fixture.ts';
import { parseXml, type XmlElement } from './xml-tree.ts';

function suiteOf(failOn: FailOn): XmlElement {
  return suitesOf(failOn).children[0] as XmlElement;
}

function suitesOf(failOn: FailOn): XmlElement {
  const root = parseXml(renderFindingsJunit(sampleReport({ failOn })));
  expect(root.name).toBe('testsuites');
  expect(root.children.map((child) => child.name)).toEqual(['testsuite']);
  return root;
}

function testcases(suite: XmlElement): Map<string, XmlElement> {
  return new Map(
    suite.children.filter((child) => child.name === 'testcase').map((child) => [child.attributes['name'] ?? '', child]),
  );
}

/** What a test case says: pass, failure:<type>, skipped, or pass+out (a passing case with system-out). */
function verdict(testcase: XmlElement | undefined): string {
  const child = testcase?.children[0];
  if (testcase === undefined) return 'missing';
  expect(testcase.children.length).toBeLessThanOrEqual(1);
  if (child === undefined) return 'pass';
  if (child.name === 'failure') return `failure:${child.attributes['type'] ?? ''}`;
  if (child.name === 'system-out') return 'pass+out';
  return child.name;
}

describe('findings.junit.xml', () => {
  test('one test case per check in the order run, and one for the findings no check names', () => {
    const suite = suiteOf('major');
    expect(suite.attributes['name']).toBe('afp audit house-edge');
    expect([...testcases(suite).keys()]).toEqual([...CHECKS.map((check) => check.name), OUTSIDE_CHECKS_NAME]);
    const money = testcases(suite).get('money: overdraw withdrawal');
    expect(money?.attributes['classname']).toBe('afp audit house-edge.money');
    const properties = suite.children
      .find((child) => child.name === 'properties')
      ?.children.map((child) => [child.attributes['name'], child.attributes['value']]);
    expect(properties).toEqual([
      [
        'verdict',
        'verdict: FAILED — 2 of 4 findings at or above --fail-on major: 1 critical, 1 major, 1 minor; 1 info, folded',
      ],
      ['target', 'staging <casino>'],
      ['source', 'targets/staging.yaml'],
      ['seed', '42'],
      ['afp-version', '0.1.0'],
      ['fail-on', 'major'],
      ['findings', '4'],
      ['dropped', '0'],
    ]);
  });

  test.each([
    // fail-on → verdicts of: overdraw (critical), edge (major), shape (info), pass, skipped, fail, outside (minor)
    ['major', ['failure:finding', 'failure:finding', 'pass+out', 'pass', 'skipped', 'failure:fail', 'pass+out'], 3],
    ['critical', ['failure:finding', 'pass+out', 'pass+out', 'pass', 'skipped', 'failure:fail', 'pass+out'], 2],
    [
      'minor',
      ['failure:finding', 'failure:finding', 'pass+out', 'pass', 'skipped', 'failure:fail', 'failure:finding'],
      4,
    ],
    [
      'info',
      ['failure:finding', 'failure:finding', 'failure:finding', 'pass', 'skipped', 'failure:fail', 'failure:finding'],
      5,
    ],
    ['none', ['pass+out', 'pass+out', 'pass+out', 'pass', 'skipped', 'failure:fail', 'pass+out'], 1],
  ] as const)('--fail-on %s: each status gives its test case', (failOn, verdicts, failures) => {
    const root = suitesOf(failOn);
    const suite = root.children[0] as XmlElement;
    expect([...testcases(suite).values()].map(verdict)).toEqual(verdicts);
    for (const element of [root, suite]) {
      expect(element.attributes).toMatchObject({ tests: '7', failures: String(failures), errors: '0', skipped: '1' });
    }
  });

  test('failures and system-out list the findings; skipped and fail carry the detail', () => {
    const cases = testcases(suiteOf('major'));
    const overdraw = cases.get('money: overdraw withdrawal')?.children[0];
    expect(overdraw?.attributes['message']).toBe(
      '1 of 1 findings at or above major: a withdrawal above the balance was accepted and "more" <b>bold</b>',
    );
    expect(overdraw?.text).toContain(
      '- [critical] a withdrawal above the balance was accepted and "more" <b>bold</b> (money:withdraw:overdraw) ×1',
    );
    expect(overdraw?.text).toContain(
      `reproduce: curl -sS -X POST 'http://127.0.0.1:9/api/v1/casino/withdraw/it'\\''s'`,
    );
    const shape = cases.get('shape: casino.bet')?.children[0];
    expect(shape?.text.split('\n').slice(0, 2)).toEqual([
      'renamed fields only',
      '- [info] casino.bet: `balance` is what the documents call `new_balance` (shape:casino.bet:renamed:new_balance) ×3',
    ]);
    expect(cases.get('fairness: verify bets')?.children[0]?.attributes['message']).toBe(
      'the target publishes no fairness scheme',
    );
    const failed = cases.get('money: batch summary')?.children[0];
    expect([failed?.attributes['message'], failed?.text]).toEqual([
      'casino.batch was unreachable: connect ECONNREFUSED',
      'casino.batch was unreachable: connect ECONNREFUSED',
    ]);
  });

  test('a finding id the report does not hold (dropped) is listed and fails nothing', () => {
    const report = sampleReport({ checks: [{ name: 'lost', status: 'finding', findingIds: ['money:gone'] }] });
    const lost = testcases(parseXml(renderFindingsJunit(report)).children[0] as XmlElement).get('lost');
    expect(verdict(lost)).toBe('pass+out');
    expect(lost?.children[0]?.text).toBe('- money:gone: not in this report (beyond the 1000 findings kept)');
  });

  test('hostile text everywhere still gives well-formed XML, with markup kept as text', () => {
    const hostileChecks = CHECKS.map((check) => ({
      ...check,
      name: `${check.name} ${HOSTILE}`,
      group: HOSTILE,
      detail: HOSTILE,
    }));
    const report = {
      ...sampleReport({ hostile: HOSTILE, checks: hostileChecks }),
      command: `audit ${HOSTILE}`,
      seed: HOSTILE,
      target: { name: HOSTILE, source: HOSTILE },
    };
    const xml = renderFindingsJunit(report);
    const root = parseXml(xml);
    const suite = root.children[0] as XmlElement;
    expect(suite.children.filter((child) => child.name === 'testcase')).toHaveLength(7);
    const legal = ['\u0000', '\u0007', '\u001b', '\ud800', '\uffff'].reduce(
      (text, illegal) => text.replaceAll(illegal, '\ufffd'),
      HOSTILE,
    );
    const skipped = testcases(suite).get(`fairness: verify bets ${legal}`);
    expect(skipped?.children[0]?.attributes['message']).toBe(legal);
    expect(xml.includes('<script>')).toBe(false);
  });

  test('escaping keeps every legal character and replaces the illegal ones', () => {
    expect(xmlText('a < b & c > d\r\n\t')).toBe('a &lt; b &amp; c &gt; d&#13;\n\t');
    expect(xmlAttribute(`"it's"\t\n\r<&>`)).toBe('&quot;it&apos;s&quot;&#9;&#10;&#13;&lt;&amp;&gt;');
    expect(xmlText('\u0000\u0008\u000b\u001f\ud800x\udc00\ufffe\uffff 🎲 \u007f \ud7ff \ue000')).toBe(
      '\ufffd\ufffd\ufffd\ufffd\ufffdx\ufffd\ufffd\ufffd 🎲 \u007f \ud7ff \ue000',
    );
  });

  test('the same report gives the same bytes, whatever order the findings come in', () => {
    const report = sampleReport();
    const shuffled = { ...report, findings: [...report.findings].reverse() };
    expect(renderFindingsJunit(shuffled)).toBe(renderFindingsJunit(report));
    expect(renderFindingsJunit(sampleReport())).toBe(renderFindingsJunit(report));
  });
});
