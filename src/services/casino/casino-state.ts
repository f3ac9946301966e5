/**
 * CasinoState: everything the casino owns beyond the shared ServiceContext (agents, ledger,
 * timers, referral book), gathered so each operation file takes one argument for it. Money never
 * lives here: balances are ledger accounts (`agent:<id>`, `casino-house`, holds of tournaments,
 * challenges and withdrawals under review).
 */
import type { Ratio } from '../../core/ratio.ts';
import type { Rng } from '../../core/rng.ts';
import type { ServiceContext } from '../shared/context.ts';
import { BetBook } from './bet-book.ts';
import { BetStats } from './bet-stats.ts';
import type { CasinoConfig } from './casino-config.ts';
import type { GameId } from './games/game.ts';
import { BankrollCurve, type BankrollPoint } from './kelly/kelly-history.ts';
import { ReferralCommissions } from './referral-commission.ts';
import { SeedBook } from './seed-book.ts';

export type KellyPoint = BankrollPoint;

export interface DealtHand {
  readonly agentId: string;
  readonly nonce: number;
  readonly seedHash: string;
  readonly seedHex: string;
  readonly clientSeed: string;
  readonly cards: readonly string[];
  readonly atMs: number;
  /** The stake committed at the deal (held until the draw). */
  readonly amountMicro: bigint;
}

export class CasinoState {
  readonly ctx: ServiceContext;
  readonly config: CasinoConfig;
  readonly rng: Rng;
  readonly seeds: SeedBook;
  readonly bets = new BetBook();
  readonly stats: BetStats;
  readonly commissions: ReferralCommissions;
  /** Kelly risk factors set through PUT /kelly/config; absent = the default. */
  readonly riskFactors = new Map<string, Ratio>();
  /** Bankroll after each bet, per agent, the last `kellyHistoryMax` points. */
  readonly kellyHistory = new Map<string, BankrollCurve>();
  /** Simulations run per agent: each POST /kelly/simulate without a seed draws a fresh stream. */
  readonly simulationsRun = new Map<string, number>();
  /** Video-poker hands dealt and not yet drawn, per agent, keyed by nonce. */
  readonly hands = new Map<string, Map<number, DealtHand>>();
  /** Games a scenario closed (GAME_CLOSED) until further notice. */
  readonly closedGames = new Set<GameId>();

  constructor(ctx: ServiceContext, config: CasinoConfig) {
    this.ctx = ctx;
    this.config = config;
    // A fork: the casino's draws never shift the faucet's or escrow's streams.
    this.rng = ctx.rng.fork('casino');
    this.seeds = new SeedBook({ rng: this.rng.fork('server-seeds'), rotateAfterNonces: config.rotateAfterNonces });
    this.stats = new BetStats(config.leaderboardSize);
    this.commissions = new ReferralCommissions(config.referralLevelsBps);
  }

  recordBankroll(agentId: string, point: KellyPoint): void {
    let curve = this.kellyHistory.get(agentId);
    if (curve === undefined) {
      curve = new BankrollCurve(this.config.kellyHistoryMax);
      this.kellyHistory.set(agentId, curve);
    }
    curve.add(point);
  }
}
