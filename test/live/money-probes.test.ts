// The money-path probes against a real `afp serve` on loopback (documents style A, manual clock):
// a faithful platform gives no money finding and every probe runs; with the deliberate defect
// `casino-payout-short` (every win paid 1% short) the bets-balance probe still balances (the
// answers and the balance agree with each other), which shows the probe measures the money path,
// not the payout rule (the edge audit catches that one). The domain probes: a registration race
// has one winner charged once (with `domains-registration-race` both win and both are charged);
// with `domains-sale-unpaid` a buyer that cannot pay gets the name. The liquidation probe checks
// margin and liquidation price against the formulas, moves the manual clock until a position is
// liquidated and sees `trading-liquidation-as-close` hand the margin back; elsewhere it does not measure.
import { afterEach, describe, expect, test } from 'vitest';
import { Deadline } from '../../src/core/deadline.ts';
import type { WaitClock } from '../../src/core/clock.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { runMoneyProbes } from '../../src/audit/probes/money-probes.ts';
import { FindingsCollector } from '../../src/report/findings/finding.ts';
import { openLiveAccount } from '../../src/live/live-account.ts';
import { LiveSession } from '../../src/live/live-session.ts';
import { curlOf } from '../../src/live/curl.ts';
import type { Target } from '../../src/live/target.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import type { DefectName } from '../../src/services/shared/context.ts';
import { START_MS } from '../client/fixtures.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { rewritingProxy, withoutFields, type Rewrite } from '../fixtures/rewriting-proxy.ts';
import { DEFAULT_CONFIG, type PlatformConfig } from '../../src/services/shared/config.ts';

/** The probes' clock: the targets here are afp serves, whose clock the probes read instead. */
const PROBE_CLOCK: WaitClock = { nowMs: () => 0, sleep: async () => undefined };

const handles: ServeHandle[] = [];
const proxies: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of proxies.splice(0)) await close();
  for (const handle of handles.splice(0)) await handle.close();
});

const clock: WaitClock = { nowMs: () => 0, sleep: async () => undefined };

