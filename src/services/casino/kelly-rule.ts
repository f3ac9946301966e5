/**
 * The Kelly limit on every bet (NOTES.md "Kelly limit"): the casino's side of the rule, joining
 * an agent's risk factor (PUT /kelly/config, default 0.25) and bankroll (the balance before the
 * bet) with the game variant's exact Kelly inputs (kelly/kelly-inputs.ts) through the formula in
 * kelly/kelly-limit.ts.
 *
 * Memos (this runs twice per bet: the check, and the `kelly` object of the answer): inputs are a
 * pure function of the variant, so they are kept per (game, variant name) in bounded maps
 * (variant names determine the distribution; a map is cleared when full); each variant also keeps
 * its allowed fraction per risk factor (kelly-limit.ts `allowedFraction`, pure in both), so a
 * limit costs one multiplication and one division of bigints instead of exact fraction arithmetic.
 * The default risk factor is one shared Ratio per percent. Every value is the one the formulas of
 * kelly/ give (a test compares them over every variant, many bankrolls and risk factors).
 */
import { toNumber, type Micro } from '../../core/money.ts';
import { applyToMicro, ratio, type Ratio } from '../../core/ratio.ts';
import type { CasinoState } from './casino-state.ts';
import type { GameModule } from './games/game.ts';
import { kellyInputs, type KellyInputs } from './kelly/kelly-inputs.ts';
import { allowedFraction } from './kelly/kelly-limit.ts';
import { betsUntilRuin, suggestedBet } from './kelly/kelly-measures.ts';
import type { KellyBetSummary } from './kelly/kelly-view.ts';
import { riskFactorNumber } from './kelly/risk-factor.ts';

const VARIANTS_MEMO_MAX = 4_096;
const FRACTIONS_PER_VARIANT_MAX = 256;

interface VariantKelly {
  readonly inputs: KellyInputs;
  /** Allowed fraction by risk factor (key: riskKey). */
  readonly fractions: Map<number, Ratio>;
}

/** Per game id, per variant name. */
const variantsMemo = new Map<string, Map<string, VariantKelly>>();
let variantsMemoSize = 0;

/**
 * The last (game, parameters) objects asked about and their variants: a bet asks three times in a
 * row (the Kelly check, the record's variant name, the answer's summary) about the same parameters
 * object, and the bet routes hand out one parameters object per recent distinct parameters
 * (casino-bet-fields.ts), so a population's bets keep asking about a few objects. Parameters are
 * immutable (readonly, built by `parse`), so the object names its variant. A ring of
 * NAMES_REMEMBERED entries, compared by identity.
 */
const NAMES_REMEMBERED = 8;
const namedGames: Array<GameModule<never> | null> = new Array<GameModule<never> | null>(NAMES_REMEMBERED).fill(null);
const namedParams: unknown[] = new Array<unknown>(NAMES_REMEMBERED).fill(null);
const names: string[] = new Array<string>(NAMES_REMEMBERED).fill('');
let nextNamed = 0;

/** `game.variantName(params)`, remembered for the last NAMES_REMEMBERED parameters objects. */
export function variantNameOf<P>(game: GameModule<P>, params: P): string {
  if (params !== null) {
    for (let index = 0; index < NAMES_REMEMBERED; index++) {
      if (namedParams[index] === params && namedGames[index] === game) return names[index] as string;
    }
  }
  const name = game.variantName(params);
  namedGames[nextNamed] = game as GameModule<never>;
  namedParams[nextNamed] = params;
  names[nextNamed] = name;
  nextNamed = (nextNamed + 1) % NAMES_REMEMBERED;
  return name;
}

function variantKelly<P>(game: GameModule<P>, params: P): VariantKelly {
  let byVariant = variantsMemo.get(game.id);
  if (byVariant === undefined) {
    byVariant = new Map();
    variantsMemo.set(game.id, byVariant);
  }
  const name = variantNameOf(game, params);
  let entry = byVariant.get(name);
  if (entry === undefined) {
    if (variantsMemoSize >= VARIANTS_MEMO_MAX) {
      for (const map of variantsMemo.values()) map.clear();
      variantsMemoSize = 0;
    }
    entry = { inputs: kellyInputs(game.distribution(params)), fractions: new Map() };
    byVariant.set(name, entry);
    variantsMemoSize += 1;
  }
  return entry;
}

