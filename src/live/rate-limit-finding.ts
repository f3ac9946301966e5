/**
 * A target's rate limit as a live session measured it (rate-limit-log.ts), as a finding: per
 * operation that met a 429, the limit the target file claims for it, the calls sent in the minute
 * before the first 429 (of the operation, and to the target in all: a limit may count several
 * operations together), the 429's own body and Retry-After, how many 429s were waited out and how
 * long, and the curl of the refused request. Minor where the file claims a limit the target did not
 * keep to (a measured rule differing from the file's claim: afp paced at the claim and still met
 * 429s); info where the file claims none (afp did not pace it; the file could). Why: the session
 * waits every 429 out, and an audit planned for 9 s took 90 s saying nothing of why.
 * Non-goals: changing the pace (the file's limits stay what the user wrote).
 */
import type { FindingInput } from './finding.ts';
import type { SentRequest } from './live-session.ts';
import type { RateLimitMeeting } from './rate-limit-log.ts';
import type { PaceLimit } from './target.ts';
import { endpointOf } from './request-endpoint.ts';

/** Characters of a 429's body kept as evidence. */
const BODY_CHARS_MAX = 300;

export function rateLimitFinding(
  meeting: RateLimitMeeting<SentRequest>,
  claimed: PaceLimit | undefined,
  curlOf: (request: SentRequest) => string,
): FindingInput {
  const body = typeof meeting.body === 'string' ? meeting.body : JSON.stringify(meeting.body);
  const measured = `429 after ${meeting.callsOfOperation} calls of ${meeting.op} (${meeting.callsInAll} calls to the target in all) in the minute before`;
  return {
    id: `limit:${meeting.op}:rate-limited`,
    severity: claimed === undefined ? 'info' : 'minor',
    kind: 'limit',
    title:
      claimed === undefined
        ? `${meeting.op}: the target rate-limits it (${measured}); the target file states no limit for it`
        : `${meeting.op}: the target's rate limit is stricter than the target file's ${claimed.perMinute}/min (${measured})`,
    endpoint: endpointOf(meeting.op, meeting.request),
    expected: claimed === undefined ? null : `up to ${claimed.perMinute} calls a minute (the target file's limits)`,
    seen: measured,
    evidence: `429 ${body.slice(0, BODY_CHARS_MAX)}${meeting.retryAfter === null ? '' : ` (Retry-After: ${meeting.retryAfter})`}; ${summaryOf(meeting)}`,
    reproduce: curlOf(meeting.request),
  };
}

/** "12 refusals with 429 waited out (81 s)": the run's summary line names it too. */
export function summaryOf(meeting: RateLimitMeeting<unknown>): string {
  return `${meeting.count} refusal${meeting.count === 1 ? '' : 's'} with 429 waited out (${Math.round(meeting.waitedMs / 1_000)} s of waiting in all)`;
}
