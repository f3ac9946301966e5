// One conformance suite (src/conformance), three targets (STYLE rule 8, Hono's runTest): the
// in-process dispatcher and a real `afp serve` on 127.0.0.1 (port 0, manual clock) in every
// `npm test`, and a live deployment when AFP_TARGET names its api URL or a target file (then the
// operation cases join, through the target's dialects). Every case is one test; a case a target
// cannot run is an `it.skip` whose name carries the reason.
import { afterAll, describe, expect, it, test } from 'vitest';
import { ENDPOINT_IDS } from '../../src/client/client.ts';
import type { ConformanceTarget } from '../../src/conformance/conformance-case.ts';
import { CONFORMANCE_CASES, uncoveredEndpoints } from '../../src/conformance/conformance-cases.ts';
import { runCase, runConformance, skipReason } from '../../src/conformance/conformance-runner.ts';
import { inProcessConformanceTarget, liveConformanceTarget } from '../../src/conformance/conformance-target.ts';
import { CASINO_REJECTION_CASES } from '../../src/conformance/casino/casino-cases.ts';
import { DOMAINS_REJECTION_CASES } from '../../src/conformance/domains/domains-cases.ts';
import { TRADING_REJECTION_CASES } from '../../src/conformance/trading/trading-cases.ts';
import { WALLET_STYLE_REJECTION_CASES } from '../../src/conformance/wallet/wallet-style-cases.ts';
import { HAPPY_CASES } from '../../src/conformance/happy-cases.ts';
import { REJECTION_CASES } from '../../src/conformance/rejection-cases.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { startServe } from '../../src/server/listeners.ts';
import { Deadline } from '../../src/core/deadline.ts';
import type { WaitClock } from '../../src/core/clock.ts';
import { OPERATION_CASES } from '../../src/conformance/operation-cases.ts';
import { runTargetConformance, type SuiteCase } from '../../src/conformance/target-conformance.ts';
import { resolveTarget } from '../../src/live/resolve-target.ts';
import { curlOf } from '../../src/live/curl.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const START_MS = Date.parse('2025-01-01T00:00:00.000Z');
const SEED = '11';
const LIVE_SKIP_REASON = 'set AFP_TARGET=<api url> to run the conformance suite against a live deployment';

/** One test per case; the session keeps this run's agent ids and IPs apart from earlier runs on the same target. */
function defineSuite(target: ConformanceTarget, session: string): void {
  for (const [index, kase] of CONFORMANCE_CASES.entries()) {
    const reason = skipReason(target, kase);
    if (reason !== null) {
      it.skip(`${kase.name} — skipped: ${reason}`, () => undefined);
      continue;
    }
    test(kase.name, async () => {
      const result = await runCase(target, kase, index, session);
      expect(result.outcome === 'failed' ? result.problems : result.outcome).toEqual('passed');
    });
  }
}

describe('the suite itself', () => {
  test('every endpoint of the table has rejection cases and a happy path', () => {
    expect(
      uncoveredEndpoints([
        ...REJECTION_CASES,
        ...CASINO_REJECTION_CASES,
        ...TRADING_REJECTION_CASES,
        ...DOMAINS_REJECTION_CASES,
        ...WALLET_STYLE_REJECTION_CASES,
      ]),
    ).toEqual([]);
    expect(uncoveredEndpoints(CONFORMANCE_CASES)).toEqual([]);
    const happyEndpoints = new Set(HAPPY_CASES.flatMap((kase) => kase.endpoints));
    // Rejection-only endpoints: the A dispute (its happy path mirrors the B one).
    expect(ENDPOINT_IDS.filter((endpoint) => !happyEndpoints.has(endpoint))).toEqual(['escrow.A.dispute']);
    const names = CONFORMANCE_CASES.map((kase) => kase.name);
    expect(new Set(names).size).toBe(names.length);
  });

  test('a platform with a deliberate defect fails the cases that watch it, and only those', async () => {
    const broken = inProcessConformanceTarget({
      seed: SEED,
      startMs: START_MS,
      defects: ['escrow-fee-2pct', 'faucet-cooldown-23h'],
    });
    const results = await runConformance(broken, HAPPY_CASES, 'defect');
    const failed = results.filter((result) => result.outcome === 'failed').map((result) => result.name);
    expect(failed).toEqual([HAPPY_CASES[0]?.name, HAPPY_CASES[2]?.name, HAPPY_CASES[3]?.name]);
  });

  test('a target without a movable clock skips the time cases with the reason', () => {
    const target = {
      ...inProcessConformanceTarget({ seed: SEED, startMs: START_MS }),
      clock: null,
      clockNote: 'no clock here',
    };
    const timed = HAPPY_CASES.filter((kase) => kase.needsClock);
    expect(timed.length).toBeGreaterThan(0);
    for (const kase of timed) expect(skipReason(target, kase)).toBe('no clock here');
  });
});

describe('conformance: in-process (Dispatcher over ALL_ROUTES, virtual clock)', () => {
  defineSuite(inProcessConformanceTarget({ seed: SEED, startMs: START_MS }), 'inproc');
});

const serve = await startServe({
  trustedProxies: LOOPBACK_PROXIES,
  routes: ALL_ROUTES,
  seed: SEED,
  port: 0,
  clockMode: 'manual',
  startMs: START_MS,
  log: () => undefined,
});
afterAll(async () => {
  await serve.close();
});
const servedUrl = serve.urls.api as string;

describe(`conformance: afp serve over HTTP (${servedUrl}, manual clock)`, async () => {
  defineSuite(await liveConformanceTarget(servedUrl), 'served');
});

const liveUrl = process.env['AFP_TARGET'];
describe.skipIf(liveUrl === undefined || liveUrl === '')(
  `conformance: live target — ${liveUrl === undefined || liveUrl === '' ? LIVE_SKIP_REASON : liveUrl}`,
  async () => {
    if (liveUrl === undefined || liveUrl === '') {
      it.skip(LIVE_SKIP_REASON, () => undefined);
      return;
    }
    // The session is unique per invocation: a shared live target keeps every earlier run's agents.
    const session = Date.now().toString(16).slice(-8);
    const resolved = /^https?:\/\//i.test(liveUrl) ? null : await resolveTarget(liveUrl);
    if (resolved === null) {
      defineSuite(await liveConformanceTarget(liveUrl), session);
      return;
    }
    // A target file: every case through the target's dialects (src/conformance/target-conformance.ts), run once, one test each.
    if (!resolved.ok) throw new Error(resolved.message);
    const cases: SuiteCase[] = [...CONFORMANCE_CASES, ...OPERATION_CASES];
    const clock: WaitClock = {
      nowMs: () => Date.now(),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    };
    const run = await runTargetConformance(
      { target: resolved.value, clock, deadline: new Deadline(clock, 1_800), session, curlOf },
      cases,
    );
    for (const result of run.results) {
      if (result.outcome === 'skipped') it.skip(`${result.name} — skipped: ${result.reason}`, () => undefined);
      else
        test(`${result.name}${result.outcome === 'finding' ? ` — findings: ${result.findingIds.join(', ')}` : ''}`, () =>
          expect(result.outcome === 'failed' ? result.problems : 'not failed').toEqual('not failed'));
    }
  },
);
