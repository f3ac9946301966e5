// The live commands against `afp serve --dialect deployed --float-money` (issue 40 part 1): a real
// serve on loopback whose casino writes money as the deployment does — balances as JS doubles with
// their rounding noise (`balance_usd` 1.1287999999999996), `amount_won` and `new_balance` rounded
// to 2 dp as display fields. Every live command reads that money without loss, judges credited
// amounts from the exact stake × multiplier and balance deltas, never from a display field, and
// raises no "is not an amount" and no finding caused by float noise or display rounding: the
// conformance run, `afp audit fairness`, `afp audit money` and `afp check --target` finish with
// nothing at or above major and never crash.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { Deadline } from '../../src/core/deadline.ts';
import type { WaitClock } from '../../src/core/clock.ts';
import { runDialectCheck } from '../../src/check/dialect/run-dialect-check.ts';
import { parseFairnessArgs, runFairness } from '../../src/cli/audit-fairness.ts';
import { parseHouseEdgeArgs } from '../../src/cli/audit-house-edge.ts';
import { runHouseEdgeLive } from '../../src/cli/audit-house-edge-live.ts';
import { parseMoneyArgs, runMoney } from '../../src/cli/audit-money.ts';
import { OPERATION_CASES } from '../../src/conformance/operation-cases.ts';
import { runTargetConformance } from '../../src/conformance/target-conformance.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { curlOf } from '../../src/live/curl.ts';
import { resolveTarget } from '../../src/live/resolve-target.ts';
import type { Finding } from '../../src/report/findings/finding.ts';
import { deployedLayout } from '../../src/server/deployed-layout.ts';
import { startServe } from '../../src/server/listeners.ts';
import { adminFundedTargetText } from '../fixtures/deployed-target.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { sink } from '../fixtures/audit-sink.ts';
import { codeOf } from '../cli/ending-code.ts';

const START_MS = Date.parse('2025-03-01T00:00:00Z');
const DIR = mkdtempSync(join(tmpdir(), 'afp-float-money-'));
const handle = await startServe({
  trustedProxies: LOOPBACK_PROXIES,
  routes: DEPLOYED_ROUTES,
  layout: deployedLayout({ floatMoney: true }),
  seed: '7',
  port: 0,
  clockMode: 'manual',
  startMs: START_MS,
  log: () => undefined,
});
const casino = handle.urls.casino as string;
afterAll(async () => {
  await handle.close({ forceAfterMs: 0 });
  rmSync(DIR, { recursive: true, force: true });
});

let nowMs = START_MS;
const post = async (url: string, body: unknown, key?: string): Promise<Record<string, unknown>> =>
  (await (
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { authorization: `Bearer ${key}` }) },
      body: JSON.stringify(body),
    })
  ).json()) as Record<string, unknown>;
const get = async (url: string, key: string): Promise<Record<string, unknown>> =>
  (await (await fetch(url, { headers: { authorization: `Bearer ${key}` } })).json()) as Record<string, unknown>;
/** A clock whose sleeps move the serve's manual clock: the deployment's windows are waited out in virtual time. */
const clock: WaitClock = {
  nowMs: () => nowMs,
  sleep: async (ms) => {
    nowMs += ms;
    await post(`${casino}/_afp/clock`, { to_ms: nowMs });
  },
};

const targetFile = join(DIR, 'float.yaml');
writeFileSync(targetFile, adminFundedTargetText('float-money', handle.urls, casino));
const resolved = await resolveTarget(targetFile);
if (!resolved.ok) throw new Error(resolved.message);
const target = resolved.value;

async function fundedKey(usdc: string): Promise<string> {
  const registered = await post(`${casino}/api/v1/auth/register`, {});
  const deposit = await post(`${casino}/_afp/casino/deposit`, {
    agent_id: registered['agent_id'],
    chain: 'solana',
    amount: usdc,
  });
  nowMs = Math.max(nowMs, deposit['confirm_at_ms'] as number);
  await post(`${casino}/_afp/clock`, { to_ms: nowMs });
  return registered['api_key'] as string;
}

