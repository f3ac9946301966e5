/**
 * The deployed casino's fairness scheme (spec/DEPLOYED.md §2.3–§2.5) as a FairnessScheme, for all
 * 17 games: the commitment is SHA-256 of the seed's hex text; the result hash is
 * HMAC-SHA256(seed hex, "<client_seed>:<nonce>"); each game replays from rolls
 * `(parseInt(hash[0..8], 16) % 10000) / 100`, sub-draw suffixes and extra nonces
 * (src/services/casino/deployed/*.ts, the same rules the stand-in plays); payouts are the
 * PUBLISHED tables (PUBLISHED_DEPLOYED_RULES, never a stand-in's --rules file), credited as amount × multiplier unrounded and shown as
 * `amount_won` rounded to 2 decimals — so a payout is right when it is within half a cent of the
 * exact amount × multiplier (`dueMicro` is that amount rounded half up to the cent).
 *
 * Outcome: the recorded `result` fields the rule determines (deployed-rule.ts) are compared, and on
 * a paying bet the recorded `payout_multiplier` with the rule's (as field `payout_multiplier`).
 * A blackjack hand the player busts may show the dealer stopped at the bust (deployed/dealer-after-bust.ts).
 * A result lacking a determined field, with nothing else differing, is not checked rather than
 * failed (the wire lacks it). A bet whose hashes verify but whose mapping differs fails the outcome
 * or payout check only: the caller's rule finding, never "unfair".
 * Parameters: the deployment's audit answer has none; they are read back from the result's
 * parameter echoes (deployed/result-params.ts); a parlay's from its legs (deployed/parlay-legs.ts:
 * each leg's game, params, nonce and stated client seed; a leg's fields flat or nested under its
 * `result`), every leg replayed by its game's rule and compared as that game's bets are, its
 * all_won, legs_won and combined_multiplier with the rule's.
 * Variants: the documents' (document-variants.ts); video poker's is dealt, held and drawn by the audit,
 * each with an exact law (mines-rule.ts has the one work limit; no documented variant passes it).
 * Limits: laws are cached, at most LAW_CACHE_MAX of them.
 */
import { deployedShownWin } from './deployed/shown-win.ts';
import { deployedAnswerContradiction } from './deployed/answer-contradiction.ts';
import { displayRoundingMicro } from '../../core/live-amount.ts';
import { createHash } from 'node:crypto';
import { BoundedMemo } from '../../core/bounded-memo.ts';
import type { JsonObject, JsonValue } from '../../core/errors.ts';
import type { Micro } from '../../core/money.ts';
import { isZero, type Ratio } from '../../core/ratio.ts';
import type { Chance } from '../../services/casino/games/game.ts';
import {
  deployedMinimumMicro,
  PUBLISHED_DEPLOYED_RULES,
} from '../../services/casino/deployed/deployed-casino-rules.ts';
import { hmacHex } from '../../services/casino/deployed/deployed-roll.ts';
import { isUnreadable, RollSource, type DeployedPlay } from '../../services/casino/deployed/deployed-rule.ts';
import { deployedRuleTable, type DeployedRuleTable } from '../../services/casino/deployed/deployed-rule-table.ts';
import { deployedParamsOf } from './deployed/result-params.ts';
import { restateRule } from './deployed/restated-rule.ts';
import { kenoDrawStatement, measureKenoDraw, restateKeno } from './deployed/keno-draw.ts';
import { parlayLegDraws, parlayParamsOf, unstatedSeedLegs, parlayResultRead } from './deployed/parlay-legs.ts';
import { documentVariants } from './document-variants.ts';
import { compareResult, type Comparison } from './field-differences.ts';
import { statedPercent } from './stated-percent.ts';
import { dealerStoppedReading } from './deployed/dealer-after-bust.ts';
import { notChecked, OK, unreadableSeedVerdict } from './scheme-checks.ts';
import type { Check, FairnessScheme, FieldDifference, SchemeBet, SchemeGame, SchemeVerdict } from './scheme.ts';

/** Always the PUBLISHED rules: a stand-in playing other rules must fail here as a deployment that changed its rules would. */
const RULES: DeployedRuleTable = deployedRuleTable(PUBLISHED_DEPLOYED_RULES);

const CENT_MICRO = 10_000n;
export const LAW_CACHE_MAX = 128;

/**
 * Result fields that state a claim or a label, not an outcome; never compared (DEPLOYED.md §2.5
 * lists them without fixing their value or form, so a deployment's own wording or rounding must not
 * read as a wrong outcome). Every game: the advertised edge (statedEdgeOf), `win_probability`,
 * `payout_table` and the free text `note`. Per game: the labels the deployed rules choose a form for
 * (src/services/casino/deployed/*.ts), such as simple_dice's `payout_if_win` ("5.5x" in the
 * hand-worked vectors, a number elsewhere) and blackjack's `outcome` beyond the two words §2.5 names.
 * A field the rule writes as null (roulette's `bet_value` on an outside bet, mines' `hit_at_cell`
 * on a win) has no value DEPLOYED.md fixes either, and is not compared.
 */
