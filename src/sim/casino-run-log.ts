/**
 * CasinoRunLog: what a run's casino bets add to its reports (casino.csv, report.html, the casino
 * part of summary.json), gathered as the run goes: per game variant the bets, the amounts and an
 * exact tally of multipliers (edge-statistics.ts `ReturnTally`) with the empirical edge and its
 * 99% interval copied at 100, 200, 500, 1,000, … bets; and the mean balance of each archetype's
 * agents sampled at fixed instants of virtual time.
 *
 * Per-bet edge: each bet counts as a unit stake (1 − mean multiplier), whatever its amount — the
 * draw does not depend on the amount, so the mean is unbiased for martingales and Kelly sizing
 * alike, and it is what `edgeInterval` and `judgeEdge` are about. Amounts are kept beside it.
 * Theory: a variant's exact law from its first bet's parameters (a variant name fixes its law, as
 * kelly-rule.ts relies on too); crash-round and video-poker bets get none (their law is the
 * round's or the hand's, not the variant's).
 * Limits: MAX_VARIANTS tracked variants (more are counted in `untrackedBets`); BANKROLL_SAMPLES
 * samples plus the final one. Read-only towards the platform; sampling never moves the clock.
 */
import { edgeInterval, edgeTheory, ReturnTally } from '../audit/edge-statistics.ts';
import { agentAccount } from '../core/ledger.ts';
import type { Micro } from '../core/money.ts';
import type { Platform } from '../platform/platform.ts';
import type { CasinoBankrollRow, CasinoEdgePoint, CasinoRunData, CasinoVariantRow, VariantTheory } from '../report/run-record.ts';
import type { BetRecord } from '../services/casino/bet-record.ts';
import { GAME_IDS, type GameId } from '../services/casino/games/game.ts';
import { gameById } from '../services/casino/games/index.ts';
import type { Scenario } from './scenario.ts';

export const MAX_VARIANTS = 1_000;
export const BANKROLL_SAMPLES = 120;
export const FIRST_CHECKPOINT = 100;

interface VariantTally {
  readonly game: GameId;
  readonly variant: string;
  bets: number;
  wageredMicro: Micro;
  returnedMicro: Micro;
  readonly tally: ReturnTally;
  readonly points: CasinoEdgePoint[];
  nextCheckpoint: number;
  readonly theory: VariantTheory | null;
}

/** 100, 200, 500, 1000, 2000, … : the checkpoint after `bets`. */
export function nextCheckpoint(bets: number): number {
  let decade = FIRST_CHECKPOINT;
  for (;;) {
    for (const step of [1, 2, 5]) if (decade * step > bets) return decade * step;
    decade *= 10;
  }
}

function theoryOf(bet: BetRecord): VariantTheory | null {
  if (bet.variant === 'crash:round' || bet.source === 'video-poker') return null;
  const game = gameById(bet.game);
  const params = game.parse(bet.params);
  if (!params.ok) return null;
  return { ...edgeTheory(game.distribution(params.value)), advertised: game.advertisedEdge(params.value), advertisedText: game.advertisedEdgeText };
}

interface ArchetypeAgents {
  readonly archetype: string;
  readonly accounts: readonly string[];
}

export class CasinoRunLog {
  private readonly platform: Platform;
  private readonly variants = new Map<string, VariantTally>();
  private readonly archetypeOf = new Map<string, string>();
  private readonly archetypes: readonly ArchetypeAgents[];
  private readonly bettingArchetypes = new Set<string>();
  private readonly sampleTimes: readonly number[];
  private readonly samples: { atMs: number; meanMicro: Micro[] }[] = [];
  private readonly scenario: Scenario;
  private bets = 0;
  private untracked = 0;
  private wageredMicro = 0n;
  private returnedMicro = 0n;

  constructor(options: { platform: Platform; scenario: Scenario; agents: readonly { agentId: string; archetype: string }[] }) {
    this.platform = options.platform;
    this.scenario = options.scenario;
    const byArchetype = new Map<string, string[]>();
    for (const agent of options.agents) {
      this.archetypeOf.set(agent.agentId, agent.archetype);
      const list = byArchetype.get(agent.archetype) ?? [];
      list.push(agentAccount(agent.agentId));
      byArchetype.set(agent.archetype, list);
    }
    this.archetypes = [...byArchetype].map(([archetype, accounts]) => ({ archetype, accounts }));
    const { startMs, durationMs } = options.scenario;
    this.sampleTimes = Array.from({ length: BANKROLL_SAMPLES }, (_, index) => startMs + Math.floor((index * durationMs) / BANKROLL_SAMPLES));
  }

