/**
 * A state-changing admin action (a clock move, a tier, a simulated deposit, a wallet mint, time
 * travel) as the command log keeps it and its replay applies it: validated before it is recorded,
 * recorded before it is applied. Its own file: the log, the checkpoints and the clock mover read
 * it without loading the admin rows.
 */
import type { Micro } from '../core/money.ts';
import type { Tier } from '../services/shared/agents.ts';

/** A state-changing admin action, as the command log keeps it. */
export type AdminCommand =
  | { readonly kind: 'clock'; readonly fromMs: number; readonly toMs: number }
  | { readonly kind: 'tier'; readonly agentId: string; readonly tier: Tier; readonly atMs: number }
  | {
      readonly kind: 'deposit';
      readonly agentId: string;
      readonly chain: string;
      readonly amountMicro: Micro;
      readonly atMs: number;
      /** Credited at once (the door's `confirmed: true`); absent: after the chain's delay. */
      readonly confirmed?: true;
    }
  | {
      readonly kind: 'wallet-mint';
      readonly chain: string;
      readonly address: string;
      readonly amount: string;
      readonly token: string | null;
      readonly atMs: number;
    }
  | { readonly kind: 'snapshot'; readonly id: string; readonly atMs: number }
  | { readonly kind: 'revert'; readonly id: string; readonly fromMs: number; readonly toMs: number }
  | { readonly kind: 'reset'; readonly fromMs: number; readonly toMs: number };
