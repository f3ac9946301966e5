// afp's live side against `afp serve --dialect deployed` trading (spec/DEPLOYED.md §5) on loopback:
// the deployed dialect's trading rows read the stand-in's answers with only documented deviations,
// refusals keep the deployment's names, and `afp audit money`'s trading probes run (not skipped)
// on a trading agent of their own, refused 400 insufficient_balance with the balance unchanged.
import { afterEach, describe, expect, test } from 'vitest';
import { Deadline } from '../../src/core/deadline.ts';
import type { WaitClock } from '../../src/core/clock.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { fundLiveAccount, openLiveAccount } from '../../src/live/live-account.ts';
import { LiveSession, type CallDeviation } from '../../src/live/live-session.ts';
import { curlOf } from '../../src/live/curl.ts';
import type { Target } from '../../src/live/target.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { rewritingProxy } from '../fixtures/rewriting-proxy.ts';
import { moneyProbesOn } from '../fixtures/money-probes-run.ts';
import { deviationFinding } from '../../src/live/deviation-findings.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const START_MS = Date.parse('2025-03-01T00:00:00Z');
const handles: ServeHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close({ forceAfterMs: 0 });
});

async function served(): Promise<{ target: Target; casino: string }> {
  const handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: DEPLOYED_ROUTES,
    layout: DEPLOYED_LAYOUT,
    seed: '5',
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    log: () => undefined,
  });
  handles.push(handle);
  const url = (mount: 'casino' | 'faucet' | 'escrow' | 'trading'): string => handle.urls[mount] as string;
  const target: Target = {
    name: 'afp serve --dialect deployed',
    source: url('casino'),
    afpServe: true,
    adminUrl: url('casino'),
    services: {
      casino: { url: url('casino'), dialect: 'deployed' },
      faucet: { url: url('faucet'), dialect: 'deployed' },
      escrow: { url: url('escrow'), dialect: 'deployed' },
      trading: { url: url('trading'), dialect: 'deployed' },
    },
    register: { service: 'casino' },
    funding: { method: 'faucet' },
    limits: {},
    fairness: 'deployed',
  };
  return { target, casino: url('casino') };
}

function session(target: Target, deviations: CallDeviation[] = []): { live: LiveSession; clock: WaitClock } {
  let nowMs = 1_000_000;
  const clock: WaitClock = {
    nowMs: () => nowMs,
    sleep: async (ms) => {
      nowMs += ms;
    },
  };
  return {
    live: new LiveSession({
      target,
      clock,
      deadline: new Deadline(clock, 3600),
      onDeviation: (deviation) => deviations.push(deviation),
    }),
    clock,
  };
}

describe('the deployed dialect reads trading', () => {
  test("register, balance, open, close: only documented deviations; refusals keep the deployment's names", async () => {
    const { target, casino } = await served();
    const deviations: CallDeviation[] = [];
    const { live } = session(target, deviations);
    const registered = await live.call('trading.register', {}, null);
    expect(registered.kind).toBe('ok');
    if (registered.kind !== 'ok') return;
    expect(registered.value.apiKey).toMatch(/^sk_trade_/);
    const key = registered.value.apiKey;
    const deposit = await fetch(`${casino}/_afp/casino/deposit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent_id: registered.value.agentId, chain: 'base', amount: '100' }),
    });
    const confirmAtMs = ((await deposit.json()) as { confirm_at_ms: number }).confirm_at_ms;
    await fetch(`${casino}/_afp/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to_ms: confirmAtMs }),
    });
    const balance = await live.call('trading.balance', {}, key);
    expect(balance.kind === 'ok' && balance.value).toEqual({ balanceMicro: 100_000_000n, marginMicro: 0n });
    const opened = await live.call(
      'trading.order',
      { symbol: 'BTC-PERP', side: 'long', sizeMicro: 50_000_000n, leverage: 5 },
      key,
    );
    expect(opened.kind === 'ok' && opened.value).toMatchObject({
      status: 'open',
      feeMicro: 100_000n,
      marginMicro: 10_000_000n,
    });
    if (opened.kind !== 'ok') return;
    expect(opened.value.positionId).toMatch(/^pos_/);
    const during = await live.call('trading.balance', {}, key);
    expect(during.kind === 'ok' && during.value).toEqual({ balanceMicro: 89_900_000n, marginMicro: 10_000_000n });
    const closed = await live.call('trading.close', { positionId: opened.value.positionId ?? '' }, key);
    expect(closed.kind === 'ok' && closed.value.status).toBe('closed');
    const after = await live.call('trading.balance', {}, key);
    if (closed.kind !== 'ok' || after.kind !== 'ok') return;
    expect(after.value.balanceMicro).toBe(
      89_900_000n + 10_000_000n + (closed.value.pnlMicro ?? 0n) - (closed.value.feeMicro ?? 0n),
    );
    const tooLarge = await live.call(
      'trading.order',
      { symbol: 'BTC-PERP', side: 'long', sizeMicro: 20_000_000_000n, leverage: 5 },
      key,
    );
    expect(tooLarge.kind === 'refused' && tooLarge.refusal).toMatchObject({ status: 400, name: 'position_too_large' });
    const unknown = await live.call('trading.close', { positionId: 'pos_0000000000000000' }, key);
    expect(unknown.kind === 'refused' && unknown.refusal).toMatchObject({ status: 404, name: 'position_not_found' });
    const seen = new Set(
      deviations.map(
        (deviation) =>
          `${deviation.op} ${deviation.deviation.kind} ${deviation.deviation.field}${deviation.deviation.documented ? ' (documented)' : ''}`,
      ),
    );
    expect([...seen].sort()).toEqual([
      'trading.close error-shape code (documented)',
      'trading.close renamed pnl (documented)',
      'trading.order error-shape code (documented)',
      'trading.order renamed entry_price (documented)',
    ]);
  });
});

