// A target that announces its own rate limits (X-RateLimit-* / RateLimit-Policy) is judged by them,
// never by afp's copy of DEPLOYED.md (prober 66b). Real loopback listeners: a deployed afp serve
// (manual clock) behind test/fixtures/limiting-proxy.ts, which keeps and announces a limit.
//   - `afp target probe` writes the announced limit where the probe's GET of an operation carried
//     one (5 per 30 s as 10/min) and DEPLOYED.md's figure elsewhere, each line saying which;
//   - a 429 from a target keeping its announced limit is info naming both, whatever the file
//     claims; one refusing below its announced limit is still a minor finding;
//   - the "429 after N calls" evidence counts calls still in flight when the 429 came back;
//   - a refusal below the announced limit of the operation but not of all calls to the target is
//     info: the limit may be one bucket for several operations.
import { afterAll, describe, expect, test } from 'vitest';
import { Deadline } from '../../src/core/deadline.ts';
import type { WaitClock } from '../../src/core/clock.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { announcedLimit, perMinuteWithin } from '../../src/live/announced-limit.ts';
import { LiveSession } from '../../src/live/live-session.ts';
import { rateLimitFinding } from '../../src/live/rate-limit-finding.ts';
import type { Target } from '../../src/live/target.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { limitingProxy } from '../fixtures/limiting-proxy.ts';
import { manualServes } from '../fixtures/manual-serves.ts';
import { probeInProcess } from '../fixtures/target-probe-in-process.ts';

const deployedServe = manualServes({
  trustedProxies: LOOPBACK_PROXIES,
  routes: DEPLOYED_ROUTES,
  layout: DEPLOYED_LAYOUT,
  seed: '66',
  startMs: Date.parse('2026-03-01T00:00:00.000Z'),
});

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

/** Real time for the network, virtual time for waits. */
function fakeClock(): WaitClock {
  let nowMs = 1_000_000;
  return {
    nowMs: () => nowMs,
    sleep: async (ms) => {
      nowMs += ms;
    },
  };
}

function casinoTarget(url: string): Target {
  return {
    name: 'limited',
    source: url,
    afpServe: false,
    adminUrl: null,
    services: { casino: { url, dialect: 'deployed' } },
    register: { service: 'casino' },
    funding: { method: 'faucet' },
    // A figure from afp's copy of the deployment's rules, above what the target announces.
    limits: { 'casino.games': { perMinute: 20 } },
    fairness: 'deployed',
  };
}

describe('announced limits read from headers', () => {
  test('any case, the policy window, the strictest of several, a quota without a window', () => {
    expect(announcedLimit({ 'x-ratelimit-limit': '5', 'ratelimit-policy': '5;w=30' })).toMatchObject({
      limit: 5,
      windowSeconds: 30,
    });
    expect(announcedLimit({ 'RateLimit-Limit': '10', 'RateLimit-Policy': '10;w=1, 50;w=60' })).toMatchObject({
      limit: 50,
      windowSeconds: 60,
    });
    expect(announcedLimit({ 'ratelimit-policy': '"default";q=7;w=10' })).toMatchObject({ limit: 7, windowSeconds: 10 });
    expect(announcedLimit({ 'x-ratelimit-limit': '9', 'x-ratelimit-reset': '1795856399' })).toMatchObject({
      limit: 9,
      windowSeconds: null,
    });
    expect(announcedLimit({ 'content-type': 'application/json' })).toBeNull();
    expect(perMinuteWithin({ limit: 5, windowSeconds: 30, headers: '' })).toBe(10);
    expect(perMinuteWithin({ limit: 1, windowSeconds: 120, headers: '' })).toBeNull();
  });
});