const STATED_FIELDS: ReadonlySet<string> = new Set(['house_edge_pct', 'win_probability', 'payout_table', 'note']);
const LABEL_FIELDS: Readonly<Record<string, ReadonlySet<string>>> = {
  simple_dice: new Set(['payout_if_win']),
  roulette: new Set(['color']),
  blackjack: new Set(['outcome']),
  slots: new Set(['payline']),
  hilo: new Set(['card1_name', 'card2_name', 'result', 'payout_applied']),
  keno: new Set(['matches', 'spots_picked', 'spots_drawn', 'range']),
  scratch_card: new Set(['win_type']),
  wheel: new Set(['sector', 'wheel']),
  baccarat: new Set(['player_hand', 'banker_hand']),
};

const isCompared = (game: string, key: string, value: JsonValue | undefined): boolean =>
  value !== null && value !== undefined && !STATED_FIELDS.has(key) && LABEL_FIELDS[game]?.has(key) !== true;

const outcomeFields = (game: string, result: JsonObject): JsonObject =>
  game === 'parlay'
    ? parlayOutcomeFields(result)
    : (Object.fromEntries(Object.entries(result).filter(([key, value]) => isCompared(game, key, value))) as JsonObject);

/** A parlay's fields with each leg's own compared as its game's are (its stated and label fields left out). */
function parlayOutcomeFields(result: JsonObject): JsonObject {
  const legs = Array.isArray(result['legs']) ? result['legs'] : [];
  const compared = legs.map((leg) =>
    typeof leg === 'object' && leg !== null && !Array.isArray(leg) && typeof leg['game'] === 'string'
      ? outcomeFields(leg['game'], leg)
      : leg,
  );
  return { ...result, legs: compared };
}

/**
 * The recorded result against the rule's, or against the rule's as an honest deployment may also
 * show it (deployed/dealer-after-bust.ts: a dealer that stops at a player bust) where the answer
 * shows the rule's cards that far; otherwise the rule's own, whose differences are the evidence.
 */
function comparedOutcome(bet: SchemeBet, play: DeployedPlay): Comparison {
  // A parlay's legs may nest their game's fields under `result` (deployed/parlay-legs.ts legRecord).
  const recorded = bet.game === 'parlay' ? parlayResultRead(bet.result) : bet.result;
  const comparison = compareResult(recorded, outcomeFields(bet.game, play.result), play.unordered);
  const stopped = dealerStoppedReading(bet.game, recorded, play.result);
  if (comparison.differences.length === 0 || stopped === null) return comparison;
  const read = compareResult(recorded, outcomeFields(bet.game, stopped), play.unordered);
  return read.differences.some((difference) => difference.field.startsWith('dealer_cards')) ? comparison : read;
}

/** Why a parlay whose only differences lie in legs of unstated seeds is not checked (deployed/parlay-legs.ts). */
const UNSTATED_SEED_WHY =
  "legs that differ state no client seed, and the bet's is the default parlay_<millisecond>, which DEPLOYED.md §2.5 works out per leg: their draws cannot be replayed";

/**
 * A difference inside one of `legs` (paths `legs[1]`), or in a parlay's own fields, which its legs
 * decide (all_won, legs_won, combined_multiplier, the payout multiplier).
 */
function inLegs(difference: FieldDifference, legs: ReadonlySet<string>): boolean {
  const leg = /^legs\[\d+\]/.exec(difference.field)?.[0];
  return leg === undefined ? !difference.field.startsWith('legs[') : legs.has(leg);
}

/** A parlay whose outcome differs only in legs of unstated seeds (and the fields they decide): not replayable. */
function unreplayable(bet: SchemeBet, outcome: SchemeVerdict['outcome']): boolean {
  if (outcome.status !== 'failed' || outcome.differences === undefined || outcome.differences.length === 0)
    return false;
  const unstated = unstatedSeedLegs(bet);
  return unstated.size > 0 && outcome.differences.every((difference) => inLegs(difference, unstated));
}

