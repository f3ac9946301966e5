// The domains check: a scripted journey through every domains command family (the ModelCommand
// frame: each answer compared with the model, every balance read back) in-process and over HTTP
// against `afp serve --clock manual`; random runs hold in-process and against serve, and do reach
// accepted registrations (not only refusals).
import { describe, expect, it } from 'vitest';
import type { CheckRun } from '../../../src/check/check-target.ts';
import { inProcessTarget } from '../../../src/check/in-process-target.ts';
import { liveTarget } from '../../../src/check/live-target.ts';
import { advanceTimeCommand } from '../../../src/check/command-time.ts';
import {
  domainViewCommand,
  registerDomainCommand,
  renewDomainCommand,
  setDnsCommand,
  transferDomainCommand,
} from '../../../src/check/domains/command-domains.ts';
import { plainEscrowCommand, releaseCommand } from '../../../src/check/escrow/command-escrow.ts';
import { registerCommand } from '../../../src/check/faucet/command-faucet.ts';
import { ModelCommand, type CommandSpec } from '../../../src/check/model-command.ts';
import { runCheck } from '../../../src/check/run-check.ts';
import { DOMAIN_RULES } from '../../../src/check/domains/model-domains.ts';
import { SystemClock } from '../../../src/core/clock.ts';
import { DEFAULT_CONFIG } from '../../../src/services/shared/config.ts';
import { ALL_ROUTES } from '../../../src/http/routes/index.ts';
import { manualServes } from '../../fixtures/manual-serves.ts';
import { LOOPBACK_PROXIES } from '../../../src/http/trusted-proxies.ts';

const { yearMs: YEAR_MS, graceMs: GRACE_MS } = DEFAULT_CONFIG.domains;

/** a1 (referred by a0) is funded by a2's and a3's released escrows: 10 + 2 × 9.801 = 29.602. */
function gift(from: number): CommandSpec {
  return plainEscrowCommand(from, 1, 9_900_000n);
}

function journey(): CommandSpec[] {
  return [
    registerCommand({ style: 'B', again: null, referrer: null }),
    registerCommand({ style: 'B', again: null, referrer: { slot: 0, via: 'id' } }),
    registerCommand({ style: 'B', again: null, referrer: null }),
    registerCommand({ style: 'B', again: null, referrer: null }),
    gift(2),
    releaseCommand({ style: 'B', caller: 'sender', escrow: { index: 0 } }),
    gift(3),
    releaseCommand({ style: 'B', caller: 'sender', escrow: { index: 1 } }),
    domainViewCommand('check', 1, 0),
    registerDomainCommand({ style: 'A', slot: 1, index: 0, years: 1 }),
    registerDomainCommand({ style: 'B', slot: 0, index: 0, years: 1 }),
    registerDomainCommand({ style: 'B', slot: 0, index: 1, years: 1 }),
    registerDomainCommand({ style: 'B', slot: 0, index: 2, years: 11 }),
    domainViewCommand('check', 0, 0),
    setDnsCommand({ caller: 'owner', index: 0, host: '@', value: '192.0.2.1' }),
    setDnsCommand({ caller: 'owner', index: 0, host: 'www', value: '192.0.2.1' }),
    setDnsCommand({ caller: 'owner', index: 0, host: '@', value: '192.0.2.2' }),
    setDnsCommand({ caller: 'outsider', index: 0, host: '@', value: '192.0.2.1' }),
    domainViewCommand('dns', 3, 0),
    renewDomainCommand({ caller: 'owner', index: 0, years: DOMAIN_RULES.yearsMax }),
    renewDomainCommand({ caller: 'owner', index: 0, years: 1 }),
    renewDomainCommand({ caller: 'outsider', index: 0, years: 1 }),
    domainViewCommand('lookup', 2, 0),
    domainViewCommand('listA', 1, 0),
    domainViewCommand('listB', 1, 0),
    // An offer above what a0 holds: a0's acceptance must be refused (422) and move nothing.
    transferDomainCommand({ caller: 'owner', index: 0, toOffset: 3, price: 'over-balance' }),
    transferDomainCommand({ caller: 'buyer', index: 0, toOffset: 0, price: 'offered' }),
    // A sale: a1 offers d0 to a0 at 0.50 (replacing the offer); a wrong price and an outsider are refused; a0 accepts.
    transferDomainCommand({ caller: 'owner', index: 0, toOffset: 3, price: 'small' }),
    domainViewCommand('lookup', 0, 0),
    transferDomainCommand({ caller: 'buyer', index: 0, toOffset: 0, price: 'other' }),
    transferDomainCommand({ caller: 'outsider', index: 0, toOffset: 0, price: 'small' }),
    transferDomainCommand({ caller: 'buyer', index: 0, toOffset: 0, price: 'small' }),
    transferDomainCommand({ caller: 'owner', index: 0, toOffset: 0, price: 'none' }),
    // A gift from a0 to a2; then time: expiry at exactly expires_at, release 30 days later.
    transferDomainCommand({ caller: 'owner', index: 0, toOffset: 2, price: 'none' }),
    domainViewCommand('listB', 2, 0),
    advanceTimeCommand({ kind: 'by', ms: 2 * YEAR_MS - 1 }),
    domainViewCommand('lookup', 0, 0),
    advanceTimeCommand({ kind: 'by', ms: 1 }),
    domainViewCommand('lookup', 0, 0),
    setDnsCommand({ caller: 'owner', index: 0, host: '@', value: '192.0.2.1' }),
    transferDomainCommand({ caller: 'owner', index: 0, toOffset: 1, price: 'none' }),
    registerDomainCommand({ style: 'B', slot: 1, index: 0, years: 1 }),
    renewDomainCommand({ caller: 'owner', index: 0, years: 1 }),
    advanceTimeCommand({ kind: 'by', ms: GRACE_MS }),
    domainViewCommand('listA', 2, 0),
    domainViewCommand('check', 1, 0),
    registerDomainCommand({ style: 'A', slot: 1, index: 0, years: 1 }),
    domainViewCommand('lookup', 3, 0),
  ];
}

