// A findings report as a live command builds it: findings collected by a real FindingsCollector
// (repeats counted), curl lines from curlOf, and checks of every status. `hostile` puts in every
// text what a hostile or broken target could answer: markup, quotes, commas, line breaks, control
// characters XML forbids, a lone surrogate, U+FFFF, shell metacharacters and a would-be formula.
import type { FindingInput } from '../../../src/report/findings/finding.ts';
import { FindingsCollector } from '../../../src/report/findings/finding.ts';
import { curlOf } from '../../../src/live/curl.ts';
import type { FailOn } from '../../../src/report/findings/fail-on.ts';
import type { FindingsReport, ReportCheck } from '../../../src/report/findings/findings-report.ts';

export const HOSTILE = `</td><script>alert("x")</script> ]]> & 'q' a,b\r\nline2 \u0000\u0007\u001b \ud800 \uffff 🎲 $HOME \`id\``;

export function findingInputs(hostile: string): FindingInput[] {
  return [
    {
      id: 'shape:casino.bet:renamed:new_balance',
      severity: 'info',
      kind: 'shape',
      title: 'casino.bet: `balance` is what the documents call `new_balance`',
      endpoint: 'casino.bet (POST /api/v1/casino/bet)',
      field: 'balance',
      expected: 'new_balance',
      seen: 'balance',
      evidence: 'POST http://127.0.0.1:9/api/v1/casino/bet answered 200',
      reproduce: curlOf({
        method: 'POST',
        url: 'http://127.0.0.1:9/api/v1/casino/bet',
        body: { game: 'dice', amount: 1, params: { target: 50 } },
        auth: true,
      }),
    },
    {
      id: 'money:withdraw:overdraw',
      severity: 'critical',
      kind: 'money',
      title: `a withdrawal above the balance was accepted ${hostile}`,
      endpoint: 'casino.withdraw',
      expected: { status: '4xx' },
      seen: { status: 200, body: { note: hostile } },
      evidence: `withdrew 5 with balance 1; answer ${hostile}`,
      reproduce: curlOf({
        method: 'POST',
        url: "http://127.0.0.1:9/api/v1/casino/withdraw/it's",
        body: { amount: 5, note: hostile },
        auth: true,
      }),
    },
    {
      id: 'edge:dice:over-50',
      severity: 'major',
      kind: 'edge',
      title: 'dice over 50: empirical edge 4.1% where 1% is advertised',
      expected: 0.01,
      seen: 0.041,
      evidence: '2,000 bets, 99% interval 2.2% … 6.0%',
    },
    {
      id: 'limit:casino.bet:no-retry-after',
      severity: 'minor',
      kind: 'limit',
      title: `=HYPERLINK("http://evil") 429 without Retry-After`,
      endpoint: 'casino.bet',
      expected: 'Retry-After',
      seen: null,
      evidence: '-3 requests waited the default',
      reproduce: curlOf({ method: 'GET', url: 'http://127.0.0.1:9/api/v1/casino/balance', auth: true }),
    },
  ];
}

export const CHECKS: readonly ReportCheck[] = [
  { name: 'money: overdraw withdrawal', group: 'money', status: 'finding', findingIds: ['money:withdraw:overdraw'] },
  { name: 'edge: dice over 50', group: 'edge', status: 'finding', findingIds: ['edge:dice:over-50'] },
  {
    name: 'shape: casino.bet',
    group: 'shape',
    status: 'finding',
    findingIds: ['shape:casino.bet:renamed:new_balance'],
    detail: 'renamed fields only',
  },
  { name: 'money: bets balance', group: 'money', status: 'pass', findingIds: [] },
  {
    name: 'fairness: verify bets',
    group: 'fairness',
    status: 'skipped',
    findingIds: [],
    detail: 'the target publishes no fairness scheme',
  },
  {
    name: 'money: batch summary',
    group: 'money',
    status: 'fail',
    findingIds: [],
    detail: 'casino.batch was unreachable: connect ECONNREFUSED',
  },
];

export function sampleReport(
  options: { failOn?: FailOn; hostile?: string; checks?: readonly ReportCheck[] } = {},
): FindingsReport {
  const collector = new FindingsCollector();
  const inputs = findingInputs(options.hostile ?? 'and "more" <b>bold</b>');
  collector.addAll(inputs);
  collector.add(inputs[0] as FindingInput);
  collector.add(inputs[0] as FindingInput);
  return {
    command: 'audit house-edge',
    target: { name: 'staging <casino>', source: 'targets/staging.yaml' },
    seed: '42',
    afpVersion: '0.1.0',
    failOn: options.failOn ?? 'major',
    findings: collector.list(),
    dropped: collector.dropped,
    checks: options.checks ?? CHECKS,
  };
}
