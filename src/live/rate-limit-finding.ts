/**
 * A target's rate limit as a live session measured it (rate-limit-log.ts), as a finding: per
 * operation that met a 429, the limit the target file claims for it, the calls sent in the minute
 * before the first 429 (of the operation, and to the target in all: a limit may count several
 * operations together), the 429's own body and Retry-After, how many 429s were waited out and how
 * long, and the curl of the refused request. Minor where the file claims a limit the target did not
 * keep to, measured: the 429 came before afp had sent as many calls in the documented minute as
 * the claim allows, counted over the operations the file puts in one bucket (the deployment counts
 * bet, deal and draw together); a 429 met at or past the claim is afp's own pace meeting the limit,
 * info, with the clock and the counts; info too where the file claims none (afp did not pace it). Why: the session
 * waits every 429 out, and an audit planned for 9 s took 90 s saying nothing of why.
 * Where the target announced its own limit (X-RateLimit-* / RateLimit-*, on the 429 or the
 * operation's answers before it), that is the yardstick, not the file (whose figure may be afp's copy
 * of DEPLOYED.md): minor only when it refused before afp had sent as many calls in the announced
 * window as it announced, of the operation or to the target in all (a limit may be one bucket for
 * several operations); a target keeping its word is info stating both. Without a stated window
 * the announcement cannot be counted against, and the finding is info.
 * Non-goals: changing the pace (the file's limits stay what the user wrote).
 */
import { announcedText, type AnnouncedLimit } from './announced-limit.ts';
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
  const inFlight = meeting.unanswered === 0 ? '' : `, ${meeting.unanswered} of them still unanswered`;
  const measured = `429 after ${meeting.callsOfOperation} calls of ${meeting.op}${inFlight} (${meeting.callsInAll} calls to the target in all) in the minute before`;
  const judged =
    meeting.announced === null ? byFile(meeting, claimed, measured) : byAnnouncement(meeting, claimed, measured);
  return {
    id: `limit:${meeting.op}:rate-limited`,
    ...judged,
    kind: 'limit',
    endpoint: endpointOf(meeting.op, meeting.request),
    evidence: `429 ${body.slice(0, BODY_CHARS_MAX)}${meeting.retryAfter === null ? '' : ` (Retry-After: ${meeting.retryAfter})`}${meeting.announced === null ? '' : ` (${meeting.announced.headers})`}; ${summaryOf(meeting)}`,
    reproduce: curlOf(meeting.request),
  };
}

type Judged = Pick<FindingInput, 'severity' | 'title' | 'expected' | 'seen'>;

/**
 * The target announced nothing: the file's claim is the only yardstick, counted against its
 * documented window (a minute) and over the operations the file puts in one bucket with this one.
 * Stricter (minor) only where the target refused before afp had sent as many calls in that minute
 * as the claim allows; at or past it, afp's own pace met the documented limit (info: the target
 * kept it). With the clock and the counts in the evidence.
 */
function byFile(meeting: RateLimitMeeting<SentRequest>, claimed: PaceLimit | undefined, measured: string): Judged {
  const op = meeting.op;
  if (claimed === undefined)
    return {
      severity: 'info',
      title: `${op}: the target rate-limits it (${measured}); the target file states no limit for it`,
      expected: null,
      seen: measured,
    };
  const counted = meeting.bucket === null ? meeting.callsOfOperation : meeting.bucket.calls;
  const where =
    meeting.bucket === null
      ? `of ${op}`
      : `of bucket ${meeting.bucket.name} (${op} and the operations counted with it)`;
  const clock = `first 429 at ${new Date(meeting.atMs).toISOString()}; ${counted} calls ${where} sent in the documented window, ${new Date(meeting.atMs - 60_000).toISOString()} to then`;
  const expected = `up to ${claimed.perMinute} calls a minute${meeting.bucket === null ? '' : ` in bucket ${meeting.bucket.name}`} (the target file's limits)`;
  if (counted >= claimed.perMinute)
    return {
      severity: 'info',
      title: `${op}: the target refused once ${counted} calls ${where} had gone out in a minute: its documented ${claimed.perMinute}/min, kept (afp's pace reached it)`,
      expected,
      seen: `${measured}; ${clock}`,
    };
  return {
    severity: 'minor',
    title: `${op}: the target's rate limit is stricter than the target file's ${claimed.perMinute}/min (${counted} calls ${where} in the minute before its first 429)`,
    expected,
    seen: `${measured}; ${clock}`,
  };
}

/**
 * The target announced its limit: judged by it, whatever the file claims. Refusing while afp had
 * sent fewer calls in the announced window than the announced limit is a rule the target breaks
 * (minor); otherwise it kept its word, and the file's differing claim is info naming both.
 */
function byAnnouncement(
  meeting: RateLimitMeeting<SentRequest>,
  claimed: PaceLimit | undefined,
  measured: string,
): Judged {
  const announced = meeting.announced as AnnouncedLimit;
  const stated = announcedText(announced);
  const file =
    claimed === undefined ? 'the target file states no limit for it' : `the target file's ${claimed.perMinute}/min`;
  const inWindow = meeting.callsInAnnouncedWindow;
  const allInWindow = meeting.callsInAllInAnnouncedWindow;
  const counted =
    inWindow === null || announced.windowSeconds === null
      ? measured
      : `${measured}; ${inWindow} in the ${announced.windowSeconds} s before (${allInWindow ?? '?'} to the target in all)`;
  // Below only when neither this operation's calls nor all calls reached the limit: a target may
  // count several operations in one bucket (one path served for two services), and afp cannot tell.
  if (inWindow !== null && inWindow < announced.limit && (allInWindow === null || allInWindow < announced.limit))
    return {
      severity: 'minor',
      title: `${meeting.op}: the target refuses below its own announced limit of ${stated} (${counted})`,
      expected: `up to ${stated} (the target's own announcement: ${announced.headers})`,
      seen: counted,
    };
  return {
    severity: 'info',
    title: `${meeting.op}: the target keeps its announced limit of ${stated} (${counted}); ${file}`,
    expected: `up to ${stated} (the target's own announcement: ${announced.headers})`,
    seen: counted,
  };
}

/** "12 refusals with 429 waited out (81 s)": the run's summary line names it too. */
export function summaryOf(meeting: RateLimitMeeting<unknown>): string {
  return `${meeting.count} refusal${meeting.count === 1 ? '' : 's'} with 429 waited out (${Math.round(meeting.waitedMs / 1_000)} s of waiting in all)`;
}
