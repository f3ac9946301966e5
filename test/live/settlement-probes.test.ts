// The settlement-over-time probes of `afp audit money --include-slow` against a real `afp serve` on
// loopback (manual clock), the clock moved through its admin doors (time travel) so that a 48-hour
// window takes seconds: the documents' serve refunds an expired escrow in full and resolves a
// dispute in its window (no finding); `afp serve --dialect deployed` configured as the deployment
// (`escrow-expiry-keeps-fee`, `escrow-dispute-stuck`: DEPLOYED.md §4) refunds amount − commission
// after its shortest expiry (1 h, clamped) and leaves the dispute open — a minor rule finding (the
// commission its creation stated is kept: the target's own rule, not money lost; it was a major
// money finding, which would call a deployment working as DEPLOYED.md describes broken) and a
// liveness finding listing the escrow id. A target that is not an afp serve is waited on: the
// documents' style B (expires_in 1 s) is observed within the budget, the deployment's 1 h + 5 min
// sweep and the 48 h window are skipped with the reason, before any escrow is created.
import { afterEach, describe, expect, test } from 'vitest';
import { Deadline } from '../../src/core/deadline.ts';
import type { WaitClock } from '../../src/core/clock.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { runSettlementProbes, type SettlementResult } from '../../src/audit/probes/settlement-probes.ts';
import { timePassageOf } from '../../src/audit/probes/time-passage.ts';
import { FindingsCollector } from '../../src/report/findings/finding.ts';
import { openLiveAccount } from '../../src/live/live-account.ts';
import { LiveSession } from '../../src/live/live-session.ts';
import { curlOf } from '../../src/live/curl.ts';
import type { DialectName, Target } from '../../src/live/target.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import type { DefectName } from '../../src/services/shared/context.ts';
import { START_MS } from '../client/fixtures.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { ESCROW_FEE_UNSTATED, rewritingProxy, type Rewrite } from '../fixtures/rewriting-proxy.ts';
import { DEFAULT_CONFIG, type PlatformConfig } from '../../src/services/shared/config.ts';

const handles: ServeHandle[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  for (const handle of handles.splice(0)) await handle.close({ forceAfterMs: 0 });
});

interface Setup {
  readonly dialect: DialectName;
  readonly deployed: boolean;
  readonly defects?: readonly DefectName[];
  /** Whether the probes see the target as an afp serve (time travel) or as any target (waiting). */
  readonly travel: boolean;
  readonly maxMinutes?: number;
  /** The escrow service reached through a proxy that rewrites its answers (a target with words of its own). */
  readonly rewrite?: Rewrite;
  readonly config?: PlatformConfig;
  /** Ctrl-C (the run's deadline interrupted) when a said line starts with this. */
  readonly interruptAt?: string;
}