export function variantInputs<P>(game: GameModule<P>, params: P): KellyInputs {
  return variantKelly(game, params).inputs;
}

/** The last risk factor keyed and its key: a bet keys the same Ratio object three times (one shared object per default percent). */
let lastRiskFactor: Ratio | null = null;
let lastRiskKey = -1;

/** A number naming a small risk factor exactly (num < 2^20, den < 2^20); -1 for any other. */
function riskKey(riskFactor: Ratio): number {
  if (riskFactor === lastRiskFactor) return lastRiskKey;
  const { num, den } = riskFactor;
  const key = num >= 0n && num < 0x10_0000n && den < 0x10_0000n ? Number(num) * 0x10_0000 + Number(den) : -1;
  lastRiskFactor = riskFactor;
  lastRiskKey = key;
  return key;
}

/** kelly-limit.ts `allowedFraction(riskFactor, inputs)`, memoised per variant. */
function fractionOf(entry: VariantKelly, riskFactor: Ratio): Ratio {
  const key = riskKey(riskFactor);
  if (key < 0) return allowedFraction(riskFactor, entry.inputs);
  let fraction = entry.fractions.get(key);
  if (fraction === undefined) {
    if (entry.fractions.size >= FRACTIONS_PER_VARIANT_MAX) entry.fractions.clear();
    fraction = allowedFraction(riskFactor, entry.inputs);
    entry.fractions.set(key, fraction);
  }
  return fraction;
}

/** kelly-limit.ts `maxBetMicro`: floor(bankroll × allowed fraction), nothing for a bankroll ≤ 0. */
function limitMicro(bankrollMicro: Micro, fraction: Ratio): Micro {
  return bankrollMicro <= 0n ? 0n : applyToMicro(bankrollMicro, fraction);
}

const defaultRiskFactors = new Map<number, Ratio>();

export function riskFactorOf(state: CasinoState, agentId: string): Ratio {
  const chosen = state.riskFactors.get(agentId);
  if (chosen !== undefined) return chosen;
  const percent = state.config.kellyRiskPercentDefault;
  let factor = defaultRiskFactors.get(percent);
  if (factor === undefined) {
    factor = ratio(percent, 100);
    defaultRiskFactors.set(percent, factor);
  }
  return factor;
}

/** The largest bet `agentId` may place on this variant with `bankrollMicro`. */
export function kellyMaxBetMicro<P>(
  state: CasinoState,
  agentId: string,
  game: GameModule<P>,
  params: P,
  bankrollMicro: bigint,
): bigint {
  return limitMicro(bankrollMicro, fractionOf(variantKelly(game, params), riskFactorOf(state, agentId)));
}

const riskNumbers = new Map<number, number>();

/** kelly/risk-factor.ts `riskFactorNumber`, memoised (a bigint division per call otherwise). */
function riskNumberOf(riskFactor: Ratio): number {
  const key = riskKey(riskFactor);
  if (key < 0) return riskFactorNumber(riskFactor);
  let value = riskNumbers.get(key);
  if (value === undefined) {
    if (riskNumbers.size >= FRACTIONS_PER_VARIANT_MAX) riskNumbers.clear();
    value = riskFactorNumber(riskFactor);
    riskNumbers.set(key, value);
  }
  return value;
}

/**
 * The `kelly` object of a bet answer: kelly/kelly-view.ts `kellyBetSummary` for this agent's risk
 * factor and this variant, at `bankrollMicro` (the balance after the bet), from the memos.
 */
export function betKellySummary<P>(
  state: CasinoState,
  agentId: string,
  game: GameModule<P>,
  params: P,
  bankrollMicro: Micro,
): KellyBetSummary {
  const entry = variantKelly(game, params);
  const riskFactor = riskFactorOf(state, agentId);
  const maxMicro = limitMicro(bankrollMicro, fractionOf(entry, riskFactor));
  const ruin = betsUntilRuin(bankrollMicro, maxMicro, entry.inputs.edge);
  return {
    bankroll: toNumber(bankrollMicro),
    risk_factor: riskNumberOf(riskFactor),
    max_bet_this_game: toNumber(maxMicro),
    bets_until_ruin: ruin === null ? null : Number(ruin),
    suggested_bet: toNumber(suggestedBet(maxMicro, game)),
  };
}
