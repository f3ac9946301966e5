// The verdict every findings report opens with (src/report/findings/findings-verdict.ts): failed, passed or
// not judged against --fail-on, the counts, the findings to act on one line each with their count (at
// most ten, then "… and N more"), info only counted there and listed after.
import { describe, expect, test } from 'vitest';
import { FindingsCollector, type FindingInput, type Severity } from '../../../src/report/findings/finding.ts';
import { findingsVerdict, infoLines, verdictLines } from '../../../src/report/findings/findings-verdict.ts';

const finding = (id: string, severity: Severity): FindingInput => ({
  id,
  severity,
  kind: 'rule',
  title: `${id} title`,
  expected: null,
  seen: null,
  evidence: id,
});

function collected(inputs: ReadonlyArray<readonly [FindingInput, number]>): ReturnType<FindingsCollector['list']> {
  const collector = new FindingsCollector();
  for (const [input, times] of inputs) collector.add(input, times);
  return collector.list();
}

describe('the findings verdict', () => {
  const findings = collected([
    [finding('rule:info', 'info'), 4],
    [finding('money:a', 'critical'), 3],
    [finding('rule:b', 'major'), 1],
    [finding('rule:c', 'minor'), 1],
  ]);

  test('failed: the reaching count, the counts, info folded; then the findings to act on, most severe first, with counts', () => {
    expect(verdictLines(findings, 'major')).toEqual([
      'verdict: FAILED — 2 of 4 findings at or above --fail-on major: 1 critical, 1 major, 1 minor; 1 info, folded',
      '  critical money:a: money:a title (×3)',
      '  major rule:b: rule:b title',
      '  minor rule:c: rule:c title',
    ]);
    expect(findingsVerdict(findings, 'major').failed).toBe(true);
  });

  test('passed below the threshold; not judged with --fail-on none', () => {
    expect(
      findingsVerdict(
        findings.filter((found) => found.severity !== 'critical' && found.severity !== 'major'),
        'major',
      ).headline,
    ).toBe('verdict: passed — nothing at or above --fail-on major: 0 critical, 0 major, 1 minor; 1 info, folded');
    expect(findingsVerdict(findings, 'none')).toMatchObject({
      failed: false,
      headline: 'verdict: not judged (--fail-on none) — 1 critical, 1 major, 1 minor; 1 info, folded',
    });
    expect(verdictLines([], 'major')).toEqual([
      'verdict: passed — nothing at or above --fail-on major: 0 critical, 0 major, 0 minor',
    ]);
  });

  test('at most ten findings listed, the rest counted; info listed after, on its own', () => {
    const many = collected(
      Array.from(
        { length: 13 },
        (_, index) => [finding(`rule:m${String(index).padStart(2, '0')}`, 'major'), 1] as const,
      ),
    );
    const lines = verdictLines(many, 'major');
    expect(lines).toHaveLength(12);
    expect(lines.at(-1)).toBe('  … and 3 more (findings.html, findings.json)');
    expect(infoLines(findings)).toEqual([
      'info (folded out of the verdict): 1',
      '  info rule:info: rule:info title (×4)',
    ]);
    expect(infoLines(many)).toEqual([]);
  });

  test('a failure beside the findings (a check mismatch, a target that stopped) fails the verdict whatever the findings, with its reproduce command and request first', () => {
    const failure = {
      summary: 'an answer differs from the model: release: body.fee: expected "0.01", got "0.02"',
      reproduce: 'npx afp check --seed 1 --path 3:1@A --target http://127.0.0.1:1',
      request: 'curl -sS -X POST \'http://127.0.0.1:1/escrow/e1/release\' -H "Authorization: Bearer $AFP_KEY"',
    };
    for (const failOn of ['major', 'none'] as const)
      expect(verdictLines([], failOn, failure)).toEqual([
        'verdict: FAILED — an answer differs from the model: release: body.fee: expected "0.01", got "0.02" (findings: 0 critical, 0 major, 0 minor)',
        '  reproduce: npx afp check --seed 1 --path 3:1@A --target http://127.0.0.1:1',
        `  request: ${failure.request}`,
      ]);
    const verdict = findingsVerdict(findings, 'major', { summary: 'the target stopped answering' });
    expect(verdict.failed).toBe(true);
    expect(verdict.headline).toBe(
      'verdict: FAILED — the target stopped answering (findings: 1 critical, 1 major, 1 minor; 1 info, folded)',
    );
    expect(verdict.listed[0]).toBe('  critical money:a: money:a title (×3)');
  });
});

describe('the verdict shows the strongest evidence first (issue 68, part 5)', () => {
  const of = (id: string, severity: Severity, kind: FindingInput['kind']): FindingInput => ({
    ...finding(id, severity),
    kind,
  });

  test('within a severity: money, then self-contradictions, then edges, then the rest; severity still leads', () => {
    const findings = collected([
      [of('rule:wheel:scheme', 'critical', 'rule'), 1],
      [of('edge:slots', 'critical', 'edge'), 1],
      [of('fairness:hilo:contradiction', 'critical', 'fairness'), 20],
      [of('money:casino:balance', 'critical', 'money'), 1],
      [of('money:coin_flip:credited', 'minor', 'money'), 1],
    ]);
    expect(verdictLines(findings, 'major').slice(1)).toEqual([
      '  critical money:casino:balance: money:casino:balance title',
      '  critical fairness:hilo:contradiction: fairness:hilo:contradiction title (×20)',
      '  critical edge:slots: edge:slots title',
      '  critical rule:wheel:scheme: rule:wheel:scheme title',
      '  minor money:coin_flip:credited: money:coin_flip:credited title',
    ]);
  });

  test('criticals of one root cause are one line with the count, after the money findings', () => {
    const games = ['baccarat', 'blackjack', 'hilo', 'mines', 'roulette'];
    const findings = collected([
      ...games.map(
        (game, index) => [of(`fairness:${game}:contradiction`, 'critical', 'fairness'), 10 + index] as const,
      ),
      [of('money:casino:balance', 'critical', 'money'), 1],
      [of('fairness:wheel:returns', 'major', 'fairness'), 1],
    ]);
    expect(verdictLines(findings, 'major').slice(1)).toEqual([
      '  critical money:casino:balance: money:casino:balance title',
      '  critical fairness:*:contradiction: one cause on 5 (baccarat, blackjack, hilo, mines, roulette): fairness:baccarat:contradiction title (×60 in all)',
      '  major fairness:wheel:returns: fairness:wheel:returns title',
    ]);
  });
});