/** `afp audit money`'s probes on a funded casino account of `target` (its deviations to `deviations`). */
async function moneyProbed(target: Target, deviations: CallDeviation[] = []): ReturnType<typeof moneyProbesOn> {
  const { live, clock } = session(target, deviations);
  const main = await openLiveAccount({
    session: live,
    key: null,
    fundMicro: 1_000_000n,
    clock,
    deadline: new Deadline(clock, 60),
  });
  if (!main.ok) throw new Error(`the probes' account could not be opened: ${main.message}`);
  return moneyProbesOn(live, main.value);
}

describe('afp audit money: the trading probes against the deployed stand-in', () => {
  test('overdraw and margin run on a trading agent of their own: refused 400 insufficient_balance, balance unchanged, no finding', async () => {
    const { target } = await served();
    const { results, findings } = await moneyProbed(target);
    const trading = results.filter((result) => result.name.startsWith('trading-'));
    expect(trading.map((result) => [result.name, result.status])).toEqual([
      ['trading-overdraw', 'ran'],
      ['trading-margin', 'ran'],
      ['trading-liquidation', 'skipped'],
    ]);
    // The trading agent of its own cannot be funded (no funding hook here; the faucet pays casino agents only): the liquidation probe is left out.
    expect(trading[2]?.note).toBe('the trading service keeps its own accounts, and this audit cannot fund one');
    expect(trading[0]?.note).toMatch(
      /^trading agent ag_[0-9a-f]{12}: order of 2\.00 at leverage 1 on 0\.00: refused \(400 insufficient_balance\)$/,
    );
    expect(trading[1]?.note).toMatch(
      /^trading agent ag_[0-9a-f]{12}: order of 20\.00 at leverage 10 on 0\.00: refused \(400 insufficient_balance\)$/,
    );
    expect(findings.list().filter((finding) => finding.id.includes('trading'))).toEqual([]);
  });

  test('a portfolio stating no balance (DEPLOYED.md §5 gives none of its fields): read as none, an info finding, the probes that need it skipped, never a major', async () => {
    // A prober's honest deployment answered /v1/trade/portfolio with {open_positions, total_margin,
    // positions}: afp's own stand-in's balance_usd was read as required, a major missing field, exit 3.
    const { target } = await served();
    const proxy = await rewritingProxy(target.services.trading?.url ?? '', (request, answer) =>
      request.path.startsWith('/v1/trade/portfolio') && answer.status === 200
        ? JSON.stringify({ open_positions: 0, total_margin: 0, positions: [] })
        : answer.text,
    );
    try {
      const proxied: Target = {
        ...target,
        services: { ...target.services, trading: { url: proxy.url, dialect: 'deployed' } },
      };
      const deviations: CallDeviation[] = [];
      const { results, findings } = await moneyProbed(proxied, deviations);
      // The shape findings the live commands make of the deviations (deviation-findings.ts), and the probes' own.
      const shapes = deviations
        .filter((call) => call.op.startsWith('trading.'))
        .map((call) => deviationFinding(call, curlOf))
        .map((finding) => `${finding.severity} ${finding.id}`);
      expect(shapes).toContain('info shape:trading.balance:missing:balance_usd');
      expect(shapes.filter((id) => !id.startsWith('info '))).toEqual([]);
      expect(findings.list().filter((finding) => finding.id.includes('trading'))).toEqual([]);
      expect(results.filter((result) => result.name.startsWith('trading-')).map((result) => result.name)).toContain(
        'trading-overdraw',
      );
    } finally {
      await proxy.close();
    }
  });

  test('liquidation on a trading agent of its own, funded by the admin deposit: margins and liquidation prices against the formulas, then time moved on the manual clock until one is liquidated, the balance untouched', async () => {
    const { target: faucetFunded } = await served();
    const target: Target = { ...faucetFunded, funding: { method: 'admin-deposit' } };
    const { live, clock } = session(target);
    const deadline = new Deadline(clock, 3600);
    const main = await openLiveAccount({ session: live, key: null, fundMicro: 1_000_000n, clock, deadline });
    expect(main.ok).toBe(true);
    if (!main.ok) return;
    const fundOwnAccount = (service: 'trading' | 'domains', agentId: string, apiKey: string) =>
      fundLiveAccount(
        { session: live, key: null, fundMicro: 20_000_000n, clock, deadline, balanceOperation: `${service}.balance` },
        agentId,
        apiKey,
      );
    const { results, findings } = await moneyProbesOn(live, main.value, fundOwnAccount);
    const liquidation = results.find((result) => result.name === 'trading-liquidation');
    expect(liquidation?.status).toBe('ran');
    expect(liquidation?.note).toMatch(
      /^trading agent ag_[0-9a-f]{12}: 5\.00 at leverage 10: BTC-PERP long entry [\d.]+, margin 0\.50, liquidation price [\d.]+ \(formula [\d.]+\); ETH-PERP short entry [\d.]+, margin 0\.50, liquidation price [\d.]+ \(formula [\d.]+\); (BTC-PERP long|ETH-PERP short) liquidated within \d+ step\(s\) of 6 h; balance before the step ([\d.]+), after \2$/,
    );
    expect(findings.list().filter((finding) => finding.id.includes('trading') && finding.severity !== 'info')).toEqual(
      [],
    );
  });
});