async function probe(
  defects: readonly DefectName[],
  options: { afpServe: boolean; domainsRewrite?: Rewrite; config?: PlatformConfig } = { afpServe: true },
): Promise<{ findings: FindingsCollector; results: Awaited<ReturnType<typeof runMoneyProbes>> }> {
  const handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: ALL_ROUTES,
    seed: '11',
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    defects,
    ...(options.config === undefined ? {} : { config: options.config }),
    log: () => undefined,
  });
  handles.push(handle);
  const urls = handle.urls;
  // The domains service behind a proxy that rewrites its answers (a target that states less), where asked.
  const proxy =
    options.domainsRewrite === undefined ? null : await rewritingProxy(urls.domains as string, options.domainsRewrite);
  if (proxy !== null) proxies.push(proxy.close);
  const target: Target = {
    name: 'afp serve',
    source: urls.api as string,
    afpServe: true,
    adminUrl: urls.api as string,
    services: {
      casino: { url: urls.casino as string, dialect: 'A' },
      faucet: { url: urls.faucet as string, dialect: 'A' },
      escrow: { url: urls.escrow as string, dialect: 'A' },
      trading: { url: urls.trading as string, dialect: 'A' },
      domains: { url: proxy?.url ?? (urls.domains as string), dialect: 'A' },
      wallet: { url: urls.wallet as string, dialect: 'A' },
    },
    register: { service: 'casino' },
    funding: { method: 'admin-deposit' },
    limits: {},
    fairness: 'afp',
  };
  const findings = new FindingsCollector();
  const session = new LiveSession({ target, clock, deadline: new Deadline(clock, 60) });
  const main = await openLiveAccount({
    session,
    key: null,
    fundMicro: 50_000_000n,
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
  // The accounts are funded through afp serve's admin door; the probes may then see the target as any other.
  const probing = options.afpServe
    ? session
    : new LiveSession({ target: { ...target, afpServe: false }, clock, deadline: new Deadline(clock, 60) });
  const results = await runMoneyProbes({
    session: probing,
    apiKey: main.value.apiKey,
    agentId: main.value.agentId,
    second: second.value,
    withdrawAddress: null,
    clock: PROBE_CLOCK,
    findings,
    curlOf,
  });
  return { findings, results };
}

describe('money probes', () => {
  test('a faithful afp serve: every probe runs, no finding', async () => {
    const { findings, results } = await probe([]);
    expect(results.map((result) => [result.name, result.status])).toEqual([
      ['overdraw-withdrawal', 'ran'],
      ['batch-summary', 'ran'],
      ['double-spend', 'ran'],
      ['bets-balance', 'ran'],
      ['bad-input', 'ran'],
      ['trading-overdraw', 'ran'],
      ['trading-margin', 'ran'],
      ['domain-double-registration', 'ran'],
      ['domain-unpaid-transfer', 'ran'],
      ['trading-liquidation', 'ran'],
      ['wallet-wrong-key', 'ran'],
      ['wallet-documented', 'ran'],
      ['mcp-faucet-cooldown', 'skipped'],
      ['mcp-escrow-release', 'ran'],
    ]);
    // Both legs' margins and liquidation prices match the formulas; time moved until one was liquidated, the balance untouched across that step.
    expect(results.find((result) => result.name === 'trading-liquidation')?.note).toMatch(
      /^the main account: 5\.00 at leverage 10: BTC-PERP long entry [\d.]+, margin 0\.50, liquidation price [\d.]+ \(formula [\d.]+\); ETH-PERP short entry [\d.]+, margin 0\.50, liquidation price [\d.]+ \(formula [\d.]+\); (BTC-PERP long|ETH-PERP short) liquidated within \d+ step\(s\) of 6 h; balance before the step ([\d.]+), after \2$/,
    );
    expect(results.find((result) => result.name === 'trading-overdraw')?.note).toMatch(
      /: refused \(422 INSUFFICIENT_BALANCE\)$/,
    );
    expect(results.find((result) => result.name === 'trading-margin')?.note).toMatch(
      /^the main account: order of \d+\.00 at leverage 10 on \d+\.\d+: refused \(422 INSUFFICIENT_BALANCE\)$/,
    );
    expect(results.find((result) => result.name === 'domain-double-registration')?.note).toMatch(
      /: accepted \(201\), refused 409 CONFLICT; charged 14\.40$|: refused 409 CONFLICT, accepted \(201\); charged 14\.40$/,
    );
    expect(results.find((result) => result.name === 'domain-unpaid-transfer')?.note).toMatch(
      /acceptance refused 422 INSUFFICIENT_BALANCE, transfer without price refused 409 CONFLICT, owner /,
    );
    expect(results.find((result) => result.name === 'double-spend')?.note).toMatch(/^1 of 5 escrows/);
    expect(findings.list()).toEqual([]);
  });

  test('domains-registration-race: both simultaneous registrations accepted and charged, found as critical money findings', async () => {
    const { findings, results } = await probe(['domains-registration-race']);
    expect(results.find((result) => result.name === 'domain-double-registration')?.note).toMatch(
      /: accepted \(201\), accepted \(201\); charged 28\.80$/,
    );
    const raised = findings
      .list()
      .filter((finding) => finding.id.startsWith('money:domains:') && finding.endpoint === 'domains.register');
    expect(raised.map((finding) => [finding.id, finding.severity]).sort()).toEqual([
      ['money:domains:double-registration', 'critical'],
      ['money:domains:registration-charge', 'critical'],
    ]);
  });

  test("a registration whose answer states no cost: the charge is held to the price domains.check quotes, and not judged where nothing states one (never the documents' 14.40 recited)", async () => {
    // The race defect charges twice: the quote (14.40) still finds it.
    const quoted = await probe(['domains-registration-race'], {
      afpServe: true,
      domainsRewrite: withoutFields('cost'),
    });
    const charge = quoted.findings.list().find((finding) => finding.id === 'money:domains:registration-charge');
    expect(charge).toMatchObject({
      severity: 'critical',
      expected: '14.40 (the price domains.check quoted)',
      seen: '28.80',
    });
    // No cost and no quote: a won registration's charge is not judged, and the note says why.
    const unstated = await probe([], { afpServe: true, domainsRewrite: withoutFields('cost', 'price_usdc') });
    expect(unstated.results.find((result) => result.name === 'domain-double-registration')?.note).toMatch(
      /; charged 14\.40 \(not judged: no answer states the price, neither the registration nor domains\.check\)$/,
    );
    expect(unstated.findings.list().filter((finding) => finding.id.startsWith('money:domains:'))).toEqual([]);
  });

  test('a batch maximum the target states (2 bets): the batch-summary probe sends its batch again within it, and runs', async () => {
    // Before, the refused batch of 11 skipped the probe ("the batch was not answered: refused").
    const config = { ...DEFAULT_CONFIG, casino: { ...DEFAULT_CONFIG.casino, batchMax: 2 } };
    const { findings, results } = await probe([], { afpServe: true, config });
    expect(results.find((result) => result.name === 'batch-summary')).toMatchObject({ status: 'ran' });
    expect(findings.list().filter((finding) => finding.id.startsWith('money:batch'))).toEqual([]);
  });

  test('domains-sale-unpaid: the buyer that cannot pay gets the name, found with evidence and a curl line', async () => {
    const { findings, results } = await probe(['domains-sale-unpaid']);
    expect(results.find((result) => result.name === 'domain-unpaid-transfer')?.status).toBe('ran');
    const ids = findings.list().map((finding) => finding.id);
    expect([...ids].sort()).toEqual(['money:domains:owner-moved-unpaid', 'money:domains:unpaid-transfer']);
    const unpaid = findings.list().find((finding) => finding.id === 'money:domains:unpaid-transfer');
    expect(unpaid?.severity).toBe('critical');
    expect(unpaid?.reproduce).toMatch(/^curl .*domains-api\/transfer/);
  });

  test('trading-liquidation-as-close: the liquidation hands the rest of the margin back, a major rule finding', async () => {
    const { findings, results } = await probe(['trading-liquidation-as-close']);
    expect(results.find((result) => result.name === 'trading-liquidation')?.note).toMatch(
      /liquidated within \d+ step\(s\) of 6 h; balance before the step ([\d.]+), after (?!\1$)[\d.]+$/,
    );
    expect(findings.list().map((finding) => [finding.id, finding.severity])).toEqual([
      ['rule:trading:liquidation-returned-margin', 'major'],
    ]);
  });

  test('a target whose clock afp does not control: the formulas checked, the liquidation not measured, with the reason', async () => {
    const { findings, results } = await probe([], { afpServe: false });
    expect(results.find((result) => result.name === 'trading-liquidation')?.note).toMatch(
      /\(formula [\d.]+\); liquidation not measured: a live price cannot be moved and the target is not an afp serve whose clock afp controls$/,
    );
    expect(findings.list().filter((finding) => finding.id.includes('liquidation'))).toEqual([]);
  });
});