function outcomeCheck(bet: SchemeBet, play: DeployedPlay): SchemeVerdict['outcome'] {
  const comparison = comparedOutcome(bet, play);
  const differences: FieldDifference[] = [...comparison.differences];
  if (!isZero(play.multiplier) && bet.multiplier !== null && bet.multiplier !== play.multiplierNumber) {
    differences.push({ field: 'payout_multiplier', recorded: bet.multiplier, recomputed: play.multiplierNumber });
  }
  // A lost bet shows the multiplier it was placed at (DEPLOYED.md §2.4): one the rule would not
  // place is the target's payout table speaking without a win (restated-rule.ts reads it).
  const placed = play.placedNumber;
  if (isZero(play.multiplier) && placed !== undefined && bet.multiplier !== null && bet.multiplier !== 0)
    if (bet.multiplier !== placed)
      differences.push({ field: 'payout_multiplier', recorded: bet.multiplier, recomputed: placed });
  const lacking = comparison.missing.length === 0 ? '' : `; the result lacks ${comparison.missing.join(', ')}`;
  if (differences.length > 0)
    return {
      status: 'failed',
      detail: `${differences.length} field(s) differ from the deployed rule${lacking}`,
      differences,
    };
  return comparison.missing.length > 0 ? notChecked(`the result lacks ${comparison.missing.join(', ')}`) : OK;
}

/**
 * Paid within half a cent of amount × multiplier (the answer rounds `amount_won` to 2 decimals), or
 * within half a unit of the fewer places the paid figure shows: a target rounding to 1 or 0 places
 * (measured per figure, core/live-amount.ts displayRoundingMicro) is not called wrong by the 2.
 */
function payoutCheck(bet: SchemeBet, multiplier: Ratio): SchemeVerdict['payout'] {
  const exact = bet.amountMicro * multiplier.num;
  const dueMicro: Micro =
    ((2n * exact + CENT_MICRO * multiplier.den) / (2n * CENT_MICRO * multiplier.den)) * CENT_MICRO;
  if (bet.paidMicro === null) return notChecked('the answer does not say the amount paid');
  const gap = bet.paidMicro * multiplier.den - exact;
  const within = (gap < 0n ? -gap : gap) <= displayRoundingMicro(bet.paidMicro, 2) * multiplier.den;
  return within
    ? { status: 'ok', dueMicro }
    : {
        status: 'failed',
        detail: `paid ${bet.paidMicro} micro, due ${exact}/${multiplier.den} micro (amount × the rule's multiplier; the shown figure's rounding allowed, 2 decimals at most)`,
        dueMicro,
      };
}

/** A bet against a rule table: the published one (verify), or a rule its answers state (restated-rule.ts). */
function verifyBy(table: DeployedRuleTable, bet: SchemeBet, serverSeedHex: string): SchemeVerdict {
  const unreadable = unreadableSeedVerdict(serverSeedHex);
  if (unreadable !== null) return unreadable;
  const seedHash = createHash('sha256').update(serverSeedHex).digest('hex');
  const commitment: Check = seedHash === bet.seedHash ? OK : { status: 'failed', detail: seedHash };
  const expectedHash = hmacHex(serverSeedHex, `${bet.clientSeed}:${bet.nonce}`);
  // A parlay is stored as one bet of nonce 0 over legs of their own nonces (DEPLOYED.md line 104),
  // and the documents do not say what it stores as its result hash: not judged (its legs are,
  // each against its own draw), lest a deployment storing another be called a forger.
  const resultHash: Check =
    bet.game === 'parlay'
      ? notChecked('DEPLOYED.md does not say what a parlay stores as its result hash; its legs are verified one by one')
      : expectedHash === bet.resultHash
        ? OK
        : { status: 'failed', detail: expectedHash };
  const rule = table.get(bet.game);
  const play =
    rule === undefined
      ? { why: `the deployed scheme has no rule for game '${bet.game}'` }
      : rule.play(bet.params, new RollSource(serverSeedHex, bet.clientSeed, bet.nonce));
  if (isUnreadable(play))
    return { commitment, resultHash, outcome: notChecked(play.why), payout: notChecked(play.why), multiplier: null };
  const outcome = outcomeCheck(bet, play);
  // Legs that cannot be replayed leave the outcome and the payout the rule's replay gives unknown.
  if (unreplayable(bet, outcome))
    return {
      commitment,
      resultHash,
      outcome: notChecked(UNSTATED_SEED_WHY),
      payout: notChecked(UNSTATED_SEED_WHY),
      multiplier: null,
    };
  return { commitment, resultHash, outcome, payout: payoutCheck(bet, play.multiplier), multiplier: play.multiplier };
}

const verify = (bet: SchemeBet, serverSeedHex: string): SchemeVerdict => verifyBy(RULES, bet, serverSeedHex);

const laws = new BoundedMemo<string, readonly Chance[] | null>(LAW_CACHE_MAX);

function law(game: string, params: JsonObject): readonly Chance[] | null {
  return laws.get(`${game} ${JSON.stringify(params)}`, () => RULES.get(game)?.law(params) ?? null);
}

