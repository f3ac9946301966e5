/**
 * A target's rate limit as a live session measured it (rate-limit-log.ts), as a finding: per
 * operation that met a 429, the limit the target file claims for it, the calls sent in the minute
 * before the first 429 (of the operation, and to the target in all: a limit may count several
 * operations together), the 429's own body and Retry-After, how many 429s were waited out and how
 * long, and the curl of the refused request. Measured, never inferred: the evidence states the
 * clock (the first 429's instant on the session's clock and the start of the documented window
 * counted: the minute before the refused call was sent, widened by the slowest answer in it,
 * rate-limit-log.ts), the calls afp sent from then to the 429 (of the operation, of its bucket, to
 * the target in all), the 429s met, and the documented window and limit.
 * Minor where the file claims a limit the target did not keep to: the 429 came before afp had sent
 * as many calls in the documented minute as the claim allows, counted over the operations the file
 * puts in one bucket (the deployment counts bet, deal and draw together); a 429 met at or past the
 * claim is afp's own pace meeting the limit, info; info too where the file claims none (afp did
 * not pace it). Why: users saw 15–19 minor "stricter limit" findings per casino, each a 429 afp's
 * own pace caused (it paced bet, deal and draw at 60/min each into one 60/min bucket).
 * Where the target announced its own limit (X-RateLimit-* / RateLimit-*, on the 429 or the
 * operation's answers before it), that is the yardstick, not the file (whose figure may be afp's copy
 * of DEPLOYED.md): minor only when it refused before afp had sent as many calls in the announced
 * window as it announced, of the operation or to the target in all (a limit may be one bucket for
 * several operations); a target keeping its word is info stating both. Without a stated window
 * the announcement cannot be counted against, and the finding is info. Either way, a 429 met while
 * afp had sent as many calls as the file's documented limit in its window, or more, is never minor.
 * Non-goals: changing the pace (live-session.ts paces a bucket as one; the file's limits stay what
 * the user wrote).
 */
import { announcedText, type AnnouncedLimit } from './announced-limit.ts';
import type { FindingInput } from '../report/findings/finding.ts';
import type { SentRequest } from './live-session.ts';
import { PER_MINUTE_WINDOW_MS, type RateLimitMeeting } from './rate-limit-log.ts';
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
    evidence: `429 ${body.slice(0, BODY_CHARS_MAX)}${meeting.retryAfter === null ? '' : ` (Retry-After: ${meeting.retryAfter})`}${meeting.announced === null ? '' : ` (${meeting.announced.headers})`}; ${clockAndCounts(meeting, claimed)}; ${summaryOf(meeting)}`,
    reproduce: curlOf(meeting.request),
  };
}

type Judged = Pick<FindingInput, 'severity' | 'title' | 'expected' | 'seen'>;

/** Seconds in the documented window a per-minute limit is counted in. */
const WINDOW_SECONDS = PER_MINUTE_WINDOW_MS / 1_000;

/** Calls afp sent in the documented minute before the 429 that the file's limit counts: the bucket's, else the operation's. */
function documentedCount(meeting: RateLimitMeeting<SentRequest>): number {
  return meeting.bucket === null ? meeting.callsOfOperation : meeting.bucket.calls;
}

/** "of casino.deal" or "of bucket games (casino.deal and the operations counted with it)". */
function countedWhere(meeting: RateLimitMeeting<SentRequest>): string {
  return meeting.bucket === null
    ? `of ${meeting.op}`
    : `of bucket ${meeting.bucket.name} (${meeting.op} and the operations counted with it)`;
}

/** Whether afp had sent as many calls as the file's documented limit allows in its window, or more: its own pace met the limit. */
function afpPaceMetLimit(meeting: RateLimitMeeting<SentRequest>, claimed: PaceLimit | undefined): boolean {
  return claimed !== undefined && documentedCount(meeting) >= claimed.perMinute;
}

/** "from <ISO> (the documented 60 s before the refused call was sent, widened by the slowest answer in them: 150 ms) to the 429". */
function windowText(meeting: RateLimitMeeting<SentRequest>): string {
  const widened =
    meeting.slowestAnswerMs === 0 ? '' : `, widened by the slowest answer in them: ${meeting.slowestAnswerMs} ms`;
  return `from ${new Date(meeting.windowStartMs).toISOString()} (the documented ${WINDOW_SECONDS} s before the refused call was sent${widened}) to the 429`;
}

