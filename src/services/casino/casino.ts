/**
 * CasinoService: the casino of casino.md over the shared platform (one balance per agent, shared
 * with faucet and escrow). A thin facade: each operation lives in its own file and takes the
 * CasinoState; every method takes a command (and `nowMs` where time matters) and returns an
 * Outcome; no HTTP types. The house is the ledger account `casino-house`, funded at genesis.
 *
 * Bets of every style go through `placeBet` (place-bet.ts); batches run it per element, an
 * error in one element not aborting the rest (NOTES.md "Batch").
 */
import type { Clock } from '../../core/clock.ts';
import { fail, type Failure, type Outcome } from '../../core/errors.ts';
import { EXTERNAL, agentAccount } from '../../core/ledger.ts';
import type { Micro } from '../../core/money.ts';
import type { Ratio } from '../../core/ratio.ts';
import type { PlatformTimer, ServiceContext } from '../shared/context.ts';
import type { BetRecord } from './bet-record.ts';
import type { CasinoConfig } from './casino-config.ts';
import { CasinoAccount } from './account/casino-account.ts';
import { CasinoState } from './casino-state.ts';
import { Challenges } from './challenges/challenges.ts';
import { Tournaments } from './tournaments/tournaments.ts';
import { CrashRounds } from './crash-rounds.ts';
import { DailyGameCap } from './daily-game-cap.ts';
import { rotateSeed, verifyBet, type Verification } from './fairness.ts';
import type { GameId } from './games/game.ts';
import { placeBet, type BetCommand } from './place-bet.ts';
import { placeParlay, type ParlayCommand } from './parlay-bet.ts';
import { CASINO_HOUSE } from './referral-commission.ts';
import type { ServerSeed } from './seed-book.ts';
import {
  biggestWins,
  leaderboard,
  sessionOf,
  statsOf,
  type LeaderboardRow,
  type SessionView,
  type StatsView,
} from './stats-views.ts';

/** The casino's timed work: every timer kind of its own (the platform routes the others elsewhere). */
export type CasinoTimer = Extract<PlatformTimer, { kind: `casino.${string}` }>;

export interface BatchOutcome {
  readonly results: ReadonlyArray<Outcome<BetRecord>>;
  readonly balanceAfterMicro: Micro;
}

export class CasinoService {
  readonly state: CasinoState;
  readonly crashRounds = new CrashRounds();
  readonly dailyCapB = new DailyGameCap();
  /** Deposits, withdrawals and the per-agent transaction history (account/). */
  readonly account: CasinoAccount;
  readonly tournaments: Tournaments;
  readonly challenges: Challenges;

  /** `clock`: the platform's current instant, for the transaction history's timestamps. */
  constructor(ctx: ServiceContext, config: CasinoConfig, clock: Clock) {
    this.state = new CasinoState(ctx, config);
    this.account = new CasinoAccount(this.state, { clock });
    this.tournaments = new Tournaments(this.state);
    this.challenges = new Challenges(this.state);
    ctx.ledger.transfer({
      from: EXTERNAL,
      to: CASINO_HOUSE,
      amountMicro: config.houseFundingMicro,
      reason: 'casino.house-funding',
      reference: 'genesis',
    });
  }

  get ctx(): ServiceContext {
    return this.state.ctx;
  }

  balanceMicro(agentId: string): Micro {
    return this.state.ctx.ledger.balance(agentAccount(agentId));
  }

  bet<P>(command: BetCommand<P>, nowMs: number): Outcome<BetRecord> {
    return placeBet(this.state, command, nowMs);
  }

  /** Style B: the per-game daily cap first, then the bet. */
  betB<P>(command: BetCommand<P>, nowMs: number): Outcome<BetRecord> {
    const capped = this.dailyCapB.take(command.agentId, command.game.id, nowMs);
    if (capped !== null) return capped;
    return placeBet(this.state, command, nowMs);
  }

