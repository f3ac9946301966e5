// A scripted wallet journey for the wallet check tests: two agents (a1 referred by a0), their
// wallets, mints on every chain, sends that confirm, revert (a token to its own contract), fail
// (solana below rent), are refused (403 with another wallet's key, 422 above the balance), history
// and lookups, three swap orders (finished, refunded below the amount, expired), quotes, the
// referral rows and every wallet bad input. Each command is the random table's, run in order.
import { advanceTimeCommand } from '../../../src/check/command-time.ts';
import { registerCommand } from '../../../src/check/faucet/command-faucet.ts';
import type { CommandSpec } from '../../../src/check/model-command.ts';
import {
  balanceCommand,
  createWalletCommand,
  historyCommand,
  mintCommand,
  txLookupCommand,
} from '../../../src/check/wallet/command-wallet.ts';
import { sendCommand, type SendInput } from '../../../src/check/wallet/command-wallet-send.ts';
import {
  quoteCommand,
  swapCommand,
  swapStatusCommand,
  walletReferralCommand,
} from '../../../src/check/wallet/command-wallet-swaps.ts';
import { WALLET_BAD_INPUTS, walletBadInputCommand } from '../../../src/check/wallet/command-wallet-table.ts';

const MINUTE_MS = 60_000;

function send(input: Partial<SendInput> & Pick<SendInput, 'chain'>): CommandSpec {
  return sendCommand({
    wallet: 0,
    funded: false,
    token: null,
    to: { kind: 'wallet', index: 1 },
    amount: 'part',
    key: 'right',
    memo: false,
    ...input,
  });
}

const by = (ms: number): CommandSpec => advanceTimeCommand({ kind: 'by', ms });

