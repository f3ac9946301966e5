// The stall of `afp check` through `afp serve --dialect deployed --clock manual`: the stand-in's
// per-IP and per-agent windows run on the serve's clock, which stands still; the check paced and
// waited out 429s on the wall clock, so once a window's count was spent (20 escrow creations per
// IP, 60 games per agent) every retry met the same window and the check sat until its 900-second
// budget ended. Now a manual serve's own clock is the one waited on (src/live/remote-serve-clock.ts):
// paces and 429 waits move it, so an 80-command check through the stand-in ends in seconds.
import { describe, expect, test } from 'vitest';
import { Deadline } from '../../src/core/deadline.ts';
import { SYSTEM_LIVE_CLOCK } from '../../src/cli/audit-io.ts';
import { main as checkEnding } from '../../src/cli/check.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { LiveSession } from '../../src/live/live-session.ts';
import { resolveTarget } from '../../src/live/resolve-target.ts';
import { RemoteServeClock, waitClockOf } from '../../src/live/remote-serve-clock.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { manualServes } from '../fixtures/manual-serves.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { coded } from '../cli/ending-code.ts';

const main = coded(checkEnding);

const START_MS = Date.parse('2025-01-01T00:00:00.000Z');
const serve = manualServes({
  trustedProxies: LOOPBACK_PROXIES,
  routes: DEPLOYED_ROUTES,
  layout: DEPLOYED_LAYOUT,
  seed: '5',
  startMs: START_MS,
});

async function serveNowMs(casinoUrl: string): Promise<number> {
  const body = (await (await fetch(`${casinoUrl}/_afp/clock`)).json()) as { now_ms: number };
  return body.now_ms;
}

describe("waiting on a manual serve's clock", () => {
  test("12 casino registrations (10 per IP per 60 s) all answered: the paces moved the serve's clock, not the wall's", async () => {
    const casino = (await serve()).urls.casino as string;
    const resolved = await resolveTarget(casino);
    if (!resolved.ok) throw new Error(resolved.message);
    const clock = await waitClockOf(resolved.value, SYSTEM_LIVE_CLOCK);
    expect(clock).toBeInstanceOf(RemoteServeClock);
    const session = new LiveSession({ target: resolved.value, clock, deadline: new Deadline(SYSTEM_LIVE_CLOCK, 30) });
    const wallStartMs = Date.now();
    const kinds: string[] = [];
    for (let index = 0; index < 12; index++) kinds.push((await session.call('casino.register', {}, null)).kind);
    expect(kinds).toEqual(Array.from({ length: 12 }, () => 'ok'));
    expect([...session.rateLimited.entries()]).toEqual([]);
    // 11 paces of 6 s on the serve's clock; seconds at most on the wall's.
    expect(await serveNowMs(casino)).toBeGreaterThanOrEqual(START_MS + 11 * 6_000);
    expect(Date.now() - wallStartMs).toBeLessThan(10_000);
  });

  test('a wall-clock target keeps the wall clock', async () => {
    const wall = await waitClockOf({ afpServe: false, adminUrl: null }, SYSTEM_LIVE_CLOCK);
    expect(wall).toBe(SYSTEM_LIVE_CLOCK);
  });
});

describe('afp check --target <a manual deployed serve> --max-commands 80', () => {
  test('three 80-command runs end in seconds and hold (they stalled past 20 escrow creations per IP)', async () => {
    const casino = (await serve()).urls.casino as string;
    let out = '';
    let err = '';
    const wallStartMs = Date.now();
    const code = await main(['--target', casino, '--seed', '7', '--runs', '3', '--max-commands', '80', '--quiet'], {
      out: (text) => {
        out += text;
      },
      err: (text) => {
        err += text;
      },
    });
    expect([code, err]).toEqual([0, '']);
    expect(out).toMatch(/^ok: 3 runs held \(at most 80 commands each, \d+ sent\)$/m);
    expect(Date.now() - wallStartMs).toBeLessThan(45_000);
    // The paces were waited out on the serve's clock: it moved tens of seconds (escrow creations 3 s
    // apart, 20 a minute per IP). The accounts' registrations now announce fresh client addresses
    // (the serve trusts them), so they no longer pace under one IP's window: about 58 s, not over 60.
    expect(await serveNowMs(casino)).toBeGreaterThan(START_MS + 30_000);
  });
});
