/**
 * The Kelly limit on every bet (NOTES.md "Kelly limit"): the casino's side of the rule, joining
 * an agent's risk factor (PUT /kelly/config, default 0.25) and bankroll (the balance before the
 * bet) with the game variant's exact Kelly inputs (kelly/kelly-inputs.ts) through the formula in
 * kelly/kelly-limit.ts.
 *
 * Inputs are a pure function of the variant, so they are memoised per (game, variant name) in a
 * bounded map (variant names determine the distribution; the map is cleared when full).
 */
import { ratio, type Ratio } from '../../core/ratio.ts';
import type { CasinoState } from './casino-state.ts';
import type { GameModule } from './games/game.ts';
import { kellyInputs, type KellyInputs } from './kelly/kelly-inputs.ts';
import { maxBetMicro } from './kelly/kelly-limit.ts';

const INPUTS_MEMO_MAX = 4_096;
const inputsMemo = new Map<string, KellyInputs>();

export function variantInputs<P>(game: GameModule<P>, params: P): KellyInputs {
  const key = `${game.id}|${game.variantName(params)}`;
  let inputs = inputsMemo.get(key);
  if (inputs === undefined) {
    if (inputsMemo.size >= INPUTS_MEMO_MAX) inputsMemo.clear();
    inputs = kellyInputs(game.distribution(params));
    inputsMemo.set(key, inputs);
  }
  return inputs;
}

export function riskFactorOf(state: CasinoState, agentId: string): Ratio {
  return state.riskFactors.get(agentId) ?? ratio(state.config.kellyRiskPercentDefault, 100);
}

/** The largest bet `agentId` may place on this variant with `bankrollMicro`. */
export function kellyMaxBetMicro<P>(state: CasinoState, agentId: string, game: GameModule<P>, params: P, bankrollMicro: bigint): bigint {
  return maxBetMicro(bankrollMicro, riskFactorOf(state, agentId), variantInputs(game, params));
}
