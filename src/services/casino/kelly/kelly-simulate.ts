/**
 * POST /kelly/simulate: a seeded Monte Carlo of flat betting on one game variant.
 *
 * Body: { bankroll, game, ...the game's parameters, bet_amount, num_bets, simulations?, seed? }.
 * Bounds (a limit on the work of one request): num_bets 1..10,000; simulations 1..1,000 and
 * num_bets × simulations at most the caller's tier budget (Free 10,000, Pro 100,000, Enterprise
 * 1,000,000 simulated bets; a simulated bet costs about 0.6 µs, so a Free request about 6 ms);
 * the default `simulations` is the most the budget allows (min(1,000, budget / num_bets)). Over a
 * bound is a 400 naming the budgets, never silently clamped. The documents give no bound; the
 * deployment (DEPLOYED.md) allows up to 10,000 × 5,000 and 5 calls a minute per IP.
 * bet_amount must be a bet the game takes (its min..max bet); the Kelly limit is NOT applied
 * (the simulation is a what-if of the flat bet asked for); bankroll ≥ the game's minimum bet.
 *
 * Each run starts from `bankroll` and places up to num_bets bets of bet_amount, or of the whole
 * bankroll when less is left (all-in); a run whose bankroll falls below the game's minimum bet
 * (0 included) is ruined and stops there. Outcomes are drawn from the exact distribution
 * (distribution-sampler.ts: integers only); payouts are floor(stake × multiplier) as the casino
 * pays; money is bigint micro-USDC throughout. Run k draws from `rng.fork("run/k")`, so the
 * first runs do not change when `simulations` grows, and the same seed and body give identical
 * output. The answer echoes `seed` (the Rng's seed text): sending it back replays the runs.
 *
 * Answer: { game, variant, seed, simulations, num_bets, starting_bankroll, bet_amount,
 * ruin_probability, average_final_bankroll, median_final_bankroll, best_case, worst_case,
 * profitable_runs_pct, percentiles: { "5th", "25th", "50th", "75th", "95th" } } where
 * percentiles are nearest-rank over the sorted final bankrolls (index ceil(q·n/100) − 1),
 * median = the 50th, average rounded down to the micro, a profitable run ends above bankroll.
 */
import { fail, type Failure, type JsonObject } from '../../../core/errors.ts';
import { formatDecimal, toNumber, type Micro } from '../../../core/money.ts';
import { applyToMicro, ratio } from '../../../core/ratio.ts';
import { Rng } from '../../../core/rng.ts';
import { DistributionSampler } from './distribution-sampler.ts';
import {
  kellyFieldsOf,
  optionalIntegerField,
  optionalSeed,
  requiredAmountField,
  requiredInteger,
  selectGame,
  type GameLookup,
  type SelectedGame,
} from './kelly-fields.ts';
import { fixedNumber } from './kelly-numbers.ts';
import type { Tier } from '../../shared/agents.ts';

export const SIMULATE_LIMITS = { numBetsMax: 10_000, simulationsMax: 1_000, totalBetsMax: 1_000_000 } as const;
/** Simulated bets (num_bets × simulations) one request may ask for, by the caller's tier; the largest is totalBetsMax. */
export const SIMULATE_BUDGET_BY_TIER: Readonly<Record<Tier, number>> = {
  free: 10_000,
  pro: 100_000,
  enterprise: SIMULATE_LIMITS.totalBetsMax,
};
export const SIMULATE_OWN_KEYS: readonly string[] = ['bankroll', 'bet_amount', 'num_bets', 'simulations', 'seed'];
const PERCENTILES: readonly number[] = [5, 25, 50, 75, 95];

export interface SimulateRequest {
  readonly selected: SelectedGame;
  readonly bankrollMicro: Micro;
  readonly betAmountMicro: Micro;
  readonly numBets: number;
  readonly simulations: number;
  /** Absent: the service supplies its own stream (`simulationRng`). */
  readonly seed: string | undefined;
}