describe('afp target probe', () => {
  test('writes the limit the target announced on its answers, and DEPLOYED.md’s only where it announced none', async () => {
    const handle = await deployedServe();
    const proxy = await limitingProxy(handle.urls.casino as string, [
      { match: /^GET \/api\/v1\/games$/, limit: 5, windowSeconds: 30 },
    ]);
    closers.push(proxy.close);
    const run = await probeInProcess([proxy.url]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      '  casino.games: { per_minute: 10 }  # announced by the target: X-RateLimit-Limit: 5; RateLimit-Policy: 5;w=30 on GET /api/v1/games; 5 per 30 s written as 10/min, evenly spaced: never more than 5 in 30 s',
    );
    expect(run.stdout).toMatch(
      /\n {2}escrow\.create: \{ per_minute: 20 \} {2}# afp's copy of DEPLOYED\.md \(the target announced no limit for it to the probe\): /,
    );
    expect(run.stdout).not.toContain("limits:  # the deployment's limits (spec/DEPLOYED.md)");
  });
});

describe('a 429 judged by the limit the target announced', () => {
  test('a target keeping 5 per 30 s, met by 6 calls sent together: info naming both, the calls in flight counted', async () => {
    const handle = await deployedServe();
    const proxy = await limitingProxy(handle.urls.casino as string, [
      { match: /^GET \/api\/v1\/games$/, limit: 5, windowSeconds: 30, holdMs: 150 },
    ]);
    closers.push(proxy.close);
    const clock = fakeClock();
    const live = new LiveSession({
      target: casinoTarget(proxy.url),
      clock,
      deadline: new Deadline(clock, 600),
      paced: false,
    });
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => live.call('casino.games', {}, null)));
    expect(outcomes.map((outcome) => outcome.kind)).toStrictEqual(Array.from({ length: 6 }, () => 'ok'));
    expect(proxy.refused()).toBe(1);
    const meeting = live.rateLimits.meetings.get('casino.games');
    if (meeting === undefined) throw new Error('no 429 met');
    // The five accepted calls were held by the target: all in flight when the 429 came back.
    expect(meeting.callsOfOperation).toBe(5);
    expect(meeting.unanswered).toBe(5);
    const finding = rateLimitFinding(meeting, { perMinute: 20 }, () => 'curl');
    expect(finding.severity).toBe('info');
    expect(finding.title).toBe(
      "casino.games: the target keeps its announced limit of 5 per 30 s (429 after 5 calls of casino.games, 5 of them still unanswered (5 calls to the target in all) in the minute before; 5 in the 30 s before (5 to the target in all)); the target file's 20/min",
    );
    expect(finding.evidence).toContain('(X-RateLimit-Limit: 5; RateLimit-Policy: 5;w=30)');
  });

  test('a target refusing below its own announced limit is still a minor finding', async () => {
    const handle = await deployedServe();
    const proxy = await limitingProxy(handle.urls.casino as string, [
      { match: /^GET \/api\/v1\/games$/, limit: 5, windowSeconds: 30, refuseAfter: 2 },
    ]);
    closers.push(proxy.close);
    const clock = fakeClock();
    const live = new LiveSession({ target: casinoTarget(proxy.url), clock, deadline: new Deadline(clock, 600) });
    for (let index = 0; index < 3; index++) expect((await live.call('casino.games', {}, null)).kind).toBe('ok');
    const meeting = live.rateLimits.meetings.get('casino.games');
    if (meeting === undefined) throw new Error('no 429 met');
    const finding = rateLimitFinding(meeting, { perMinute: 20 }, () => 'curl');
    expect(finding.severity).toBe('minor');
    expect(finding.title).toBe(
      'casino.games: the target refuses below its own announced limit of 5 per 30 s (429 after 2 calls of casino.games (2 calls to the target in all) in the minute before; 2 in the 30 s before (2 to the target in all))',
    );
    // The same refusal after 5 calls to the target in all within the window: the limit may be one
    // bucket for several operations (one path serving two services), so nothing says it was broken.
    const shared = rateLimitFinding({ ...meeting, callsInAllInAnnouncedWindow: 5 }, { perMinute: 20 }, () => 'curl');
    expect(shared.severity).toBe('info');
    expect(shared.title).toContain('the target keeps its announced limit of 5 per 30 s');
  });
});