const grave = (findings: readonly Pick<Finding, 'id' | 'severity'>[]): string[] =>
  findings
    .filter((finding) => finding.severity === 'major' || finding.severity === 'critical')
    .map((finding) => finding.id);
const reportOf = (out: string): Finding[] =>
  (JSON.parse(readFileSync(join(DIR, out, 'findings.json'), 'utf8')) as { findings: Finding[] }).findings;

describe('afp serve --dialect deployed --float-money writes money as the deployment does', () => {
  test('balances are doubles with noise; amount_won and new_balance are rounded to 2 dp', async () => {
    const key = await fundedKey('1');
    let last: Record<string, unknown> = {};
    for (let bet = 0; bet < 6; bet += 1)
      last = await post(
        `${casino}/api/v1/games/coin-flip`,
        { amount: 0.07, side: 'heads', client_seed: `n${bet}` },
        key,
      );
    const balance = (await get(`${casino}/api/v1/auth/balance`, key))['balance_usd'] as number;
    // A double, not a micro amount: its shortest text has more than 6 decimals (the deployment's float noise).
    expect(String(balance)).toMatch(/\.\d{7,}$/);
    expect(last['new_balance']).toBe(Math.round(balance * 100) / 100);
    expect(String(last['amount_won'])).toMatch(/^\d+(?:\.\d{1,2})?$/);
  });
});