  /** The next bankroll sample instant not yet taken, if any. */
  nextSampleMs(): number | undefined {
    return this.sampleTimes[this.samples.length];
  }

  /** Takes the next sample: the mean balance per archetype now (after every event before `atMs`). */
  sample(atMs: number): void {
    this.samples.push(this.meansAt(atMs));
  }

  private meansAt(atMs: number): { atMs: number; meanMicro: Micro[] } {
    const ledger = this.platform.ledger;
    const meanMicro = this.archetypes.map(({ accounts }) => {
      let total = 0n;
      for (const account of accounts) total += ledger.balance(account);
      return total / BigInt(accounts.length);
    });
    return { atMs, meanMicro };
  }

  /** One settled bet (its casino.bet event); the record is read while it is surely retained. */
  onBet(betId: string): void {
    const bet = this.platform.casino.findBet(betId);
    if (bet === undefined) return;
    this.bets += 1;
    this.wageredMicro += bet.amountMicro;
    this.returnedMicro += bet.payoutMicro;
    const archetype = this.archetypeOf.get(bet.agentId);
    if (archetype !== undefined) this.bettingArchetypes.add(archetype);
    const tally = this.tallyOf(bet);
    if (tally === null) {
      this.untracked += 1;
      return;
    }
    tally.bets += 1;
    tally.wageredMicro += bet.amountMicro;
    tally.returnedMicro += bet.payoutMicro;
    tally.tally.add(bet.multiplier);
    if (tally.bets === tally.nextCheckpoint) {
      if (tally.theory !== null) {
        const interval = edgeInterval(tally.tally.data(), tally.theory.sigma);
        tally.points.push({ bets: interval.bets, edge: interval.edge, low: interval.low, high: interval.high });
      }
      tally.nextCheckpoint = nextCheckpoint(tally.bets);
    }
  }

  private tallyOf(bet: BetRecord): VariantTally | null {
    const key = `${bet.game}|${bet.variant}`;
    const known = this.variants.get(key);
    if (known !== undefined) return known;
    if (this.variants.size >= MAX_VARIANTS) return null;
    const created: VariantTally = {
      game: bet.game, variant: bet.variant, bets: 0, wageredMicro: 0n, returnedMicro: 0n, tally: new ReturnTally(), points: [], nextCheckpoint: FIRST_CHECKPOINT, theory: theoryOf(bet),
    };
    this.variants.set(key, created);
    return created;
  }

  /** The casino part of the run record, or undefined when the run placed no bet. */
  data(endMs: number): CasinoRunData | undefined {
    if (this.bets === 0) return undefined;
    const samples = [...this.samples, this.meansAt(endMs)];
    const gameOrder = (game: string): number => (GAME_IDS as readonly string[]).indexOf(game);
    const variants: CasinoVariantRow[] = [...this.variants.values()]
      .sort((a, b) => gameOrder(a.game) - gameOrder(b.game) || (a.variant < b.variant ? -1 : a.variant > b.variant ? 1 : 0))
      .map((tally) => ({
        game: tally.game, variant: tally.variant, bets: tally.bets, wageredMicro: tally.wageredMicro, returnedMicro: tally.returnedMicro,
        tally: tally.tally.data(), points: [...tally.points], theory: tally.theory,
      }));
    const bankrolls: CasinoBankrollRow[] = [];
    this.archetypes.forEach(({ archetype, accounts }, index) => {
      if (!this.bettingArchetypes.has(archetype)) return;
      bankrolls.push({ archetype, agents: accounts.length, points: samples.map((sample) => ({ atMs: sample.atMs, meanBalanceMicro: sample.meanMicro[index] ?? 0n })) });
    });
    const { startMs } = this.scenario;
    const closures = this.scenario.casino.closures.map((closure) => ({ game: closure.game, fromMs: startMs + closure.fromMs, untilMs: startMs + closure.fromMs + closure.forMs }));
    return { bets: this.bets, wageredMicro: this.wageredMicro, returnedMicro: this.returnedMicro, variants, untrackedBets: this.untracked, bankrolls, closures };
  }
}