/** The documents' variants; video poker's is played deal-then-draw by the auditor's choice of holds (no law: the deployment publishes no strategy). */
function games(): readonly SchemeGame[] {
  return documentVariants();
}

/** The result fields the deployed rules write that state a payout (deployed/*.ts), per game. */
const PAYOUT_FIELDS: Readonly<Record<string, readonly string[]>> = {
  custom: ['payout_multiplier'],
  keno: ['payout_multiplier', 'payout_table'],
  scratch_card: ['payout_multiplier', 'payout_table'],
  plinko: ['multiplier'],
  slots: ['multiplier'],
  wheel: ['multiplier', 'won'],
  mines: ['payout_on_win'],
  video_poker: ['payout_multiplier', 'payout_table'],
};

function payoutFields(game: string): readonly string[] {
  return PAYOUT_FIELDS[game] ?? [];
}

/**
 * The result fields a deployed payout rule derives from the draw, per game: the crash point of
 * crash and multiplier is the roll (a result field of its own) through the game's edge factor, and
 * whether a crash bet cashed out follows from it.
 */
const RULE_FIELDS: Readonly<Record<string, readonly string[]>> = {
  crash: ['crash_point', 'cashed_out'],
  multiplier: ['crash_point'],
};

function ruleFields(game: string): readonly string[] {
  return RULE_FIELDS[game] ?? [];
}

/** `house_edge_pct` of a result (wheel, simple_dice, hilo in DEPLOYED.md §2.5), in percent on the wire: a number or its text, "%" or not (stated-percent.ts). */
function statedEdgeOf(_game: string, result: JsonValue): number | null {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return null;
  const pct = statedPercent(result['house_edge_pct'])?.percent ?? null;
  return pct !== null && pct > -1_000 && pct < 1_000 ? pct / 100 : null;
}

/** `win_probability` of a result (dice, multiplier, crash, roulette, blackjack, mines in §2.5): a fraction on the wire. */
function statedChanceOf(_game: string, result: JsonValue): number | null {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return null;
  const chance = result['win_probability'];
  return typeof chance === 'number' && Number.isFinite(chance) && chance >= 0 && chance <= 1 ? chance : null;
}

/**
 * The choices one game-level `house_edge_pct` speaks for (DEPLOYED.md §2.5): simple_dice's six
 * picks, whose edges differ under `(floor(r) % 6) + 1` (picks 1–4 hit 17 in 100, 5–6 16) while
 * its answers state one figure; hilo's two guesses.
 */
const GAME_CHOICES: Readonly<Record<string, readonly JsonObject[]>> = {
  simple_dice: [1, 2, 3, 4, 5, 6].map((pick) => ({ pick })),
  hilo: [{ guess: 'higher' }, { guess: 'lower' }],
};

function gameChoices(game: string): readonly JsonObject[] {
  return GAME_CHOICES[game] ?? [];
}

/** The games whose rule writes the draw itself as `roll` (round2 of r, DEPLOYED.md §2.5). */
const ROLL_GAMES: ReadonlySet<string> = new Set([
  'coin_flip',
  'dice',
  'multiplier',
  'crash',
  'roulette',
  'custom',
  'blackjack',
]);

function drawFields(game: string): readonly string[] {
  return ROLL_GAMES.has(game) ? ['roll'] : [];
}

export const DEPLOYED_SCHEME: FairnessScheme = {
  name: 'deployed',
  games,
  verify,
  law,
  paramsOf: (game, result) => (game === 'parlay' ? parlayParamsOf(result) : deployedParamsOf(game, result)),
  payoutFields,
  ruleFields,
  statedEdgeOf,
  statedChanceOf,
  gameChoices,
  drawFields,
  restate: (game, params, kept, gameKept) =>
    game === 'keno' ? restateKeno(params, kept, measureKenoDraw(gameKept)) : restateRule(game, params, kept, verifyBy),
  measureDraw: (game, gameKept) => (game === 'keno' ? kenoDrawStatement(measureKenoDraw(gameKept)) : null),
  legsOf: parlayLegDraws,
  shownWin: deployedShownWin,
  answerContradiction: (bet) => deployedAnswerContradiction(bet.game, bet.result, bet),
  // A number's colour and the bets it wins are the wheel's, whatever the encoding ("00" is left unread).
  encodingFreeGames: new Set(['roulette']),
  // DEPLOYED.md §2.4: one published minimum for every game (0.01), whole micro-USDC.
  publishedMinimumMicro: deployedMinimumMicro(PUBLISHED_DEPLOYED_RULES),
};

/** Whether the deployed scheme has an exact law for these parameters, without computing it. */
export function deployedHasLaw(game: string, params: JsonObject): boolean {
  const rule = RULES.get(game);
  return rule !== undefined && (rule.hasLaw?.(params) ?? true);
}
