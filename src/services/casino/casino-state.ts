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
import { BankrollCurves } from './bankroll-curves.ts';
import { CasinoAgent } from './casino-agent.ts';
import type { BetRecord } from './bet-record.ts';
import type { BankrollPoint } from './kelly/kelly-history.ts';
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
  /** The stake committed at the deal (held until the draw); null: a free deal as casino.md writes it, the draw's amount placing the bet. */
  readonly amountMicro: bigint | null;
}

export class CasinoState {
  readonly ctx: ServiceContext;
  readonly config: CasinoConfig;
  readonly rng: Rng;
  /** Whether any deliberate defect is on (fixed per platform): the bet path skips its defect checks when none is. */
  readonly defective: boolean;
  readonly seeds: SeedBook;
  readonly bets = new BetBook();
  readonly stats: BetStats;
  readonly commissions: ReferralCommissions;
  /** Kelly risk factors set through PUT /kelly/config; absent = the default. */
  readonly riskFactors = new Map<string, Ratio>();
  /** Bankroll after each bet, per agent, the last `kellyHistoryMax` points. */
  readonly kellyHistory: BankrollCurves;
  /** Simulations run per agent: each POST /kelly/simulate without a seed draws a fresh stream. */
  readonly simulationsRun = new Map<string, number>();
  /** Video-poker hands dealt and not yet drawn, per agent, keyed by nonce. */
  readonly hands = new Map<string, Map<number, DealtHand>>();
  /** Games a scenario closed (GAME_CLOSED) until further notice. */
  readonly closedGames = new Set<GameId>();
  /** Per agent: where its parts of this state are (casino-agent.ts). */
  private readonly agents = new Map<string, CasinoAgent>();

  constructor(ctx: ServiceContext, config: CasinoConfig) {
    this.ctx = ctx;
    this.config = config;
    this.defective = ctx.defects.size > 0;
    // A fork: the casino's draws never shift the faucet's or escrow's streams.
    this.rng = ctx.rng.fork('casino');
    this.seeds = new SeedBook({ rng: this.rng.fork('server-seeds'), rotateAfterNonces: config.rotateAfterNonces });
    this.stats = new BetStats(config.leaderboardSize);
    this.commissions = new ReferralCommissions(config.referralLevelsBps);
    this.kellyHistory = new BankrollCurves(this.bets, config.kellyHistoryMax);
  }

  /** The agent's record, created on first use (one per agent that bet or asked for a seed). */
  agent(agentId: string): CasinoAgent {
    let agent = this.agents.get(agentId);
    if (agent === undefined) {
      agent = new CasinoAgent(agentId);
      this.agents.set(agentId, agent);
    }
    return agent;
  }

  /** A settled bet's point of the agent's bankroll curve (after the bet book has the bet). */
  recordBankroll(bet: BetRecord): void {
    this.kellyHistory.record(bet);
  }
}
