// Issue 68 part 6: a "stricter limit" is measured, not inferred. The deployment counts single
// games, the video-poker deal and its draw in one `games` bucket of 60 a minute; afp paced each at
// 60 and met 429s of its own making, reported as 15–19 minor "stricter limit" findings per casino.
// Now operations a target file puts in one bucket are counted together (rate-limit-log.ts), and a
// 429 is stricter only where the target refused before afp had sent as many calls of the bucket in
// the documented minute as the file allows; the clock and the counts are in the evidence.
import { describe, expect, test } from 'vitest';
import { RateLimitLog } from '../../src/live/rate-limit-log.ts';
import { rateLimitFinding } from '../../src/live/rate-limit-finding.ts';
import type { SentRequest } from '../../src/live/live-session.ts';

const REQUEST = { method: 'POST', url: 'http://127.0.0.1:1/api/v1/games/video-poker/deal' } as unknown as SentRequest;
const START = Date.parse('2026-11-28T12:00:00.000Z');
const GAMES = { name: 'games', ops: ['casino.bet', 'casino.deal', 'casino.draw'] as const };

/** `bets` single bets and `deals` deals one second apart, then a refused deal. */
function refusedAfter(bets: number, deals: number) {
  const log = new RateLimitLog<SentRequest>();
  let nowMs = START;
  for (let index = 0; index < bets; index += 1) log.sent('casino.bet', (nowMs += 500));
  for (let index = 0; index < deals; index += 1) log.sent('casino.deal', (nowMs += 500));
  log.sent('casino.deal', (nowMs += 500));
  log.limited(
    'casino.deal',
    nowMs,
    { request: REQUEST, body: { error: 'rate_limit_exceeded' }, retryAfter: null },
    1_000,
    {
      name: GAMES.name,
      ops: [...GAMES.ops],
    },
  );
  const meeting = log.meetings.get('casino.deal');
  if (meeting === undefined) throw new Error('no 429 met');
  return { meeting, atMs: nowMs };
}

describe('a 429 against the documented window of its bucket', () => {
  test('afp sent 60 calls of the bucket in the minute (45 bets, 15 deals): the documented limit kept, info', () => {
    const { meeting, atMs } = refusedAfter(45, 15);
    expect(meeting.bucket).toStrictEqual({ name: 'games', calls: 60 });
    expect(meeting.callsOfOperation).toBe(15);
    const finding = rateLimitFinding(meeting, { perMinute: 60, bucket: 'games' }, () => 'curl');
    expect(finding.severity).toBe('info');
    expect(finding.title).toBe(
      "casino.deal: the target refused once 60 calls of bucket games (casino.deal and the operations counted with it) had gone out in a minute: its documented 60/min, kept (afp's pace reached it)",
    );
    expect(finding.seen).toContain(`first 429 at ${new Date(atMs).toISOString()}`);
    expect(finding.seen).toContain(`60 calls of bucket games`);
    expect(finding.seen).toContain(`${new Date(atMs - 60_000).toISOString()} to then`);
  });

  test('the target refused at 20 calls of the bucket: stricter than documented, minor, with the clock and counts', () => {
    const { meeting } = refusedAfter(15, 5);
    const finding = rateLimitFinding(meeting, { perMinute: 60, bucket: 'games' }, () => 'curl');
    expect(finding.severity).toBe('minor');
    expect(finding.title).toBe(
      "casino.deal: the target's rate limit is stricter than the target file's 60/min (20 calls of bucket games (casino.deal and the operations counted with it) in the minute before its first 429)",
    );
    expect(finding.expected).toBe("up to 60 calls a minute in bucket games (the target file's limits)");
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
    expect(rateLimitFinding(meeting, undefined, () => 'curl').severity).toBe('info');
  });
});
