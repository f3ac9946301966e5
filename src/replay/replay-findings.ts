/**
 * How a replay files what it found: a skip or a note as one info finding with its seq, and each
 * difference of an exchange's two answers as a finding whose id names the operation, the field
 * (array indexes folded, so one id per kind of difference) and the refusal, major unless the
 * documents explain it (then info, with the explanation in its title), with a curl line to
 * reproduce it. Split out of operation-replay.ts: the loop decides what differs, this says it.
 */
import type { SentRequest, OperationName } from '../live.ts';
import type { FindingInput, FindingsCollector } from '../report/findings/finding.ts';
import type { ResultDifference } from './operation-diff.ts';
import type { RecordedExchange } from './record-format.ts';
import { clip, explanation, findingSuffix } from './replay-exchange-parts.ts';

/** A note on an exchange (a skip, or what the replay did the target's way). */
export type ReplayNote = {
  readonly id: string;
  readonly kind: FindingInput['kind'];
  readonly title: string;
  readonly evidence: string;
};

/** The note as an info finding of the exchange. */
export function fileNote(findings: FindingsCollector, exchange: RecordedExchange, note: ReplayNote): void {
  findings.add({
    id: note.id,
    severity: 'info',
    kind: note.kind,
    title: note.title,
    expected: null,
    seen: null,
    evidence: `seq ${exchange.seq}: ${note.evidence}`,
  });
}

/** Each difference of the exchange's answers as a finding. */
export function fileDifferences(
  to: { readonly findings: FindingsCollector; readonly curlOf: (request: SentRequest) => string },
  exchange: RecordedExchange,
  sent: { readonly routeId: string; readonly op: OperationName; readonly request: SentRequest | null },
  differences: readonly ResultDifference[],
): void {
  const { routeId, op, request } = sent;
  for (const difference of differences) {
    const field = difference.field.replace(/\[\d+\]/g, '[]');
    const refused =
      difference.field === 'accepted' && typeof difference.seen === 'string' && difference.seen !== 'accepted'
        ? `:${difference.seen.split(/[ :]/)[1] ?? ''}`
        : '';
    const finding: FindingInput = {
      id: `replay:${op}:${field}${refused}${findingSuffix(difference)}`,
      severity: difference.documented === undefined ? 'major' : 'info',
      kind: difference.kind,
      title: `${op}: ${difference.note} (${field})${explanation(difference)}`,
      endpoint: `${op} (recorded as ${routeId})`,
      field,
      expected: difference.expected,
      seen: difference.seen,
      evidence: `seq ${exchange.seq} ${routeId}: recorded ${exchange.response.status} ${clip(exchange.response.body)}`,
      ...(request === null ? {} : { reproduce: to.curlOf(request) }),
    };
    to.findings.add(finding);
  }
}
