/**
 * The deployed casino's parlay (spec/DEPLOYED.md §2.5) as a DeployedRule: `bets` of 2 to 5 legs
 * `{ game, params }`, each a coin flip, dice, simple dice or multiplier leg played by that game's own
 * deployed rule on its own nonce; the parlay pays only when every leg wins, its multiplier
 * `round2(Π payout_i × 0.90)` over each leg's payout if won (coin flip 1.99, simple dice 5.5, dice
 * round4((1/p) × edge), multiplier its target, as the rules value gives them).
 *
 * Draws: leg i reads `"<client seed>:<nonce>"` where the client seed is the leg's own
 * `params.client_seed`, else the `client_seed` a verified leg's record states (the default its
 * target worked out; audit/fairness/deployed/parlay-legs.ts: never sent by a player, the route
 * passes only `{ game, params }`), else the bet's (the stand-in's default `parlay_<ms>`), and the nonce is the
 * leg's recorded `nonce`, else the bet's nonce + i. A placed parlay hands its first taken nonce in and
 * records every leg's nonce; a verification reads the recorded nonces back (the stored bet's own
 * nonce is 0, DEPLOYED.md: it draws nothing).
 * Leg results: the leg's rule's `result` fields as the single game writes them, with `game`,
 * `params`, `nonce` and `won` beside them. Simple dice legs may name the pick `guess` (§2.5).
 * Law: the legs draw independent words, so P(all win) is the product of each leg's win chance, and
 * the multiplier is the one combined figure or 0.
 * Non-goals: nested parlays; any game outside the four.
 */
import type { JsonObject, JsonValue } from '../../../core/errors.ts';
import { add, isZero, mul, ONE, sub, ZERO, type Ratio } from '../../../core/ratio.ts';
import type { Chance } from '../games/game.ts';
import type { DeployedGameRules } from './deployed-casino-rules.ts';
import { round2, round4 } from './deployed-roll.ts';
import { decimalOf, isUnreadable, RollSource, type DeployedRule, type Unreadable } from './deployed-rule.ts';

export const PARLAY_LEG_GAMES: readonly string[] = ['coin_flip', 'dice', 'simple_dice', 'multiplier'];
export const PARLAY_LEGS_MIN = 2;
export const PARLAY_LEGS_MAX = 5;
/** The house's share of a parlay: the product of the legs' payouts times this (DEPLOYED.md §2.5). */
export const PARLAY_FACTOR = 0.9;

export interface ParlayLeg {
  readonly game: string;
  readonly params: JsonObject;
  /** The leg's nonce where recorded (a verification), else null (the bet's nonce + its index). */
  readonly nonce: number | null;
  /** The client seed the leg's record states (a verification), else null. */
  readonly statedClientSeed: string | null;
}

