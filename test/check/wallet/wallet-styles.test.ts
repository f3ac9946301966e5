// The wallet's styles A and B in the check: a scripted journey (addresses before and after a
// wallet, B balances per chain, USDC sends to an address and to an agent id, refused ones, B
// history by chain, type and limit, before and after the blocks) in-process and over HTTP against
// `afp serve --clock manual`, every answer compared with the model.
import { describe, expect, it } from 'vitest';
import type { CheckRun } from '../../../src/check/check-target.ts';
import { inProcessTarget } from '../../../src/check/in-process-target.ts';
import { liveTarget } from '../../../src/check/live-target.ts';
import { advanceTimeCommand } from '../../../src/check/command-time.ts';
import { registerCommand } from '../../../src/check/faucet/command-faucet.ts';
import { ModelCommand, type CommandSpec } from '../../../src/check/model-command.ts';
import { createWalletCommand, mintCommand, txLookupCommand } from '../../../src/check/wallet/command-wallet.ts';
import {
  styleAddressesCommand,
  styleBBalanceCommand,
  styleBHistoryCommand,
  styleBSendCommand,
  type SendBInput,
} from '../../../src/check/wallet/command-wallet-styles.ts';
import { SystemClock } from '../../../src/core/clock.ts';
import { ALL_ROUTES } from '../../../src/http/routes/index.ts';
import { manualServes } from '../../fixtures/manual-serves.ts';
import { LOOPBACK_PROXIES } from '../../../src/http/trusted-proxies.ts';

function sendB(input: Partial<SendBInput>): CommandSpec {
  return styleBSendCommand({
    wallet: 0,
    chain: 'ethereum',
    funded: false,
    to: { kind: 'wallet', index: 1 },
    amount: 'part',
    memo: false,
    ...input,
  });
}

function stylesJourney(): CommandSpec[] {
  return [
    registerCommand({ style: 'B', again: null, referrer: null }),
    registerCommand({ style: 'B', again: null, referrer: null }),
    registerCommand({ style: 'B', again: null, referrer: null }),
    createWalletCommand(0),
    // a1 has no wallet yet: 404 on every style row and as a B recipient.
    styleAddressesCommand({ slot: 1, style: 'A' }),
    styleAddressesCommand({ slot: 1, style: 'B' }),
    styleBBalanceCommand({ slot: 1, chain: null }),
    styleBHistoryCommand({ slot: 1, chain: null, type: null, limit: null }),
    ...(['ethereum', 'base'] as const).flatMap((chain) => [
      mintCommand({ wallet: 0, chain, token: null, size: 'large' }),
      mintCommand({ wallet: 0, chain, token: 0, size: 'large' }),
    ]),
    sendB({ to: { kind: 'agent', slot: 1 } }),
    createWalletCommand(1),
    styleAddressesCommand({ slot: 0, style: 'A' }),
    styleAddressesCommand({ slot: 1, style: 'B' }),
    styleBBalanceCommand({ slot: 0, chain: null }),
    styleBBalanceCommand({ slot: 0, chain: 'polygon' }),
    sendB({}),
    sendB({ chain: 'base', to: { kind: 'agent', slot: 1 }, memo: true }),
    sendB({ chain: 'base', amount: 'above' }),
    // w1 holds no ETH for the fee: refused.
    styleBSendCommand({
      wallet: 1,
      chain: 'base',
      funded: false,
      to: { kind: 'wallet', index: 0 },
      amount: 'part',
      memo: false,
    }),
    styleBBalanceCommand({ slot: 0, chain: 'all' }),
    styleBHistoryCommand({ slot: 0, chain: null, type: null, limit: null }),
    styleBHistoryCommand({ slot: 0, chain: 'base', type: 'send', limit: null }),
    styleBHistoryCommand({ slot: 1, chain: null, type: 'receive', limit: 1 }),
    styleBHistoryCommand({ slot: 1, chain: 'arbitrum', type: null, limit: null }),
    styleBHistoryCommand({ slot: 0, chain: null, type: null, limit: 101 }),
    advanceTimeCommand({ kind: 'by', ms: 60_000 }),
    styleBHistoryCommand({ slot: 0, chain: 'ethereum', type: 'all', limit: 2 }),
    styleBHistoryCommand({ slot: 1, chain: null, type: null, limit: 100 }),
    styleBBalanceCommand({ slot: 1, chain: 'base' }),
    styleBBalanceCommand({ slot: 0, chain: 'ethereum' }),
    txLookupCommand({ slot: 2, tx: 4 }),
    // Funded from w1 on: w1 now holds ethereum USDC but no ETH for the fee (422).
    sendB({ wallet: 1, funded: true, to: { kind: 'wallet', index: 0 } }),
  ];
}

async function runJourney(run: CheckRun): Promise<string[]> {
  const skipped: string[] = [];
  for (const spec of stylesJourney()) {
    const command = new ModelCommand(spec);
    if (!command.check(run.model)) skipped.push(spec.label);
    else await command.run(run.model, run.real);
  }
  return skipped;
}

function expectJourneyState(run: CheckRun): void {
  const sends = run.model.wallet.txs.filter((tx) => tx.kind === 'send');
  expect(sends.map((tx) => `${tx.asset.chain} ${tx.asset.symbol} ${tx.status}`)).toEqual([
    'ethereum USDC confirmed',
    'base USDC confirmed',
  ]);
  expect(sends[1]?.to).toBe(run.model.wallet.wallets[1]?.addresses.base);
}

const serve = manualServes({
  trustedProxies: LOOPBACK_PROXIES,
  routes: ALL_ROUTES,
  seed: '5',
  startMs: Date.parse('2025-03-01T09:30:00.000Z'),
});

describe('the wallet check, styles A and B', () => {
  it('holds through the scripted style journey in-process', async () => {
    const run = await inProcessTarget({ seed: 4 }).newRun();
    expect(await runJourney(run)).toEqual([]);
    expectJourneyState(run);
  });

  it('holds through the same journey over HTTP against afp serve --clock manual', async () => {
    const handle = await serve();
    if (handle.urls.api === undefined) throw new Error('afp serve has an api mount');
    const target = await liveTarget({
      url: handle.urls.api,
      session: '3a11e7c2',
      wallClock: new SystemClock(),
      timeoutMs: 5_000,
    });
    const run = await target.newRun();
    expect(await runJourney(run)).toEqual([]);
    expectJourneyState(run);
  });
});
