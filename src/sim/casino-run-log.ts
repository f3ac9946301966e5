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
 * Bankroll samples: each archetype's total balance is kept up to date from the ledger's
 * transfers, so a sample costs one division per archetype, not a read of every agent's balance
 * (issue 19: at a million agents the reads were a quarter of the run). The final sample reads
 * every balance once, so a test-only mint (`faultMint`, no transfer) is still seen at the end.
 */
import { edgeInterval, edgeTheory, ReturnTally } from '../audit/maths.ts';
import { agentAccount, type AccountName, type Transfer, type TransferListener } from '../core/ledger.ts';
import type { Micro } from '../core/money.ts';
import type { Platform } from '../platform/platform.ts';
import type {
  CasinoBankrollRow,
  CasinoEdgePoint,
  CasinoRunData,
  CasinoVariantRow,
  VariantTheory,
} from '../report/run-record.ts';
import type { BetRecord } from '../services/casino/bet-record.ts';
import { GAME_IDS, type GameId } from '../services/casino/games/game.ts';
import { gameById } from '../services/casino/games/index.ts';
import type { Scenario } from '../scenario/scenario.ts';

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
  if (bet.variant === 'crash:round' || bet.source === 'video-poker' || bet.game === 'parlay') return null;
  const game = gameById(bet.game);
  const params = game.parse(bet.params);
  if (!params.ok) return null;
  return {
    ...edgeTheory(game.distribution(params.value)),
    advertised: game.advertisedEdge(params.value),
    advertisedText: game.advertisedEdgeText,
  };
}

interface ArchetypeAgents {
  readonly archetype: string;
  agents: number;
  /** The sum of the archetype's agents' balances, kept by `onTransfer`. */
  totalMicro: Micro;
}

export class CasinoRunLog implements TransferListener {
  private readonly platform: Platform;
  private readonly variants = new Map<string, VariantTally>();
  private readonly archetypes: ArchetypeAgents[] = [];
  /** Each agent account's archetype, an index into `archetypes`. */
  private readonly archetypeIndexOf = new Map<AccountName, number>();
  private readonly bettingArchetypes = new Set<string>();
  private readonly sampleTimes: readonly number[];
  private readonly samples: { atMs: number; meanMicro: Micro[] }[] = [];
  private readonly scenario: Scenario;
  private bets = 0;
  private untracked = 0;
  private wageredMicro = 0n;
  private returnedMicro = 0n;

  constructor(options: {
    platform: Platform;
    scenario: Scenario;
    agents: readonly { agentId: string; archetype: string }[];
  }) {
    this.platform = options.platform;
    this.scenario = options.scenario;
    const indexOf = new Map<string, number>();
    for (const agent of options.agents) {
      let index = indexOf.get(agent.archetype);
      if (index === undefined) {
        index = this.archetypes.push({ archetype: agent.archetype, agents: 0, totalMicro: 0n }) - 1;
        indexOf.set(agent.archetype, index);
      }
      (this.archetypes[index] as ArchetypeAgents).agents++;
      this.archetypeIndexOf.set(agentAccount(agent.agentId), index);
    }
    for (const [account, index] of this.archetypeIndexOf)
      (this.archetypes[index] as ArchetypeAgents).totalMicro += options.platform.ledger.balance(account);
    options.platform.ledger.onTransfer(this);
    const { startMs, durationMs } = options.scenario;
    this.sampleTimes = Array.from(
      { length: BANKROLL_SAMPLES },
      (_, index) => startMs + Math.floor((index * durationMs) / BANKROLL_SAMPLES),
    );
  }

  /** The next bankroll sample instant not yet taken, if any. */
  nextSampleMs(): number | undefined {
    return this.sampleTimes[this.samples.length];
  }

  /** Takes the next sample: the mean balance per archetype now (after every event before `atMs`). */
  sample(atMs: number): void {
    this.samples.push({
      atMs,
      meanMicro: this.archetypes.map(({ agents, totalMicro }) => totalMicro / BigInt(agents)),
    });
  }

