/**
 * The deployed casino's parameter echoes (spec/DEPLOYED.md §2.5): which fields of a bet's `result`
 * repeat the parameters it was played with, under which parameter name. The deployment's audit
 * answer (§2.7) carries no parameters, so the deployed scheme reads them back from here.
 *
 * One row per game (STYLE rule 6). An echo that is absent or null makes the parameters unknown
 * (null): the rule is never replayed on a batch default the bet may not have used. An echo with a
 * condition is read only when an earlier parameter has the value named (roulette's `bet_value`,
 * which only a `number` bet sends). An echo written as a string is read in lower case: every choice
 * the deployed rules take is a lower-case word (`heads`, `over`, `red`, `hit`: choiceParam), and
 * DEPLOYED.md does not fix the case of the label a result shows (`side_chosen: "HEADS"`), so the
 * case is the target's dialect; read as written, the rule could not replay the bet (not checked).
 * Non-goals: checking the values (the rule says why it cannot read them).
 */
import type { JsonObject, JsonValue } from '../../../core/errors.ts';

interface Echo {
  readonly result: string;
  readonly param: string;
  /** Read only when the parameter `[0]` (read before) is `[1]`. */
  readonly when?: readonly [param: string, value: string];
}

const same = (field: string): Echo => ({ result: field, param: field });

const ECHOES: Readonly<Record<string, readonly Echo[]>> = {
  coin_flip: [{ result: 'side_chosen', param: 'side' }],
  dice: [same('direction'), same('threshold')],
  multiplier: [same('target_multiplier')],
  crash: [same('cash_out_at')],
  roulette: [same('bet_type'), { result: 'bet_value', param: 'bet_value', when: ['bet_type', 'number'] }],
  custom: [{ result: 'win_probability_pct', param: 'win_probability' }],
  simple_dice: [same('pick')],
  blackjack: [same('action')],
  plinko: [same('rows'), same('risk')],
  slots: [],
  hilo: [same('guess')],
  keno: [same('picks')],
  scratch_card: [],
  wheel: [],
  mines: [
    { result: 'mines_count', param: 'mines' },
    { result: 'reveals_count', param: 'reveals' },
  ],
  baccarat: [same('bet_on')],
  video_poker: [same('holds')],
};

export function deployedParamsOf(game: string, result: JsonValue): JsonObject | null {
  const echoes = ECHOES[game];
  if (echoes === undefined || typeof result !== 'object' || result === null || Array.isArray(result)) return null;
  const params: JsonObject = {};
  for (const echo of echoes) {
    if (echo.when !== undefined && params[echo.when[0]] !== echo.when[1]) continue;
    const value = result[echo.result];
    if (value === undefined || value === null) return null;
    params[echo.param] = typeof value === 'string' ? value.toLowerCase() : value;
  }
  return params;
}