async function settle(
  setup: Setup,
): Promise<{ findings: FindingsCollector; results: SettlementResult[]; said: string[]; handle: ServeHandle }> {
  const handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: setup.deployed ? DEPLOYED_ROUTES : ALL_ROUTES,
    ...(setup.deployed ? { layout: DEPLOYED_LAYOUT } : {}),
    seed: '17',
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    defects: setup.defects ?? [],
    ...(setup.config === undefined ? {} : { config: setup.config }),
    log: () => undefined,
  });
  handles.push(handle);
  const urls = handle.urls;
  const adminUrl = (setup.deployed ? urls.casino : urls.api) as string;
  const servedEscrow = (setup.dialect === 'B' ? urls.api : urls.escrow) as string;
  const proxy = setup.rewrite === undefined ? null : await rewritingProxy(servedEscrow, setup.rewrite);
  if (proxy !== null) closers.push(proxy.close);
  const escrowUrl = proxy?.url ?? servedEscrow;
  const target: Target = {
    name: 'afp serve',
    source: adminUrl,
    afpServe: true,
    adminUrl,
    services: {
      casino: { url: urls.casino as string, dialect: setup.deployed ? 'deployed' : 'A' },
      escrow: { url: escrowUrl, dialect: setup.dialect },
    },
    register: { service: 'casino' },
    funding: { method: 'admin-deposit' },
    limits: {},
    fairness: 'afp',
  };
  // Waiting on "the wall": each sleep moves the serve's clock by as much, as a real clock would.
  let nowMs = 0;
  const clock: WaitClock = {
    nowMs: () => nowMs,
    sleep: async (ms) => {
      nowMs += ms;
      await session.admin()?.moveClock({ advanceMs: Math.ceil(ms) });
    },
  };
  const session: LiveSession = new LiveSession({ target, clock, deadline: new Deadline(clock, 7 * 86_400) });
  const main = await openLiveAccount({
    session,
    key: null,
    fundMicro: 5_000_000n,
    clock,
    deadline: new Deadline(clock, 60),
  });
  const second = await openLiveAccount({
    session,
    key: null,
    fundMicro: 1_000_000n,
    clock,
    deadline: new Deadline(clock, 60),
  });
  if (!main.ok || !second.ok) throw new Error('accounts');
  const probing = setup.travel
    ? session
    : new LiveSession({
        target: { ...target, afpServe: false, adminUrl: null },
        clock,
        deadline: new Deadline(clock, 7 * 86_400),
      });
  const findings = new FindingsCollector();
  const said: string[] = [];
  const deadline = new Deadline(clock, 7 * 86_400);
  const results = await runSettlementProbes({
    session: probing,
    apiKey: main.value.apiKey,
    agentId: main.value.agentId,
    second: second.value,
    findings,
    curlOf,
    maxMinutes: setup.maxMinutes ?? 90,
    time: timePassageOf(probing, clock, deadline),
    say: (line) => {
      said.push(line);
      if (setup.interruptAt !== undefined && line.startsWith(setup.interruptAt)) deadline.interrupt();
    },
  });
  return { findings, results, said, handle };
}

/** Both probes ran and neither raised a finding of its own. */
function expectBothRanClean(results: readonly SettlementResult[]): void {
  expect(results.map((result) => [result.name, result.status, result.findingIds])).toEqual([
    ['escrow-expiry', 'ran', []],
    ['escrow-dispute', 'ran', []],
  ]);
}

