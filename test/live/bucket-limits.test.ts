// Issue 68 part 6: a "stricter limit" is measured, not inferred. The deployment counts single
// games, the video-poker deal and its draw in one `games` bucket of 60 a minute; afp paced each at
// 60 and met 429s of its own making, reported as 15–19 minor "stricter limit" findings per casino.
// Now operations a target file puts in one bucket are counted together (rate-limit-log.ts), and a
// 429 is stricter only where the target refused before afp had sent as many calls of the bucket in
// the documented minute as the file allows; the clock, the counts, the 429s met and the documented
// window and limit are in the evidence. A 429 met while afp's own pace was at or past the
// documented limit is never minor, even against a looser limit the target announces.
import { describe, expect, test } from 'vitest';
import type { AnnouncedLimit } from '../../src/live/announced-limit.ts';
import { RateLimitLog } from '../../src/live/rate-limit-log.ts';
import { rateLimitFinding } from '../../src/live/rate-limit-finding.ts';
import type { SentRequest } from '../../src/live/live-session.ts';
import type { OperationName } from '../../src/live/operations.ts';

const REQUEST = { method: 'POST', url: 'http://127.0.0.1:1/api/v1/games/video-poker/deal' } as unknown as SentRequest;
const START = Date.parse('2026-11-28T12:00:00.000Z');
const GAMES = { name: 'games', ops: ['casino.bet', 'casino.deal', 'casino.draw'] as OperationName[] };
const GAMES_60 = { perMinute: 60, bucket: 'games' };

interface Sent {
  readonly bets?: number;
  readonly deals?: number;
  readonly draws?: number;
  /** Calls of other operations (balance reads), outside the bucket. */
  readonly others?: number;
  /** Milliseconds between sends. */
  readonly spacingMs?: number;
  /** 429s met in all (the first and those after it). */
  readonly refusals?: number;
  /** What the refused deal's answers announced. */
  readonly announced?: AnnouncedLimit;
}

/** The calls `sent` counts, evenly spaced, then a refused deal (and more refusals after it). */
function refusedAfter(sent: Sent) {
  const log = new RateLimitLog<SentRequest>();
  const spacingMs = sent.spacingMs ?? 500;
  let nowMs = START;
  const send = (op: OperationName, count = 0): void => {
    for (let index = 0; index < count; index += 1) {
      log.sent(op, (nowMs += spacingMs));
      log.answered(op, op === 'casino.deal' ? (sent.announced ?? null) : null);
    }
  };
  send('casino.bet', sent.bets);
  send('casino.deal', sent.deals);
  send('casino.draw', sent.draws);
  send('casino.balance', sent.others);
  log.sent('casino.deal', (nowMs += spacingMs));
  log.answered('casino.deal', sent.announced ?? null);
  const atMs = nowMs;
  const answer = { request: REQUEST, body: { error: 'rate_limit_exceeded' }, retryAfter: null };
  for (let index = 0; index < (sent.refusals ?? 1); index += 1)
    log.limited('casino.deal', (nowMs += 1_000), answer, 1_000, GAMES);
  const meeting = log.meetings.get('casino.deal');
  if (meeting === undefined) throw new Error('no 429 met');
  // The first 429's instant is its own: later refusals only add to the count and the waiting.
  return { meeting, atMs: atMs + 1_000 };
}

const iso = (ms: number): string => new Date(ms).toISOString();

