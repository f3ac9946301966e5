/**
 * POST /kelly/optimal: the Kelly record of one game variant for the caller.
 *
 * Body (casino.md: not shown; afp's choice, a superset of the real platform's):
 *   { game, ...the game's parameters, risk_factor?, bankroll? }
 * `game` is a game id (or dice_over / dice_under, kelly-fields.ts); the parameters are the
 * game's own body fields (dice: direction, threshold; custom: win_probability; ...), validated
 * by the game module. `risk_factor` (0.1..1.0) is a what-if that is NOT stored (PUT /kelly/config
 * stores); `bankroll` (a positive amount) is a what-if too; both default to the agent's own.
 * Answer: { bankroll, game, variant, win_probability, payout_multiplier, risk_factor, ...the
 * limit record (kelly-view.ts) }, where win_probability and payout_multiplier are the Kelly
 * inputs p and E[m | m > 1] of kelly-inputs.ts.
 */
import type { Failure, JsonObject } from '../../../core/errors.ts';
import { toNumber, type Micro } from '../../../core/money.ts';
import type { Ratio } from '../../../core/ratio.ts';
import { kellyFieldsOf, optionalAmount, selectGame, type GameLookup, type SelectedGame } from './kelly-fields.ts';
import { kellyMeasures } from './kelly-measures.ts';
import { fixedNumber } from './kelly-numbers.ts';
import { kellyLimitRecord } from './kelly-view.ts';
import { parseRiskFactor, riskFactorNumber } from './risk-factor.ts';

export const OPTIMAL_OWN_KEYS: readonly string[] = ['risk_factor', 'bankroll'];

export interface OptimalRequest {
  readonly selected: SelectedGame;
  /** Absent: the agent's stored risk factor. */
  readonly riskFactor: Ratio | undefined;
  /** Absent: the agent's balance. */
  readonly bankrollMicro: Micro | undefined;
}

export function parseOptimalRequest(body: unknown, lookup: GameLookup): OptimalRequest | Failure {
  const read = kellyFieldsOf(body);
  if (!read.ok) return read;
  const fields = read.value;
  const selected = selectGame(fields, OPTIMAL_OWN_KEYS, lookup);
  if ('ok' in selected) return selected;
  const riskFactor = fields['risk_factor'] === undefined ? undefined : parseRiskFactor(fields['risk_factor']);
  if (riskFactor !== undefined && 'ok' in riskFactor) return riskFactor;
  const bankrollMicro = optionalAmount(fields, 'bankroll');
  if (typeof bankrollMicro === 'object') return bankrollMicro;
  return { selected, riskFactor, bankrollMicro };
}

export interface AgentKelly {
  readonly balanceMicro: Micro;
  readonly riskFactor: Ratio;
}

export function kellyOptimalView(request: OptimalRequest, agent: AgentKelly): JsonObject {
  const bankrollMicro = request.bankrollMicro ?? agent.balanceMicro;
  const riskFactor = request.riskFactor ?? agent.riskFactor;
  const { game, variant, distribution } = request.selected;
  const measures = kellyMeasures({ bankrollMicro, riskFactor, distribution, bounds: game });
  return {
    bankroll: toNumber(bankrollMicro),
    game: game.id,
    variant,
    win_probability: fixedNumber(measures.inputs.winProbability),
    payout_multiplier: fixedNumber(measures.inputs.payout),
    risk_factor: riskFactorNumber(riskFactor),
    ...kellyLimitRecord(measures),
  };
}
