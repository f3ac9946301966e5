// The casino check against a live `afp serve` on loopback (started in this process, manual
// clock): `afp check --target` holds against the faithful casino and says why deposits are
// skipped; the scripted casino journey runs over HTTP without a skip (what needs a deposit left
// out); a server started with a casino defect answers exit 3 naming a casino command.
import { afterEach, describe, expect, it } from 'vitest';
import { liveTarget } from '../../../src/check/live-target.ts';
import { main as checkEnding } from '../../../src/cli/check.ts';
import { SystemClock } from '../../../src/core/clock.ts';
import { ALL_ROUTES } from '../../../src/http/routes/index.ts';
import type { DefectName } from '../../../src/services/shared/context.ts';
import { startServe, type ServeHandle } from '../../../src/server/listeners.ts';
import { casinoJourney, runJourney } from './casino-journey.ts';
import { LOOPBACK_PROXIES } from '../../../src/http/trusted-proxies.ts';
import { coded } from '../../cli/ending-code.ts';

const main = coded(checkEnding);

const handles: ServeHandle[] = [];

afterEach(async () => {
  while (handles.length > 0) await handles.pop()?.close({ forceAfterMs: 1_000 });
});

async function serve(defects: readonly DefectName[] = []): Promise<string> {
  const handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: ALL_ROUTES,
    seed: '9',
    port: 0,
    clockMode: 'manual',
    startMs: Date.parse('2025-03-01T09:30:00.000Z'),
    defects,
    log: () => undefined,
  });
  handles.push(handle);
  const api = handle.urls.api;
  if (api === undefined) throw new Error('afp serve has an api mount');
  return api;
}

async function check(argv: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await main(argv, { out: (text) => (out += text), err: (text) => (out += text) });
  return { code, out };
}

describe('the casino check against a live afp server', () => {
  it('holds against the faithful casino and names the skipped deposits', async () => {
    const url = await serve();
    const { code, out } = await check(['--target', url, '--seed', '8', '--runs', '20']);
    expect(code).toBe(0);
    expect(out).toMatch(/^note: casino deposits skipped \(so no withdrawal reaches the 1,000 review threshold\): /m);
    expect(out).not.toMatch(/casino style-A commands skipped/);
    expect(out).toMatch(/^ok: 20 runs held/m);
  });

  it('runs the casino journey over HTTP: bets, batch, rotation and replay, verify, challenges, a tournament ended on the clock, withdrawals', async () => {
    const url = await serve();
    const target = await liveTarget({ url, session: 'c0ffee01', wallClock: new SystemClock(), timeoutMs: 5_000 });
    expect(target.capabilities).toMatchObject({ casino: true, deposits: false, exactTime: true });
    const run = await target.newRun();
    expect(await runJourney(run, casinoJourney({ deposits: false }))).toEqual([]);
    expect(run.model.casino.challenges.map((challenge) => challenge.status)).toEqual([
      'resolved',
      'resolved',
      'declined',
    ]);
    expect(run.model.casino.tournaments[0]?.prizes).toHaveLength(3);
    expect(run.model.casino.withdrawals).toHaveLength(1);
  });

  it('exits 3 against a server with casino-payout-short, naming a casino command', async () => {
    const url = await serve(['casino-payout-short']);
    const { code, out } = await check(['--target', url, '--seed', '3', '--runs', '50']);
    expect(code).toBe(3);
    const steps = out.split('\n').filter((line) => /^ {2}\d+\. /.test(line));
    expect(steps.length).toBeLessThanOrEqual(6);
    expect(steps.at(-1)).toMatch(/(betA|betB|batch|playTournament)\(/);
    expect(out).toMatch(/^error: .*(payout_multiplier|payout): expected/m);
  });
});