describe('a 429 against the documented window of its bucket', () => {
  test('afp sent 60 calls of the bucket in the minute (45 bets, 15 deals): the documented limit met by afp, info', () => {
    const { meeting, atMs } = refusedAfter({ bets: 45, deals: 15 });
    expect(meeting.bucket).toStrictEqual({ name: 'games', ops: GAMES.ops, calls: 60 });
    expect(meeting.callsOfOperation).toBe(15);
    const finding = rateLimitFinding(meeting, GAMES_60, () => 'curl');
    expect(finding.severity).toBe('info');
    expect(finding.title).toBe(
      "casino.deal: the target refused once afp had sent 60 calls of bucket games (casino.deal and the operations counted with it) in 60 s, as its documented 60/min allows: afp's pace caused it, not a stricter limit",
    );
    expect(finding.seen).toContain(`first 429 at ${iso(atMs)}`);
    expect(finding.seen).toContain(`60 calls of bucket games`);
    expect(finding.seen).toContain(`${iso(atMs - 60_000)} to then`);
  });

  test('a shared bucket overrun by afp pacing each operation apart (40 bets, 20 deals, 20 draws a minute): info, never minor', () => {
    // Each operation alone is under 60 a minute; the bucket holds 80 of them (and the refused deal).
    const { meeting, atMs } = refusedAfter({ bets: 40, deals: 20, draws: 20, others: 5, spacingMs: 700, refusals: 17 });
    expect(meeting.callsOfOperation).toBeLessThan(60);
    expect(meeting.bucket?.calls).toBeGreaterThan(60);
    const finding = rateLimitFinding(meeting, GAMES_60, () => 'curl');
    expect(finding.severity).toBe('info');
    expect(finding.title).toMatch(/afp's pace caused it, not a stricter limit$/);
    // The clock, the counts (of the operation, of the bucket, in all), the 429s met, the documented window and limit.
    expect(finding.evidence).toBe(
      `429 {"error":"rate_limit_exceeded"}; first 429 at ${iso(atMs)} on the session's clock; from ${iso(atMs - 60_000)} (the documented 60 s before the refused call was sent) to the 429 afp had sent ${meeting.callsOfOperation} calls of casino.deal, ${meeting.bucket?.calls} of bucket games (casino.bet, casino.deal, casino.draw), ${meeting.callsInAll} to the target in all (the refused call not counted); documented limit 60 per 60 s for bucket games; 17 refusals with 429 waited out (17 s of waiting in all)`,
    );
    // 0.7 s apart, the 429 back 1 s after the refused deal: the first bet is out of the window, the rest in.
    expect([meeting.callsOfOperation, meeting.bucket?.calls, meeting.callsInAll]).toStrictEqual([20, 79, 84]);
  });

  test('the target refused at 30 calls of the bucket in 60 s with a documented 60/min: stricter, minor, with the clock and counts', () => {
    const { meeting, atMs } = refusedAfter({ bets: 20, deals: 10, others: 2, spacingMs: 1_500 });
    const finding = rateLimitFinding(meeting, GAMES_60, () => 'curl');
    expect(finding.severity).toBe('minor');
    expect(finding.title).toBe(
      "casino.deal: the target's rate limit is stricter than the target file's 60/min (30 calls of bucket games (casino.deal and the operations counted with it) in the minute before its first 429)",
    );
    expect(finding.expected).toBe("up to 60 calls a minute in bucket games (the target file's limits)");
    expect(finding.evidence).toContain(
      `first 429 at ${iso(atMs)} on the session's clock; from ${iso(atMs - 60_000)} (the documented 60 s before the refused call was sent) to the 429 afp had sent 10 calls of casino.deal, 30 of bucket games (casino.bet, casino.deal, casino.draw), 32 to the target in all (the refused call not counted); documented limit 60 per 60 s for bucket games; 1 refusal with 429 waited out (1 s of waiting in all)`,
    );
  });

  test('calls older than the documented window are not counted: 100 calls over 150 s, 30 in the last minute, is stricter', () => {
    const { meeting } = refusedAfter({ bets: 70, deals: 30, spacingMs: 1_500 });
    // 1.5 s apart, the refused deal 1 s before the 429 came back: 39 sends in its 60 s, the refused one not counted.
    expect(meeting.bucket?.calls).toBe(39);
    expect(rateLimitFinding(meeting, GAMES_60, () => 'curl').severity).toBe('minor');
  });

  test('61 games paced 1,001 ms apart, each 150 ms on the way, the 61st refused: the window widened by the slowest answer counts 60, info', () => {
    // A fixed-window target saw the first call arrive 150 ms late and the 61st on time: 61 in its
    // minute. The sliding minute ending at the 429 misses the first call (59 counted: "stricter");
    // the minute before the refused call was sent, widened by 150 ms, holds it.
    const log = new RateLimitLog<SentRequest>();
    const ops: OperationName[] = ['casino.deal', 'casino.draw'];
    let sentMs = START;
    let op: OperationName = 'casino.deal';
    for (let index = 0; index < 61; index += 1) {
      op = ops[index % 2] as OperationName;
      sentMs = START + index * 1_001;
      log.sent(op, sentMs);
      log.answered(op, null, { sentMs, answeredMs: sentMs + 150 });
    }
    const atMs = sentMs + 150;
    log.limited(op, atMs, { request: REQUEST, body: null, retryAfter: null }, 1_000, GAMES);
    const meeting = log.meetings.get(op);
    if (meeting === undefined) throw new Error('no 429 met');
    expect([meeting.windowStartMs, meeting.slowestAnswerMs]).toStrictEqual([sentMs - 60_000 - 150, 150]);
    expect(meeting.bucket?.calls).toBe(60);
    const finding = rateLimitFinding(meeting, GAMES_60, () => 'curl');
    expect(finding.severity).toBe('info');
    expect(finding.evidence).toContain(
      `from ${iso(sentMs - 60_150)} (the documented 60 s before the refused call was sent, widened by the slowest answer in them: 150 ms) to the 429 afp had sent 30 calls of casino.deal, 60 of bucket games`,
    );
  });

  test('without a bucket the operation alone is counted: 15 deals under a claimed 60/min is stricter', () => {
    const log = new RateLimitLog<SentRequest>();
    let nowMs = START;
    for (let index = 0; index < 16; index += 1) log.sent('casino.deal', (nowMs += 500));
    log.limited('casino.deal', nowMs, { request: REQUEST, body: null, retryAfter: null }, 1_000);
    const meeting = log.meetings.get('casino.deal');
    if (meeting === undefined) throw new Error('no 429 met');
    expect(meeting.bucket).toBeNull();
    expect(rateLimitFinding(meeting, { perMinute: 60 }, () => 'curl').severity).toBe('minor');
    expect(rateLimitFinding(meeting, { perMinute: 15 }, () => 'curl').severity).toBe('info');
    const unclaimed = rateLimitFinding(meeting, undefined, () => 'curl');
    expect(unclaimed.severity).toBe('info');
    expect(unclaimed.evidence).toContain('the target file documents no limit for it');
  });
});

describe('a 429 under a limit the target announces', () => {
  const LOOSE: AnnouncedLimit = { limit: 100, windowSeconds: 60, headers: 'X-RateLimit-Limit: 100' };

  test('refused below its announced 100 a minute while afp had sent 70 of a documented 60/min bucket: afp past the documented limit, info', () => {
    const { meeting } = refusedAfter({ bets: 50, deals: 20, announced: LOOSE });
    const finding = rateLimitFinding(meeting, GAMES_60, () => 'curl');
    expect(finding.severity).toBe('info');
    expect(finding.title).toMatch(
      /^casino\.deal: the target refused below its announced limit of 100 per 60 s \(.*\), once afp had sent 70 calls of bucket games \(casino\.deal and the operations counted with it\) in 60 s, as the target file's 60\/min allows: afp's pace caused it$/,
    );
    expect(finding.evidence).toContain('(X-RateLimit-Limit: 100)');
  });

  test('refused below its announced 100 a minute at 30 calls of the bucket: the target breaks its word, minor', () => {
    const { meeting } = refusedAfter({ bets: 20, deals: 10, announced: LOOSE });
    const finding = rateLimitFinding(meeting, GAMES_60, () => 'curl');
    expect(finding.severity).toBe('minor');
    expect(finding.title).toMatch(/^casino\.deal: the target refuses below its own announced limit of 100 per 60 s/);
  });
});
