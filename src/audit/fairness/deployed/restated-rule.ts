/**
 * A deployed game's rule re-derived from what its answers state (issue 68 part 3: measure from
 * everything the answers state). Why: a target that changed a payout knob shows it on every
 * answer, won or lost. Dice at an edge factor of 0.97 shows `payout_multiplier: 9.7` on every bet of
 * under 10, lost ones too; crash at a factor of 0.96 states `win_probability` 0.96 / target and a
 * crash point the roll gives under 0.96. An audit that waits for wins to learn a payout recites the
 * published edge (10.450%) where all 22 bets lost; one that cannot explain a moved crash point
 * measures an empirical edge of 9–55% with no interval. Read from the answers, each is one rule,
 * checked against every bet, with an exact law.
 *
 * Candidates, from the first STATEMENTS_MAX bets (each a knob of DEPLOYED.md §2.5's table):
 *   - edge factor (dice, custom, mines, hilo, multiplier, crash): the published factor scaled by
 *     the shown multiplier over the one the published rule places, and, where an answer states
 *     `win_probability` and a target (crash, multiplier), that chance × the target;
 *   - a fixed payout (coin flip, simple dice, roulette's bet classes, baccarat's sides): the shown
 *     multiplier itself.
 * Each is rounded to 4 and to 3 places (the deployment writes plain decimals). A candidate is the
 * rule only where EVERY bet kept replays under it: outcome fields, the shown multiplier (won or
 * lost) and the credit (`verifyBy`, the scheme's own check). Never a guess: no candidate that every
 * bet follows, no restated rule. Limits: STATEMENTS_MAX bets read for candidates, CANDIDATES_MAX
 * candidates tried, each against at most the bets the caller kept.
 */
import type { JsonObject } from '../../../core/errors.ts';
import {
  PUBLISHED_DEPLOYED_RULES,
  withRuleOverrides,
} from '../../../services/casino/deployed/deployed-casino-rules.ts';
import { deployedRuleTable, type DeployedRuleTable } from '../../../services/casino/deployed/deployed-rule-table.ts';
import { isUnreadable, RollSource } from '../../../services/casino/deployed/deployed-rule.ts';
import type { KeptBet, RestatedRule, SchemeBet, SchemeVerdict } from '../scheme.ts';

const STATEMENTS_MAX = 8;
const CANDIDATES_MAX = 12;

type VerifyBy = (table: DeployedRuleTable, bet: SchemeBet, serverSeedHex: string) => SchemeVerdict;

interface Candidate {
  readonly knob: Record<string, number>;
  readonly text: string;
}

const PUBLISHED = PUBLISHED_DEPLOYED_RULES.casino;
/** The games whose payouts follow one edge factor, and its published value. */
const FACTORS: ReadonlyMap<string, number> = new Map([
  ['dice', PUBLISHED.dice.edgeFactor],
  ['custom', PUBLISHED.custom.edgeFactor],
  ['mines', PUBLISHED.mines.edgeFactor],
  ['hilo', PUBLISHED.hilo.edgeFactor],
  ['multiplier', PUBLISHED.multiplier.edgeFactor],
  ['crash', PUBLISHED.crash.edgeFactor],
]);

/** The payout knob of a fixed-payout game's variant (roulette by bet class, baccarat by side); null if none. */
function payoutKnob(game: string, params: JsonObject): string | null {
  if (game === 'coin_flip' || game === 'simple_dice') return 'payout';
  if (game === 'baccarat') return typeof params['bet_on'] === 'string' ? params['bet_on'] : null;
  if (game !== 'roulette' || typeof params['bet_type'] !== 'string') return null;
  const type = params['bet_type'];
  if (type === 'number') return 'number';
  return /^(dozen|column)_/.test(type) ? 'dozenColumn' : 'evenMoney';
}

/** A knob as a rules file names it (deployed-rules-schema.ts). */
const KNOB_NAMES: Readonly<Record<string, string>> = {
  edgeFactor: 'edge_factor',
  payout: 'payout',
  evenMoney: 'even_money payout',
  dozenColumn: 'dozen_column payout',
  number: 'number payout',
};

const rounded = (value: number, places: number): number => Math.round(value * 10 ** places) / 10 ** places;

/** The multiplier the published rule places on this bet (its payout_multiplier, won or lost); null where it shows none. */
function publishedPlaced(bet: SchemeBet, seedHex: string): number | null {
  const rule = deployedRuleTable(PUBLISHED_DEPLOYED_RULES).get(bet.game);
  const play = rule?.play(bet.params, new RollSource(seedHex, bet.clientSeed, bet.nonce));
  if (play === undefined || isUnreadable(play)) return null;
  return play.placedNumber ?? (play.multiplierNumber > 0 ? play.multiplierNumber : null);
}

/** What one bet's answer says a knob is. */
function statedValues(game: string, replay: KeptBet): Array<{ readonly knob: string; readonly value: number }> {
  const { bet, seedHex } = replay;
  const values: Array<{ knob: string; value: number }> = [];
  const shown = bet.multiplier;
  const factor = FACTORS.get(game);
  if (factor !== undefined) {
    const placed = publishedPlaced(bet, seedHex);
    if (shown !== null && shown > 0 && placed !== null && placed > 0)
      values.push({ knob: 'edgeFactor', value: (factor * shown) / placed });
    const result = bet.result;
    const target = bet.params['target_multiplier'] ?? bet.params['cash_out_at'];
    const chance =
      typeof result === 'object' && result !== null && !Array.isArray(result) ? result['win_probability'] : null;
    if (typeof chance === 'number' && typeof target === 'number')
      values.push({ knob: 'edgeFactor', value: chance * target });
    return values;
  }
  const knob = payoutKnob(game, bet.params);
  if (knob !== null && shown !== null && shown > 0) values.push({ knob, value: shown });
  return values;
}

function candidatesOf(game: string, replays: readonly KeptBet[]): Candidate[] {
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  for (const replay of replays.slice(0, STATEMENTS_MAX))
    for (const { knob, value } of statedValues(game, replay))
      for (const places of [4, 3]) {
        const at = rounded(value, places);
        const key = `${knob}=${at}`;
        if (!(at > 0) || seen.has(key) || candidates.length >= CANDIDATES_MAX) continue;
        seen.add(key);
        candidates.push({
          knob: { [knob]: at },
          text: `${game} ${KNOB_NAMES[knob] ?? `${knob} payout`} ${at}`,
        });
      }
  return candidates;
}

const followed = (verdict: SchemeVerdict): boolean =>
  verdict.outcome.status === 'ok' && verdict.payout.status !== 'failed';

/** The one rule the answers state that every kept bet follows, with its law; null where none does. */
export function restateRule(
  game: string,
  params: JsonObject,
  replays: readonly KeptBet[],
  verifyBy: VerifyBy,
): RestatedRule | null {
  if (replays.length === 0) return null;
  for (const candidate of candidatesOf(game, replays)) {
    const rules = withRuleOverrides(PUBLISHED_DEPLOYED_RULES, { casino: { [game]: candidate.knob } });
    const table = deployedRuleTable(rules);
    if (!replays.every((replay) => followed(verifyBy(table, replay.bet, replay.seedHex)))) continue;
    const law = table.get(game)?.law(params) ?? null;
    if (law !== null) return { law, text: candidate.text, bets: replays.length };
  }
  return null;
}