/** `tier`: the caller's, which sets the request's budget (SIMULATE_BUDGET_BY_TIER). */
export function parseSimulateRequest(body: unknown, lookup: GameLookup, tier: Tier): SimulateRequest | Failure {
  const read = kellyFieldsOf(body);
  if (!read.ok) return read;
  const fields = read.value;
  const selected = selectGame(fields, SIMULATE_OWN_KEYS, lookup);
  if ('ok' in selected) return selected;
  const bankrollMicro = requiredAmountField(fields, 'bankroll');
  if (typeof bankrollMicro !== 'bigint') return bankrollMicro;
  const betAmountMicro = requiredAmountField(fields, 'bet_amount');
  if (typeof betAmountMicro !== 'bigint') return betAmountMicro;
  const numBets = requiredInteger(fields, 'num_bets', 1, SIMULATE_LIMITS.numBetsMax);
  if (typeof numBets !== 'number') return numBets;
  const simulations = optionalIntegerField(fields, 'simulations', 1, SIMULATE_LIMITS.simulationsMax);
  if (typeof simulations === 'object') return simulations;
  const seed = optionalSeed(fields, 'seed');
  if (typeof seed === 'object') return seed;
  const budget = SIMULATE_BUDGET_BY_TIER[tier];
  const runs = simulations ?? Math.max(1, Math.min(SIMULATE_LIMITS.simulationsMax, Math.floor(budget / numBets)));
  if (numBets * runs > budget) {
    const { free, pro, enterprise } = SIMULATE_BUDGET_BY_TIER;
    return fail(
      'BAD_REQUEST',
      `num_bets × simulations must be at most ${budget} per request on the ${tier} tier (free ${free}, pro ${pro}, enterprise ${enterprise}); asked ${numBets * runs}`,
    );
  }
  const { minBetMicro, maxBetMicro } = selected.game;
  if (betAmountMicro < minBetMicro || betAmountMicro > maxBetMicro) {
    return fail(
      'BAD_REQUEST',
      `bet_amount must be from ${formatDecimal(minBetMicro)} to ${formatDecimal(maxBetMicro)} for ${selected.game.id}`,
    );
  }
  if (bankrollMicro < minBetMicro)
    return fail('BAD_REQUEST', `bankroll must be at least the minimum bet ${formatDecimal(minBetMicro)}`);
  return { selected, bankrollMicro, betAmountMicro, numBets, simulations: runs, seed };
}

/** The request's own seed when it sent one, else the service's stream. */
export function simulationRng(request: SimulateRequest, serviceRng: Rng): Rng {
  return request.seed === undefined ? serviceRng : new Rng(request.seed);
}

export interface SimulationRuns {
  /** Final bankrolls, ascending. */
  readonly finalsMicro: readonly Micro[];
  readonly ruined: number;
}

export function runSimulations(request: SimulateRequest, rng: Rng): SimulationRuns {
  const { distribution, game } = request.selected;
  const sampler = new DistributionSampler(distribution.map(([probability]) => probability));
  const bet = request.betAmountMicro;
  const fullGains = distribution.map(([, multiplier]) => applyToMicro(bet, multiplier) - bet);
  const finals: Micro[] = [];
  let ruined = 0;
  for (let run = 0; run < request.simulations; run++) {
    const stream = rng.fork(`run/${run}`);
    let bankroll = request.bankrollMicro;
    for (let placed = 0; placed < request.numBets; placed++) {
      const index = sampler.draw(stream);
      if (bankroll >= bet) bankroll += fullGains[index] as bigint;
      else bankroll = applyToMicro(bankroll, (distribution[index] as (typeof distribution)[number])[1]);
      if (bankroll < game.minBetMicro) {
        ruined += 1;
        break;
      }
    }
    finals.push(bankroll);
  }
  finals.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { finalsMicro: finals, ruined };
}

/** Nearest rank: the value at index ceil(q·n/100) − 1 of the ascending list. */
export function percentileMicro(sortedMicro: readonly Micro[], percent: number): Micro {
  const count = sortedMicro.length;
  const index = Math.max(0, Math.ceil((percent * count) / 100) - 1);
  return sortedMicro[Math.min(index, count - 1)] as Micro;
}

export function kellySimulateView(request: SimulateRequest, rng: Rng): JsonObject {
  const { finalsMicro, ruined } = runSimulations(request, rng);
  const count = finalsMicro.length;
  let total = 0n;
  let profitable = 0;
  for (const final of finalsMicro) {
    total += final;
    if (final > request.bankrollMicro) profitable += 1;
  }
  const percentiles: JsonObject = {};
  for (const percent of PERCENTILES) percentiles[`${percent}th`] = toNumber(percentileMicro(finalsMicro, percent));
  return {
    game: request.selected.game.id,
    variant: request.selected.variant,
    seed: rng.seed,
    simulations: request.simulations,
    num_bets: request.numBets,
    starting_bankroll: toNumber(request.bankrollMicro),
    bet_amount: toNumber(request.betAmountMicro),
    ruin_probability: fixedNumber(ratio(ruined, count)),
    average_final_bankroll: toNumber(total / BigInt(count)),
    median_final_bankroll: toNumber(percentileMicro(finalsMicro, 50)),
    best_case: toNumber(finalsMicro[count - 1] as Micro),
    worst_case: toNumber(finalsMicro[0] as Micro),
    profitable_runs_pct: fixedNumber(ratio(profitable * 100, count)),
    percentiles,
  };
}
