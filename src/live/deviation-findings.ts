/**
 * A wire deviation (wire-reader.ts) seen on a call, as a finding: one per operation, kind of
 * deviation and field, however many answers showed it (the collector counts them), with the first
 * answer's request as a curl line.
 * Severities: a difference the dialect documents (a field the deployment renames, its error bodies
 * without `code`) and a field neither spelling knows are info; a target that answers in the
 * documents' spelling where its dialect says otherwise (`fallback`), an optional field missing, or
 * an error body of no known shape are minor; a required field missing or mistyped, or an answer
 * that is not JSON, are major: the command could not read what it needed.
 * Also a gateway's answer met on a call (gateway-answer.ts): a minor finding of kind `limit`, one
 * per operation and status, since the page is no answer of the API's to read a shape from.
 */
import type { FindingInput, Severity } from '../report/findings/finding.ts';
import { deviationTitle } from './deviation-title.ts';
import { gatewayFate } from './gateway-answer.ts';
import type { CallDeviation, GatewayMeeting, SentRequest } from './live-session.ts';

/** Deviations of the whole answer: one finding per operation, whatever the field. */
const WHOLE_ANSWER: ReadonlySet<string> = new Set(['too-large', 'too-deep', 'redirect']);

function severityOf(call: CallDeviation): Severity {
  const { kind, documented, required } = call.deviation;
  if (documented || kind === 'unknown') return 'info';
  if (kind === 'not-json' || WHOLE_ANSWER.has(kind) || ((kind === 'missing' || kind === 'type') && required))
    return 'major';
  return 'minor';
}

export function deviationFinding(call: CallDeviation, curlOf: (request: SentRequest) => string): FindingInput {
  const { deviation } = call;
  const field = deviation.field.replace(/\[\d+\]/g, '[]');
  return {
    id: WHOLE_ANSWER.has(deviation.kind)
      ? `shape:${call.op}:${deviation.kind}`
      : `shape:${call.op}:${deviation.kind}:${field}`,
    severity: severityOf(call),
    kind: 'shape',
    title: `${call.op}: ${deviationTitle(deviation.kind, field, deviation.expected)}`,
    endpoint: `${call.op} (${call.endpoint})`,
    field,
    expected: deviation.expected,
    seen: deviation.seen,
    evidence: `${call.request.method} ${call.request.url} answered ${call.status}`,
    reproduce: curlOf(call.request),
  };
}

/** One finding per operation and status, however many answers (the collector counts them). */
export function gatewayFinding(meeting: GatewayMeeting, curlOf: (request: SentRequest) => string): FindingInput {
  return {
    id: `limit:${meeting.op}:gateway:${meeting.status}`,
    severity: 'minor',
    kind: 'limit',
    title: `${meeting.op}: answered ${meeting.status} by a gateway in front of the target, not by its API`,
    endpoint: `${meeting.op} (${meeting.endpoint})`,
    expected: "the service's own JSON answer",
    seen: `${meeting.status} ${meeting.page}`,
    evidence: `${meeting.request.method} ${meeting.request.url} answered ${meeting.status} (${gatewayFate({ ...meeting, method: meeting.request.method })}): ${meeting.page}`,
    reproduce: curlOf(meeting.request),
  };
}
