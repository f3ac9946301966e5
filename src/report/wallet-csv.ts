/**
 * wallet.csv: the wallet's activity per simulated chain — agents' sends and how they settled,
 * swap orders by the chain they sell from and how they ended, and the swap fees booked as wallet
 * revenue (wallet-referral-fee.ts) — folded from the run's wallet events as they happen, and its renderer.
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

const END_COLUMN = {
  finished: 'finished',
  failed: 'swapsFailed',
  refunded: 'refunded',
  expired: 'expired',
} as const satisfies Record<string, keyof MutableRow>;

/**
 * The per-chain rows, folded event by event as the run emits them (a streamed run keeps no event
 * list); a send is remembered until its block, an order's input chain until the run ends.
 */
export class WalletRowsFold {
  private readonly byChain = new Map<string, MutableRow>();
  private readonly sends = new Set<string>();
  private readonly orderChains = new Map<string, string>();

  add(event: DomainEvent): void {
    if (event.type === 'wallet.sent' && event.kind === 'send') {
      this.sends.add(event.hash);
      this.rowOf(event.chain).sends++;
    } else if (event.type === 'wallet.settled' && this.sends.delete(event.hash)) {
      this.rowOf(event.chain)[event.status === 'confirmed' ? 'confirmed' : 'failed']++;
    } else if (event.type === 'wallet.swap') {
      if (event.status === 'waiting') {
        this.orderChains.set(event.orderId, event.fromChain);
        this.rowOf(event.fromChain).swaps++;
      } else if (event.status in END_COLUMN) {
        this.rowOf(event.fromChain)[END_COLUMN[event.status as keyof typeof END_COLUMN]]++;
      }
    } else if (event.type === 'wallet.fee') {
      const chain = this.orderChains.get(event.orderId);
      if (chain !== undefined) this.rowOf(chain).feesMicro += event.feeMicro;
    }
  }

  /** The rows in the wallet's chain order, or undefined when nothing was sent or swapped. */
  rows(): WalletChainRow[] | undefined {
    if (this.byChain.size === 0) return undefined;
    return WALLET_CHAINS.flatMap((chain) => this.byChain.get(chain) ?? []);
  }

  private rowOf(chain: string): MutableRow {
    let row = this.byChain.get(chain);
    if (row === undefined) {
      row = {
        chain,
        sends: 0,
        confirmed: 0,
        failed: 0,
        swaps: 0,
        finished: 0,
        swapsFailed: 0,
        refunded: 0,
        expired: 0,
        feesMicro: 0n,
      };
      this.byChain.set(chain, row);
    }
    return row;
  }
}

/** The per-chain rows of a list of wallet events, or undefined when nothing was sent or swapped. */
export function walletRowsFromEvents(events: Iterable<DomainEvent>): WalletChainRow[] | undefined {
  const fold = new WalletRowsFold();
  for (const event of events) fold.add(event);
  return fold.rows();
}

const WALLET_COLUMNS = [
  'chain',
  'sends',
  'sends_confirmed',
  'sends_failed',
  'swaps',
  'swaps_finished',
  'swaps_failed',
  'swaps_refunded',
  'swaps_expired',
  'swap_fees_usdc',
] as const;

export function renderWalletCsv(rows: readonly WalletChainRow[]): string {
  const cells = rows.map((row) => [
    row.chain,
    row.sends,
    row.confirmed,
    row.failed,
    row.swaps,
    row.finished,
    row.swapsFailed,
    row.refunded,
    row.expired,
    usdcColumnText(row.feesMicro),
  ]);
  return stringify(cells, { header: true, columns: [...WALLET_COLUMNS], record_delimiter: '\n' });
}