export function walletJourney(): CommandSpec[] {
  return [
    registerCommand({ style: 'B', again: null, referrer: null }),
    registerCommand({ style: 'B', again: null, referrer: { slot: 0, via: 'id' } }),
    createWalletCommand(0),
    createWalletCommand(1),
    ...(['ethereum', 'base', 'solana', 'bitcoin', 'tron', 'monero'] as const).map((chain) =>
      mintCommand({ wallet: 0, chain, token: null, size: 'large' }),
    ),
    mintCommand({ wallet: 0, chain: 'ethereum', token: 0, size: 'large' }),
    mintCommand({ wallet: 0, chain: 'tron', token: 0, size: 'small' }),
    mintCommand({ wallet: 1, chain: 'tron', token: null, size: 'small' }),
    balanceCommand({ wallet: 0, chain: 'ethereum', viewKey: 'own' }),
    balanceCommand({ wallet: 0, chain: 'monero', viewKey: 'own' }),
    balanceCommand({ wallet: 0, chain: 'monero', viewKey: 'none' }),
    balanceCommand({ wallet: 0, chain: 'monero', viewKey: 'other' }),
    // Sends: native and tokens, with and without from, refused ones, a revert, a rent failure.
    send({ chain: 'ethereum' }),
    send({ chain: 'ethereum', token: 0, key: 'right-from', memo: true }),
    send({ chain: 'ethereum', key: 'wrong' }),
    send({ chain: 'ethereum', token: 0, amount: 'above' }),
    send({ chain: 'ethereum', token: 0, to: { kind: 'contract' } }),
    send({ chain: 'base', to: { kind: 'wallet', index: 0 } }),
    send({ chain: 'base', amount: 'all' }),
    send({ chain: 'solana', amount: 'dust' }),
    send({ chain: 'solana' }),
    send({ chain: 'bitcoin', key: 'right-from' }),
    send({ chain: 'monero' }),
    send({ chain: 'monero', key: 'wrong' }),
    send({ chain: 'tron', token: 0, amount: 'all' }),
    sendCommand({
      wallet: 1,
      chain: 'tron',
      funded: false,
      token: 0,
      to: { kind: 'wallet', index: 0 },
      amount: 'part',
      key: 'right',
      memo: false,
    }),
    historyCommand({ wallet: 0, chain: 'ethereum', limit: 2 }),
    historyCommand({ wallet: 0, chain: 'base', limit: 50 }),
    historyCommand({ wallet: 0, chain: 'tron', limit: null }),
    txLookupCommand({ slot: 1, tx: 9 }),
    txLookupCommand({ slot: 1, tx: 'unknown' }),
    by(15 * MINUTE_MS),
    historyCommand({ wallet: 0, chain: 'ethereum', limit: null }),
    historyCommand({ wallet: 1, chain: 'solana', limit: 50 }),
    balanceCommand({ wallet: 1, chain: 'solana', viewKey: 'own' }),
    balanceCommand({ wallet: 1, chain: 'ethereum', viewKey: 'own' }),
    balanceCommand({ wallet: 0, chain: 'tron', viewKey: 'own' }),
    txLookupCommand({ slot: 0, tx: 9 }),
    // Swaps: USDC on ethereum → USDT on tron, deposited exactly, through every state to finished.
    quoteCommand({
      slot: 0,
      from: { chain: 'ethereum', token: 0 },
      to: { chain: 'tron', token: 0 },
      size: 'large',
      symbols: false,
    }),
    quoteCommand({
      slot: 0,
      from: { chain: 'ethereum', token: 0 },
      to: { chain: 'tron', token: 0 },
      size: 'unit',
      symbols: true,
    }),
    quoteCommand({
      slot: 1,
      from: { chain: 'ethereum', token: null },
      to: { chain: 'bitcoin', token: null },
      size: 'unit',
      symbols: false,
    }),
    quoteCommand({
      slot: 1,
      from: { chain: 'base', token: 0 },
      to: { chain: 'base', token: 0 },
      size: 'unit',
      symbols: false,
    }),
    swapCommand({ wallet: 0, from: 0, to: 3, size: 'unit', toWallet: 1 }),
    swapStatusCommand({ slot: 0, order: 0 }),
    send({ chain: 'ethereum', token: 0, to: { kind: 'deposit', index: 0 } }),
    by(12_000),
    swapStatusCommand({ slot: 0, order: 0 }),
    by(MINUTE_MS),
    swapStatusCommand({ slot: 1, order: 0 }),
    by(MINUTE_MS),
    swapStatusCommand({ slot: 0, order: 0 }),
    by(3_000),
    swapStatusCommand({ slot: 0, order: 0 }),
    balanceCommand({ wallet: 1, chain: 'tron', viewKey: 'own' }),
    historyCommand({ wallet: 1, chain: 'ethereum', limit: 1 }),
    // Below the amount: refunded; no deposit: expired after the window.
    swapCommand({ wallet: 0, from: 0, to: 1, size: 'large', toWallet: 0 }),
    send({ chain: 'ethereum', token: 0, to: { kind: 'deposit', index: 0 }, amount: 'dust' }),
    swapCommand({ wallet: 0, from: 2, to: 0, size: 'unit', toWallet: 1 }),
    swapCommand({ wallet: 0, from: 1, to: 1, size: 'unit', toWallet: 1 }),
    swapCommand({ wallet: 0, from: 1, to: 2, size: 'tiny', toWallet: 1 }),
    by(12_000),
    swapStatusCommand({ slot: 0, order: 1 }),
    by(31 * MINUTE_MS),
    swapStatusCommand({ slot: 0, order: 1 }),
    swapStatusCommand({ slot: 0, order: 2 }),
    swapStatusCommand({ slot: 0, order: 'unknown' }),
    balanceCommand({ wallet: 0, chain: 'ethereum', viewKey: 'own' }),
    walletReferralCommand({ slot: 0, row: 'code' }),
    walletReferralCommand({ slot: 0, row: 'stats' }),
    walletReferralCommand({ slot: 0, row: 'withdraw' }),
    ...WALLET_BAD_INPUTS.map((row, index) => walletBadInputCommand(row, index % 2)),
  ];
}