  /** The ledger's observer call: moves the amount between the archetypes' totals. */
  onTransfer(transfer: Transfer): void {
    const from = this.archetypeIndexOf.get(transfer.from);
    if (from !== undefined) (this.archetypes[from] as ArchetypeAgents).totalMicro -= transfer.amountMicro;
    const to = this.archetypeIndexOf.get(transfer.to);
    if (to !== undefined) (this.archetypes[to] as ArchetypeAgents).totalMicro += transfer.amountMicro;
  }

  /** The mean balance per archetype from every agent's balance (the final sample). */
  private meansRead(atMs: number): { atMs: number; meanMicro: Micro[] } {
    const ledger = this.platform.ledger;
    const totals = this.archetypes.map(() => 0n);
    for (const [account, index] of this.archetypeIndexOf)
      totals[index] = (totals[index] as Micro) + ledger.balance(account);
    return {
      atMs,
      meanMicro: totals.map((total, index) => total / BigInt((this.archetypes[index] as ArchetypeAgents).agents)),
    };
  }

  /** One settled bet (its casino.bet event); the record is read while it is surely retained. */
  onBet(betId: string): void {
    const bet = this.platform.casino.findBet(betId);
    if (bet === undefined) return;
    this.bets += 1;
    this.wageredMicro += bet.amountMicro;
    this.returnedMicro += bet.payoutMicro;
    // One map per agent, not two (issue 19): a bet builds the account name, a transfer already has it.
    const archetype = this.archetypeIndexOf.get(agentAccount(bet.agentId));
    if (archetype !== undefined) this.bettingArchetypes.add((this.archetypes[archetype] as ArchetypeAgents).archetype);
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
    // A deployed parlay (never in a simulation) has no afp variant.
    if (bet.game === 'parlay') return null;
    const key = `${bet.game}|${bet.variant}`;
    const known = this.variants.get(key);
    if (known !== undefined) return known;
    if (this.variants.size >= MAX_VARIANTS) return null;
    const created: VariantTally = {
      game: bet.game,
      variant: bet.variant,
      bets: 0,
      wageredMicro: 0n,
      returnedMicro: 0n,
      tally: new ReturnTally(),
      points: [],
      nextCheckpoint: FIRST_CHECKPOINT,
      theory: theoryOf(bet),
    };
    this.variants.set(key, created);
    return created;
  }

  /** The casino part of the run record, or undefined when the run placed no bet. */
  data(endMs: number): CasinoRunData | undefined {
    if (this.bets === 0) return undefined;
    const samples = [...this.samples, this.meansRead(endMs)];
    const gameOrder = (game: string): number => (GAME_IDS as readonly string[]).indexOf(game);
    const variants: CasinoVariantRow[] = [...this.variants.values()]
      .sort(
        (a, b) => gameOrder(a.game) - gameOrder(b.game) || (a.variant < b.variant ? -1 : a.variant > b.variant ? 1 : 0),
      )
      .map((tally) => ({
        game: tally.game,
        variant: tally.variant,
        bets: tally.bets,
        wageredMicro: tally.wageredMicro,
        returnedMicro: tally.returnedMicro,
        tally: tally.tally.data(),
        points: [...tally.points],
        theory: tally.theory,
      }));
    const bankrolls: CasinoBankrollRow[] = [];
    this.archetypes.forEach(({ archetype, agents }, index) => {
      if (!this.bettingArchetypes.has(archetype)) return;
      bankrolls.push({
        archetype,
        agents,
        points: samples.map((sample) => ({ atMs: sample.atMs, meanBalanceMicro: sample.meanMicro[index] ?? 0n })),
      });
    });
    const { startMs } = this.scenario;
    const closures = this.scenario.casino.closures.map((closure) => ({
      game: closure.game,
      fromMs: startMs + closure.fromMs,
      untilMs: startMs + closure.fromMs + closure.forMs,
    }));
    return {
      bets: this.bets,
      wageredMicro: this.wageredMicro,
      returnedMicro: this.returnedMicro,
      variants,
      untrackedBets: this.untracked,
      bankrolls,
      closures,
    };
  }
}
