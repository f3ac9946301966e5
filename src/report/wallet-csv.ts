/**
 * wallet.csv: the wallet's activity per simulated chain — agents' sends and how they settled,
 * swap orders by the chain they sell from and how they ended, and the swap fees booked as wallet
 * revenue (wallet-referral-fee.ts) — folded from the run's wallet events, and its renderer.
 * Written only when the run sent or swapped on a chain, so other runs keep exactly the reports
 * (and digests) they had.
 *
 * Counted: a `send` transaction (not the aggregator's payouts and refunds, nor mints) at its
 * broadcast and again at its block; a swap order at its opening (status `waiting`) and at its end
 * status; the fee of a finished order on its input chain.
 * Invariants: one row per chain in the wallet's chain order (WALLET_CHAINS), a chain without any
 * activity left out; money as USDC with 6 decimals; `\n` line endings, a header always.
 */
import { stringify } from 'csv-stringify/sync';
import type { Micro } from '../core/money.ts';
import type { DomainEvent } from '../services/shared/events.ts';
import { WALLET_CHAINS } from '../services/wallet/keys/wallet-keys.ts';
import { usdcColumnText } from './column-format.ts';

export interface WalletChainRow {
  readonly chain: string;
  readonly sends: number;
  readonly confirmed: number;
  readonly failed: number;
  readonly swaps: number;
  readonly finished: number;
  readonly swapsFailed: number;
  readonly refunded: number;
  readonly expired: number;
  readonly feesMicro: Micro;
}

type MutableRow = { -readonly [K in keyof WalletChainRow]: WalletChainRow[K] };

const END_COLUMN = { finished: 'finished', failed: 'swapsFailed', refunded: 'refunded', expired: 'expired' } as const satisfies Record<string, keyof MutableRow>;

/** The per-chain rows of the run's wallet events, or undefined when nothing was sent or swapped. */
export function walletRowsFromEvents(events: readonly DomainEvent[]): WalletChainRow[] | undefined {
  const rows = new Map<string, MutableRow>();
  const sends = new Set<string>();
  const orderChains = new Map<string, string>();
  const rowOf = (chain: string): MutableRow => {
    let row = rows.get(chain);
    if (row === undefined) {
      row = { chain, sends: 0, confirmed: 0, failed: 0, swaps: 0, finished: 0, swapsFailed: 0, refunded: 0, expired: 0, feesMicro: 0n };
      rows.set(chain, row);
    }
    return row;
  };
  for (const event of events) {
    if (event.type === 'wallet.sent' && event.kind === 'send') {
      sends.add(event.hash);
      rowOf(event.chain).sends++;
    } else if (event.type === 'wallet.settled' && sends.delete(event.hash)) {
      rowOf(event.chain)[event.status === 'confirmed' ? 'confirmed' : 'failed']++;
    } else if (event.type === 'wallet.swap') {
      if (event.status === 'waiting') {
        orderChains.set(event.orderId, event.fromChain);
        rowOf(event.fromChain).swaps++;
      } else if (event.status in END_COLUMN) {
        rowOf(event.fromChain)[END_COLUMN[event.status as keyof typeof END_COLUMN]]++;
      }
    } else if (event.type === 'wallet.fee') {
      const chain = orderChains.get(event.orderId);
      if (chain !== undefined) rowOf(chain).feesMicro += event.feeMicro;
    }
  }
  if (rows.size === 0) return undefined;
  return WALLET_CHAINS.flatMap((chain) => rows.get(chain) ?? []);
}

const WALLET_COLUMNS = ['chain', 'sends', 'sends_confirmed', 'sends_failed', 'swaps', 'swaps_finished', 'swaps_failed', 'swaps_refunded', 'swaps_expired', 'swap_fees_usdc'] as const;

export function renderWalletCsv(rows: readonly WalletChainRow[]): string {
  const cells = rows.map((row) => [row.chain, row.sends, row.confirmed, row.failed, row.swaps, row.finished, row.swapsFailed, row.refunded, row.expired, usdcColumnText(row.feesMicro)]);
  return stringify(cells, { header: true, columns: [...WALLET_COLUMNS], record_delimiter: '\n' });
}