/**
 * The clock and the counts, for the evidence: the first 429's instant on the session's clock, the
 * documented window ending there, the calls afp sent in it (of the operation, of its bucket, to
 * the target in all; the refused call not counted), and the documented limit.
 */
function clockAndCounts(meeting: RateLimitMeeting<SentRequest>, claimed: PaceLimit | undefined): string {
  const bucket =
    meeting.bucket === null
      ? ''
      : `, ${meeting.bucket.calls} of bucket ${meeting.bucket.name} (${meeting.bucket.ops.join(', ')})`;
  const limit =
    claimed === undefined
      ? 'the target file documents no limit for it'
      : `documented limit ${claimed.perMinute} per ${WINDOW_SECONDS} s${meeting.bucket === null ? '' : ` for bucket ${meeting.bucket.name}`}`;
  return `first 429 at ${new Date(meeting.atMs).toISOString()} on the session's clock; ${windowText(meeting)} afp had sent ${meeting.callsOfOperation} calls of ${meeting.op}${bucket}, ${meeting.callsInAll} to the target in all (the refused call not counted); ${limit}`;
}

/**
 * The target announced nothing: the file's claim is the only yardstick, counted against its
 * documented window (a minute) and over the operations the file puts in one bucket with this one.
 * Stricter (minor) only where the target refused before afp had sent as many calls in that minute
 * as the claim allows; at or past it, afp's own pace met the documented limit (info: the target
 * kept it). With the clock and the counts in `seen` and the evidence.
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
  const counted = documentedCount(meeting);
  const where = countedWhere(meeting);
  const clock = `first 429 at ${new Date(meeting.atMs).toISOString()}; ${counted} calls ${where} sent in the documented window, ${new Date(meeting.windowStartMs).toISOString()} to then`;
  const expected = `up to ${claimed.perMinute} calls a minute${meeting.bucket === null ? '' : ` in bucket ${meeting.bucket.name}`} (the target file's limits)`;
  if (afpPaceMetLimit(meeting, claimed))
    return {
      severity: 'info',
      title: `${op}: the target refused once afp had sent ${counted} calls ${where} in ${WINDOW_SECONDS} s, as its documented ${claimed.perMinute}/min allows: afp's pace caused it, not a stricter limit`,
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
 * (minor), unless afp had sent as many calls as the file's documented limit allows in its minute
 * (afp's own pace met that limit: never minor); otherwise it kept its word, and the file's
 * differing claim is info naming both.
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
  const expected = `up to ${stated} (the target's own announcement: ${announced.headers})`;
  // Below only when neither this operation's calls nor all calls reached the limit: a target may
  // count several operations in one bucket (one path served for two services), and afp cannot tell.
  const below =
    inWindow !== null && inWindow < announced.limit && (allInWindow === null || allInWindow < announced.limit);
  if (below && afpPaceMetLimit(meeting, claimed))
    return {
      severity: 'info',
      title: `${meeting.op}: the target refused below its announced limit of ${stated} (${counted}), once afp had sent ${documentedCount(meeting)} calls ${countedWhere(meeting)} in ${WINDOW_SECONDS} s, as ${file} allows: afp's pace caused it`,
      expected,
      seen: counted,
    };
  if (below)
    return {
      severity: 'minor',
      title: `${meeting.op}: the target refuses below its own announced limit of ${stated} (${counted})`,
      expected,
      seen: counted,
    };
  return {
    severity: 'info',
    title: `${meeting.op}: the target keeps its announced limit of ${stated} (${counted}); ${file}`,
    expected,
    seen: counted,
  };
}

/** "12 refusals with 429 waited out (81 s)": the run's summary line names it too. */
export function summaryOf(meeting: RateLimitMeeting<unknown>): string {
  return `${meeting.count} refusal${meeting.count === 1 ? '' : 's'} with 429 waited out (${Math.round(meeting.waitedMs / 1_000)} s of waiting in all)`;
}