describe('the live commands on float money: exit 0 or 3, nothing grave, no "is not an amount"', () => {
  test('the conformance run: no case fails, no finding above info', async () => {
    const run = await runTargetConformance(
      { target, clock, deadline: new Deadline(clock, 600), session: 'f1f1f1f1', curlOf },
      OPERATION_CASES,
    );
    expect(run.results.filter((result) => result.outcome === 'failed')).toEqual([]);
    // Every case ran but the faucet's (one claim per IP a day on the deployment), the bets' and the batch's among them.
    expect(run.results.filter((result) => result.outcome === 'skipped').map((result) => result.name)).toEqual([
      'operations: the faucet credits a fresh account once',
    ]);
    expect(run.results.find((result) => result.name.startsWith('operations: single bets pay exactly'))?.outcome).toBe(
      'finding',
    );
    expect(grave(run.findings.list())).toEqual([]);
    expect(JSON.stringify(run.findings.list())).not.toContain('is not an amount');
  });

  test('afp audit fairness: every bet verified, exit 0', async () => {
    const key = await fundedKey('50');
    for (let round = 0; round < 2; round += 1) {
      const bets = [
        { game: 'coin_flip', amount: 0.07 },
        { game: 'keno', amount: 0.01, picks: [1, 21, 41] },
        { game: 'dice', amount: 0.13, threshold: 30 },
        { game: 'plinko', amount: 0.03 },
        { game: 'slots', amount: 0.1 },
      ];
      const batch = await post(
        `${casino}/api/v1/bets/batch`,
        { bets: bets.map((bet) => ({ ...bet, client_seed: `r${round}` })) },
        key,
      );
      expect(batch['summary']).toMatchObject({ errors: 0 });
    }
    const flags = parseFairnessArgs(
      ['--target', targetFile, '--key', key, '--out', join(DIR, 'fair'), '--quiet'],
      START_MS,
    );
    if ('errors' in flags) throw new Error(flags.errors.join('; '));
    const out = sink();
    const code = await codeOf(runFairness(flags, out.io, clock), out.io);
    expect(code, out.text()).toBe(0);
    expect(out.text()).toContain(
      'bets: 10 listed of 10 in the history, 10 audited, 10 verified under the deployed scheme',
    );
    // Every bet followed the rule and was paid right: amount_won (2 dp) agrees with the credit within its rounding.
    const report = JSON.parse(readFileSync(join(DIR, 'fair', 'fairness.json'), 'utf8')) as {
      games: Array<{ game: string; audited: number; followed_rule: number; paid_right: number }>;
    };
    for (const game of report.games)
      expect([game.followed_rule, game.paid_right], game.game).toEqual([game.audited, game.audited]);
    expect(grave(reportOf('fair'))).toEqual([]);
    expect(out.text()).not.toContain('is not an amount');
  });

  test('afp audit house-edge --target on keno: returns from the credits, not from amount_won (2 dp), no returns finding', async () => {
    const flags = parseHouseEdgeArgs(
      [
        '--target',
        targetFile,
        '--key',
        await fundedKey('100'),
        '--seed',
        '5',
        '--games',
        'keno,coin_flip',
        '--bets',
        '300',
        '--out',
        join(DIR, 'edge'),
        '--quiet',
      ],
      () => '5',
    );
    if ('errors' in flags) throw new Error(flags.errors.join('; '));
    const out = sink();
    const code = await codeOf(runHouseEdgeLive(flags, out.io, clock), out.io);
    // The published keno draws 5–8 numbers (DEPLOYED.md §2.5): its edges run from −250% to 100%,
    // far from the "~8%" its game list states, a true critical per spot count (exit 3); nothing
    // else is grave: the returns are read from the credits.
    expect(code, out.text()).toBe(3);
    expect(
      reportOf('edge')
        .filter((finding) => finding.severity === 'critical' || finding.severity === 'major')
        .filter((finding) => !/^edge:keno:\d+$/.test(finding.id))
        .map((finding) => finding.id),
    ).toEqual([]);
    expect(out.text()).toContain('bets: 300 placed, 300 verified, 0 refused');
    const findings = reportOf('edge');
    // (The published rule against the documents' table is an info finding per variant, rule:<variant>:documents;
    // the published keno's draw of 5–8 numbers, where its answers say 20, a minor rule:keno:draw.)
    expect(
      findings
        .filter(
          (finding) =>
            finding.id.startsWith('fairness:') ||
            finding.id.startsWith('money:') ||
            (finding.id.startsWith('rule:') && finding.severity !== 'info' && finding.id !== 'rule:keno:draw'),
        )
        .map((finding) => `${finding.id}: ${finding.evidence}`),
    ).toEqual([]);
    expect(grave(findings).filter((id) => !/^edge:keno:\d+$/.test(id))).toEqual([]);
  });

  test('afp audit money: every probe runs on the doubles, exit 0', async () => {
    const flags = parseMoneyArgs(
      [
        '--target',
        targetFile,
        '--key',
        await fundedKey('30'),
        '--second-key',
        await fundedKey('1'),
        '--out',
        join(DIR, 'money'),
        '--quiet',
      ],
      START_MS,
    );
    if ('errors' in flags) throw new Error(flags.errors.join('; '));
    const out = sink();
    const code = await codeOf(runMoney(flags, out.io, clock), out.io);
    expect(code, out.text()).toBe(0);
    expect(out.text()).not.toContain('could not be read');
    expect(out.text()).toMatch(/^ran {5}bets-balance: 10 bets of 0\.01, balance /m);
    expect(out.text()).toMatch(/^ran {5}batch-summary: /m);
    expect(grave(reportOf('money'))).toEqual([]);
  });

  test('afp check --target: every run holds on the doubles', async () => {
    const result = await runDialectCheck({
      target,
      targetSpec: targetFile,
      seed: 3,
      runs: 5,
      maxCommands: 30,
      clock,
      deadline: new Deadline(clock, 600),
      curlOf,
    });
    expect(result.failure, JSON.stringify(result.failure)).toBeUndefined();
    expect(result.ok).toBe(true);
    expect(result.runs).toBe(5);
    expect(result.commands).toEqual(expect.arrayContaining(['balance', 'bet', 'batch']));
    expect(grave(result.findings.list())).toEqual([]);
  });
});