describe('settlement probes', () => {
  test('the documents serve, time travel: the expired escrow refunded in full, the dispute resolved in its window — no finding', async () => {
    const { findings, results, said } = await settle({ dialect: 'A', deployed: false, travel: true });
    expect(said[0]).toBe(
      'plan: escrow-expiry waits for a full refund, no fee, of an escrow at the shortest expiry the target allows (24 h; platform.md "Limits" 8 (style A sends no expiry; the default 86400 seconds)): at most 24 h 2 s',
    );
    expect(said[1]).toBe(
      'plan: escrow-dispute waits for the resolution of a dispute within the documents\' 48 h window (platform.md "Escrow"): at most 48 h 2 s',
    );
    expect(said[2]).toMatch(
      /^plan: time travel: the afp serve's clock is moved forward \(POST http:\/\/127\.0\.0\.1:\d+\/_afp\/clock\), no waiting; at most 72 h 4 s in all of the target's time/,
    );
    expectBothRanClean(results);
    expect(results[0]?.note).toMatch(/^escrow esc_\w+ of 0\.10 expired; the creator got 0\.10 back$/);
    expect(results[1]?.note).toMatch(/^escrow esc_\w+ of 0\.10 disputed, then refunded; the parties got 0\.10$/);
    expect(findings.list()).toEqual([]);
  });

  test('afp serve --dialect deployed as the deployment: the refund keeps the commission, the dispute never resolves — findings, not a crash', async () => {
    const { findings, results, said } = await settle({
      dialect: 'deployed',
      deployed: true,
      defects: ['escrow-expiry-keeps-fee', 'escrow-dispute-stuck'],
      travel: true,
    });
    expect(said[0]).toBe(
      'plan: escrow-expiry waits for a full refund, no fee, of an escrow at the shortest expiry the target allows (1 h + 5 min sweep; DEPLOYED.md §4 (timeout_hours clamped to at least 1; expiry by a 5-minute sweep)): at most 1 h 5 min 2 s',
    );
    expect(results.map((result) => [result.name, result.status])).toEqual([
      ['escrow-expiry', 'ran'],
      ['escrow-dispute', 'ran'],
    ]);
    expect(results[0]?.note).toMatch(/^escrow esc_\w+ of 0\.10 refunded; the creator got 0\.099 back$/);
    expect(findings.list().some((finding) => finding.id === 'money:escrow:expiry-refund-short')).toBe(false);
    const short = findings.list().find((finding) => finding.id === 'rule:escrow:expiry-keeps-fee');
    expect(short).toMatchObject({ severity: 'minor', kind: 'rule', seen: '0.099' });
    expect(short?.title).toContain('the target keeps the 0.001 commission its creation stated');
    expect(short?.reproduce).toMatch(
      /^curl -sS -X POST 'http:\/\/127\.0\.0\.1:\d+\/escrow\/create' .*"timeout_hours":1/,
    );
    const stuck = /^escrow (esc_\w+) still disputed after 48 h 2 s$/.exec(results[1]?.note ?? '');
    expect(stuck).not.toBeNull();
    const liveness = findings.list().find((finding) => finding.id === 'liveness:escrow:unsettled');
    expect(liveness).toMatchObject({
      severity: 'major',
      kind: 'rule',
      title: `1 escrow(s) did not settle within their wait: ${stuck?.[1] ?? ''}`,
    });
    expect(liveness?.reproduce).toContain(`/escrow/dispute/${stuck?.[1] ?? ''}`);
    expect(results[1]?.findingIds).toEqual(['liveness:escrow:unsettled']);
  });

  test('Ctrl-C during a wait: the escrow is not judged and no "did not settle" finding is raised (its wait was cut short)', async () => {
    // Before, a wait cut short fell through to the judgement: a dispute still open after none of its
    // 48 h was reported as a major liveness finding "did not settle within its wait".
    const { findings, results } = await settle({
      dialect: 'deployed',
      deployed: true,
      defects: ['escrow-expiry-keeps-fee', 'escrow-dispute-stuck'],
      travel: true,
      interruptAt: 'wait: escrow-dispute',
    });
    expect(results.map((result) => [result.name, result.status, result.findingIds])).toEqual([
      ['escrow-expiry', 'ran', ['rule:escrow:expiry-keeps-fee']],
      ['escrow-dispute', 'ran', []],
    ]);
    expect(results[1]?.note).toMatch(
      /^escrow esc_\w+: its wait was cut short after 0 s of 48 h 2 s \(last read: \w+\), so its settlement was not observed$/,
    );
    expect(findings.list().map((finding) => finding.id)).toEqual(['rule:escrow:expiry-keeps-fee']);
  });

  test("afp serve --dialect deployed as afp serves it: afp's ledger rules, no finding", async () => {
    const { findings, results } = await settle({ dialect: 'deployed', deployed: true, travel: true });
    expectBothRanClean(results);
    expect(findings.list().filter((finding) => finding.severity !== 'info')).toEqual([]);
  });

  test('an escrow service with status names of its own (active, under_review): each is read as open until it changes, no finding', async () => {
    // Before, an open escrow in a status afp did not know counted as settled at once: the expiry probe judged a
    // refund that had not happened yet (a short refund, major) and the dispute probe a resolution.
    const { findings, results } = await settle({
      dialect: 'deployed',
      deployed: true,
      travel: true,
      rewrite: (_request, answer) =>
        answer.text
          .replaceAll('"status":"funded"', '"status":"active"')
          .replaceAll('"status":"disputed"', '"status":"under_review"'),
    });
    expectBothRanClean(results);
    expect(findings.list().filter((finding) => finding.severity !== 'info')).toEqual([]);
  });

  test("an escrow fee of 5% that no answer states: the dispute's bounds take the fee a control release measured, and the control's money is kept out of the escrow's", async () => {
    const { findings, results } = await settle({
      dialect: 'deployed',
      deployed: true,
      travel: true,
      config: { ...DEFAULT_CONFIG, escrow: { ...DEFAULT_CONFIG.escrow, feeBps: 500n } },
      rewrite: ESCROW_FEE_UNSTATED,
    });
    expectBothRanClean(results);
    expect(results[1]?.note).toMatch(
      /^escrow esc_\w+ of 0\.10 disputed, then refunded; the parties got 0\.10 \(a release's fee: the fee 0\.005 measured \(no fee stated; control escrow esc_\w+ of 0\.10 released over HTTP: /,
    );
    expect(findings.list().filter((finding) => finding.severity !== 'info' && finding.kind !== 'shape')).toEqual([]);
  });

  test('a dispute resolved by releasing to the counterparty, at a 3% fee no answer states: paid the amount less the measured fee, no finding (before: major against the documents’ 1%)', async () => {
    const { findings, results } = await settle({
      dialect: 'deployed',
      deployed: true,
      travel: true,
      config: { ...DEFAULT_CONFIG, escrow: { ...DEFAULT_CONFIG.escrow, feeBps: 300n, disputeOutcome: 'release' } },
      rewrite: ESCROW_FEE_UNSTATED,
    });
    expectBothRanClean(results);
    expect(results[1]?.note).toMatch(
      /^escrow esc_\w+ of 0\.10 disputed, then released; the parties got 0\.097 \(a release's fee: the fee 0\.003 measured /,
    );
    expect(findings.list().filter((finding) => finding.severity !== 'info' && finding.kind !== 'shape')).toEqual([]);
  });

  test("a target that cannot be time-travelled: the deployment's shortest expiry and the 48 h window exceed --max-minutes 5 — skipped with the reason, before anything is created", async () => {
    const { results, said } = await settle({ dialect: 'deployed', deployed: true, travel: false, maxMinutes: 5 });
    expect(results.map((result) => [result.name, result.status])).toEqual([
      ['escrow-expiry', 'skipped'],
      ['escrow-dispute', 'skipped'],
    ]);
    expect(results[0]?.note).toBe(
      'the shortest expiry the target allows (1 h + 5 min sweep: DEPLOYED.md §4 (timeout_hours clamped to at least 1; expiry by a 5-minute sweep)) exceeds --max-minutes 5: it cannot be observed within the budget',
    );
    expect(results[1]?.note).toBe(
      "the documents' 48 h dispute window exceeds --max-minutes 5: its resolution cannot be observed within the budget",
    );
    expect(said).toEqual([
      `plan: escrow-expiry skipped: ${results[0]?.note ?? ''}`,
      `plan: escrow-dispute skipped: ${results[1]?.note ?? ''}`,
    ]);
  });

  test("the documents' style B waited on: expires_in 1 s is refunded in full within the budget; the 48 h window is skipped", async () => {
    const { findings, results, said } = await settle({ dialect: 'B', deployed: false, travel: false, maxMinutes: 5 });
    expect(said[0]).toContain('at most 3 s');
    expect(said).toContain(
      'plan: waiting on the wall clock (the target is not an afp serve: its clock cannot be moved), polling every 15 s; at most 3 s in all',
    );
    expect(results.map((result) => [result.name, result.status])).toEqual([
      ['escrow-expiry', 'ran'],
      ['escrow-dispute', 'skipped'],
    ]);
    expect(results[0]?.note).toMatch(/^escrow esc_\w+ of 0\.10 expired; the creator got 0\.10 back$/);
    expect(findings.list().filter((finding) => finding.severity !== 'info')).toEqual([]);
  });
});