  /** The deployed dialect's parlay: several legs placed as one bet (parlay-bet.ts). */
  parlay(command: ParlayCommand, nowMs: number): Outcome<BetRecord> {
    return placeParlay(this.state, command, nowMs);
  }

  batch(commands: ReadonlyArray<BetCommand | Failure>, nowMs: number): BatchOutcome {
    const results = commands.map((command) => ('ok' in command ? command : placeBet(this.state, command, nowMs)));
    const agentId = commands.find((command): command is BetCommand => !('ok' in command))?.agentId;
    return { results, balanceAfterMicro: agentId === undefined ? 0n : this.balanceMicro(agentId) };
  }

  setGameClosed(game: GameId, closed: boolean): void {
    if (closed) this.state.closedGames.add(game);
    else this.state.closedGames.delete(game);
  }

  // Fairness.
  seedHash(agentId: string, nowMs: number): ServerSeed {
    return this.state.seeds.active(agentId, nowMs);
  }

  rotate(agentId: string, nowMs: number): { revealed: ServerSeed; active: ServerSeed } {
    return rotateSeed(this.state, agentId, nowMs);
  }

  seeds(agentId: string, nowMs: number): readonly ServerSeed[] {
    return this.state.seeds.list(agentId, nowMs);
  }

  verify(agentId: string, betId: string): Outcome<Verification> {
    return verifyBet(this.state, agentId, betId);
  }

  /** Style B verify: by the seed's commitment and a nonce, for the seed's owner. */
  verifyBySeed(agentId: string, seedHash: string, nonce: number): Outcome<Verification> {
    const found = this.state.seeds.byCommitment(seedHash);
    if (found === undefined) return fail('NOT_FOUND', `seed ${seedHash} not found`);
    if (found.agentId !== agentId) return fail('FORBIDDEN', 'the seed belongs to another agent');
    const bet = this.state.bets.findByDraw(agentId, seedHash, nonce);
    if (bet !== undefined) return verifyBet(this.state, agentId, bet.id);
    return fail('NOT_FOUND', `no retained bet with seed ${seedHash.slice(0, 12)}… and nonce ${nonce}`);
  }

  // Kelly configuration.
  setRiskFactor(agentId: string, riskFactor: Ratio): void {
    this.state.riskFactors.set(agentId, riskFactor);
  }

  // Stats.
  stats(agentId: string): StatsView {
    return statsOf(this.state, agentId);
  }

  session(agentId: string, nowMs: number): SessionView {
    return sessionOf(this.state, agentId, nowMs);
  }

  leaderboard(game: GameId | null): { rows: LeaderboardRow[]; biggestWins: readonly BetRecord[] } {
    return {
      rows: leaderboard(this.state, game, this.state.config.leaderboardSize),
      biggestWins: biggestWins(this.state, game),
    };
  }

  /** The agent's retained bets, newest first, `limit` per page (page 1 = the newest). */
  history(
    agentId: string,
    options: { limit: number; game: GameId | null; fromMs: number | null; page?: number },
  ): { bets: BetRecord[]; total: number } {
    return this.state.bets.newest(agentId, {
      limit: options.limit,
      skip: ((options.page ?? 1) - 1) * options.limit,
      game: options.game,
      fromMs: options.fromMs,
    });
  }

  findBet(betId: string): BetRecord | undefined {
    return this.state.bets.get(betId);
  }

  onTimer(timer: CasinoTimer, atMs: number): void {
    switch (timer.kind) {
      case 'casino.crash-round':
        this.crashRounds.onCrash(this.state, timer.roundId, atMs);
        return;
      case 'casino.tournament':
        this.tournaments.onTimer(timer, atMs);
        return;
      case 'casino.challenge-expire':
        this.challenges.onTimer(timer, atMs);
        return;
      case 'casino.deposit-confirm':
      case 'casino.withdrawal-review':
        this.account.onTimer(timer, atMs);
        return;
    }
  }
}