const isObject = (value: JsonValue | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The legs of a parlay's parameters, or why they cannot be played. */
export function parlayLegs(params: JsonObject): ParlayLeg[] | Unreadable {
  const bets = params['bets'];
  if (!Array.isArray(bets) || bets.length < PARLAY_LEGS_MIN || bets.length > PARLAY_LEGS_MAX)
    return { why: `bets must be an array of ${PARLAY_LEGS_MIN} to ${PARLAY_LEGS_MAX} legs` };
  const legs: ParlayLeg[] = [];
  for (const [index, bet] of bets.entries()) {
    if (!isObject(bet)) return { why: `bets[${index}] must be an object { game, params }` };
    const game = bet['game'];
    if (typeof game !== 'string' || !PARLAY_LEG_GAMES.includes(game))
      return { why: `bets[${index}].game must be one of ${PARLAY_LEG_GAMES.join(', ')}` };
    const legParams = bet['params'] ?? {};
    if (!isObject(legParams)) return { why: `bets[${index}].params must be an object` };
    const nonce = bet['nonce'];
    if (nonce !== undefined && (typeof nonce !== 'number' || !Number.isSafeInteger(nonce) || nonce < 0))
      return { why: `bets[${index}].nonce must be a non-negative integer` };
    const stated = bet['client_seed'];
    if (stated !== undefined && (typeof stated !== 'string' || stated === ''))
      return { why: `bets[${index}].client_seed must be a non-empty string` };
    legs.push({ game, params: legParams, nonce: nonce ?? null, statedClientSeed: stated ?? null });
  }
  return legs;
}

/** The parameters the leg's own rule reads (a simple dice `guess` is its pick). */
function ruleParams(leg: ParlayLeg): JsonObject {
  if (leg.game !== 'simple_dice' || leg.params['pick'] !== undefined || leg.params['guess'] === undefined)
    return leg.params;
  return { ...leg.params, pick: leg.params['guess'] };
}

type LegRules = Pick<DeployedGameRules, 'coin_flip' | 'dice' | 'simple_dice' | 'multiplier'>;

/** What a leg pays if it wins, as the deployment's double (null where its parameters do not read). */
function payoutIfWon(rules: LegRules, leg: ParlayLeg): number | null {
  const params = ruleParams(leg);
  switch (leg.game) {
    case 'coin_flip':
      return rules.coin_flip.payout;
    case 'simple_dice':
      return rules.simple_dice.payout;
    case 'multiplier': {
      const target = params['target_multiplier'] ?? 2;
      return typeof target === 'number' ? target : null;
    }
    case 'dice': {
      const threshold = params['threshold'] ?? 50;
      if (typeof threshold !== 'number') return null;
      const p = params['direction'] === 'under' ? threshold / 100 : (100 - threshold) / 100;
      return round4((1 / p) * rules.dice.edgeFactor);
    }
    default:
      return null;
  }
}

/** The combined multiplier `round2(Π payout_i × 0.90)`, as the deployment's double. */
export function combinedMultiplierOf(payouts: readonly number[]): number {
  return round2(payouts.reduce((product, payout) => product * payout, 1) * PARLAY_FACTOR);
}

/** The chance a leg's law pays anything. */
const winChance = (law: readonly Chance[]): Ratio =>
  law.reduce((total, [probability, multiplier]) => (isZero(multiplier) ? total : add(total, probability)), ZERO);

export function parlayRule(rules: LegRules, ruleOf: (game: string) => DeployedRule | undefined): DeployedRule {
  return {
    game: 'parlay',
    play(params, source) {
      const legs = parlayLegs(params);
      if (isUnreadable(legs)) return legs;
      const results: JsonObject[] = [];
      const payouts: number[] = [];
      for (const [index, leg] of legs.entries()) {
        const rule = ruleOf(leg.game);
        const payout = payoutIfWon(rules, leg);
        if (rule === undefined || payout === null) return { why: `bets[${index}] cannot be played` };
        const own = leg.params['client_seed'];
        const clientSeed = typeof own === 'string' ? own : (leg.statedClientSeed ?? source.clientSeed);
        const nonce = leg.nonce ?? source.nonce + index;
        const play = rule.play(ruleParams(leg), new RollSource(source.seedHex, clientSeed, nonce));
        if (isUnreadable(play)) return { why: `bets[${index}]: ${play.why}` };
        payouts.push(payout);
        results.push({ game: leg.game, params: leg.params, nonce, ...play.result, won: !isZero(play.multiplier) });
      }
      const legsWon = results.filter((leg) => leg['won'] === true).length;
      const allWon = legsWon === legs.length;
      const combined = combinedMultiplierOf(payouts);
      return {
        multiplier: allWon ? decimalOf(combined) : ZERO,
        multiplierNumber: allWon ? combined : 0,
        result: { legs: results, all_won: allWon, legs_won: legsWon, combined_multiplier: combined },
        noncesUsed: legs.length,
      };
    },
    law(params) {
      const legs = parlayLegs(params);
      if (isUnreadable(legs)) return null;
      let allWin: Ratio = ONE;
      const payouts: number[] = [];
      for (const leg of legs) {
        const law = ruleOf(leg.game)?.law(ruleParams(leg)) ?? null;
        const payout = payoutIfWon(rules, leg);
        if (law === null || payout === null) return null;
        allWin = mul(allWin, winChance(law));
        payouts.push(payout);
      }
      return [
        [allWin, decimalOf(combinedMultiplierOf(payouts))],
        [sub(ONE, allWin), ZERO],
      ];
    },
  };
}