/** Runs the journey; returns the labels of the commands whose preconditions did not hold. */
async function runJourney(run: CheckRun): Promise<string[]> {
  const skipped: string[] = [];
  for (const spec of journey()) {
    const command = new ModelCommand(spec);
    if (!command.check(run.model)) skipped.push(spec.label);
    else await command.run(run.model, run.real);
  }
  return skipped;
}

function expectJourneyState(run: CheckRun): void {
  const [a0, a1, a2] = [run.model.agents[0], run.model.agents[1], run.model.agents[2]];
  // a1: 29.602 − 14.40 (register) − 14.40 (renew) + 0.50 (sale); too little left to register again after the release (422).
  expect(a1?.balanceMicro).toBe(29_602_000n - 14_400_000n - 14_400_000n + 500_000n);
  // a0: 10 − 0.50 for the name, plus 15% of a1's two domain fees as a1's referrer (swept into its balance).
  expect(a0?.balanceMicro).toBe(10_000_000n - 500_000n + 2n * 2_160_000n);
  expect(a2?.balanceMicro).toBe(100_000n);
  expect(run.model.domains.held[0]).toBeUndefined();
}

const serve = manualServes({
  trustedProxies: LOOPBACK_PROXIES,
  routes: ALL_ROUTES,
  seed: '5',
  startMs: Date.parse('2025-03-01T09:30:00.000Z'),
});

async function served(): Promise<string> {
  const handle = await serve();
  if (handle.urls.api === undefined) throw new Error('afp serve has an api mount');
  return handle.urls.api;
}

describe('the domains check', () => {
  it('holds through the scripted journey in-process: every rule met, every balance read back', async () => {
    const run = await inProcessTarget({ seed: 4 }).newRun();
    expect(await runJourney(run)).toEqual([]);
    expectJourneyState(run);
  });

  it('holds through the same journey over HTTP against afp serve --clock manual', async () => {
    const target = await liveTarget({
      url: await served(),
      session: 'd0a1e5e5',
      wallClock: new SystemClock(),
      timeoutMs: 5_000,
    });
    expect(target.capabilities).toMatchObject({ domains: true, exactTime: true });
    const run = await target.newRun();
    expect(await runJourney(run)).toEqual([]);
    expectJourneyState(run);
  });

  it('finds domains-sale-unpaid in the journey: the acceptance the buyer cannot pay is answered 200', async () => {
    const run = await inProcessTarget({ seed: 4, defects: ['domains-sale-unpaid'] }).newRun();
    await expect(runJourney(run)).rejects.toThrow(
      /^transferDomainB\(buyer, d0, to \+0, price offered\) \(d0, a0 → a0, price 11\.00\) at .*status: expected 422 INSUFFICIENT_BALANCE, got 200/,
    );
  });

  it('random runs find domains-sale-unpaid and shrink it to a short sequence ending in the unpaid acceptance', async () => {
    // Seed 7: with the trading rows in the table, seed 1's 300 runs no longer reach an unpaid acceptance (seed 5 did at run 263);
    // with the wallet rows too, seeds 1, 2, 6 and 8 do not either, seed 7 does at run 195.
    const result = await runCheck({ seed: 7, runs: 300, defects: ['domains-sale-unpaid'] });
    expect(result.ok).toBe(false);
    const commands = result.failure?.commands ?? [];
    expect(commands.length).toBeLessThanOrEqual(8);
    expect(commands.at(-1)).toMatch(/^transferDomainB\(buyer, d\d, to \+0, price offered\)$/);
    expect(result.failure?.error).toMatch(/status: expected 422 INSUFFICIENT_BALANCE, got 200/);
    // 660 runs with the shrink; with trading's ticks predicted after every time step, 93 s at load 18 on 2 cores.
  });

  it('random runs hold in-process and against serve', async () => {
    for (const seed of [21, 22, 23, 24]) {
      const result = await runCheck({ seed, runs: 60 });
      expect(result.failure?.error, `seed ${seed}`).toBeUndefined();
    }
    const result = await runCheck({ target: await served(), seed: 25, runs: 15 });
    expect(result.failure?.error).toBeUndefined();
    expect(result.ok).toBe(true);
    // A bound on a hang, not a budget: CPU-bound, it took 113 s on a 2-core machine at load 14.
  }, 600_000);
});
