/**
 * DeployedRule: one game of the deployed casino (spec/DEPLOYED.md §2.5) as data of the deployed
 * fairness scheme: how a bet's parameters and draws give its `result` fields and its total-return
 * multiplier, and the exact law of that multiplier. A rule reads the parameters as the deployment
 * does (the batch defaults of §2.6 where one is absent) and says why when it cannot replay them.
 *
 * `result` holds every field §2.5 lists, as the stand-in writes them: outcome fields, parameter
 * echoes, and the statements and labels whose form DEPLOYED.md does not fix (notes, tables, stated
 * chances and edges; the deployed scheme never compares those). A field written as null has no
 * value DEPLOYED.md fixes for that bet (roulette's `bet_value` on an outside bet).
 */
import { BoundedMemo } from '../../../core/bounded-memo.ts';
import { ZERO, ratioFromDecimal, type Ratio } from '../../../core/ratio.ts';
import type { JsonObject, JsonValue } from '../../../core/errors.ts';
import type { Chance } from '../games/game.ts';
import { hmacBytes, hmacHex, lawOfRoll, rollOfHash } from './deployed-roll.ts';

/** The draws of one bet: rolls of (client seed, nonce) pairs and raw digests, under its seed. */
export class RollSource {
  readonly seedHex: string;
  readonly clientSeed: string;
  readonly nonce: number;

  constructor(seedHex: string, clientSeed: string, nonce: number) {
    this.seedHex = seedHex;
    this.clientSeed = clientSeed;
    this.nonce = nonce;
  }

  /** The roll of `"<clientSeed>:<nonce>"` (defaults: the bet's own). */
  roll(clientSeed: string = this.clientSeed, nonce: number = this.nonce): number {
    return rollOfHash(hmacHex(this.seedHex, `${clientSeed}:${nonce}`));
  }

  digest(message: string): Buffer {
    return hmacBytes(this.seedHex, message);
  }
}

export interface DeployedPlay {
  /** Total return per unit of `amount_bet` (0 on a loss). */
  readonly multiplier: Ratio;
  /** The same as the deployment's double: its `payout_multiplier` on a win. */
  readonly multiplierNumber: number;
  /**
   * The `payout_multiplier` the deployment's answer shows (DEPLOYED.md §2.4): the multiplier of the
   * bet as placed, on a lost bet too, where the game has one (a fixed payout, hilo's, mines', a
   * blackjack action's win); absent where the answer shows the multiplier reached (keno, scratch
   * card, video poker, slots, wheel, plinko: `multiplierNumber`, 0 on a loss). Never a payment.
   */
  readonly placedNumber?: number;
  readonly result: JsonObject;
  /** Fields of `result` that are sets (compared in any order). */
  readonly unordered?: readonly string[];
  /** How far the play advances the agent's nonce counter (absent: 1). */
  readonly noncesUsed?: number;
}

/** Why a bet's parameters cannot be replayed (the deployment would refuse them, or they are absent). */
export interface Unreadable {
  readonly why: string;
}

export function isUnreadable(value: unknown): value is Unreadable {
  return typeof value === 'object' && value !== null && 'why' in value;
}

export interface DeployedRule {
  readonly game: string;
  /** Replays one bet, or says why its parameters cannot be replayed. */
  play(params: JsonObject, source: RollSource): DeployedPlay | Unreadable;
  /** The exact law of the multiplier; null for parameters the rule cannot read or a law it cannot compute. */
  law(params: JsonObject): readonly Chance[] | null;
  /** Whether `law` is non-null for these parameters, without computing it (absent: whenever they read). */
  hasLaw?(params: JsonObject): boolean;
}

/** How many doubles `decimalOf` remembers (payouts, crash points: a law reads up to 10000 of them). */
const DECIMALS_KEPT_MAX = 20_000;
const decimals = new BoundedMemo<number, Ratio>(DECIMALS_KEPT_MAX);

/**
 * A double that prints as a plain decimal ("1.99", "34.825"), as the exact decimal it prints.
 * Remembered (Ratios are immutable): a law asks for the same payout at thousands of rolls, and
 * parsing it and reducing it by a bigint gcd each time was most of a one-roll law's cost.
 */
export function decimalOf(value: number): Ratio {
  return decimals.get(value, () => ratioFromDecimal(String(value)));
}

export const isPlainDecimal = (value: number): boolean => /^\d+(\.\d+)?$/.test(String(value));

/** A number parameter in [min, max] (the batch default when absent; a plain decimal), or why not. */
export function numberParam(
  params: JsonObject,
  field: string,
  range: { min: number; max: number; fallback?: number; integer?: boolean },
): number | Unreadable {
  const value: JsonValue | undefined = params[field] ?? range.fallback;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < range.min ||
    value > range.max ||
    !isPlainDecimal(value)
  )
    return { why: `${field} must be a number from ${range.min} to ${range.max}` };
  if (range.integer === true && !Number.isInteger(value)) return { why: `${field} must be an integer` };
  return value;
}

/** A string parameter among `allowed` (the batch default when absent), or why not. */
export function choiceParam<T extends string>(
  params: JsonObject,
  field: string,
  allowed: readonly T[],
  fallback?: T,
): T | Unreadable {
  const value = params[field] ?? fallback;
  return typeof value === 'string' && (allowed as readonly string[]).includes(value)
    ? (value as T)
    : { why: `${field} must be one of ${allowed.join(', ')}` };
}

/** A play of a fixed multiplier when won (a decimal payout such as 1.99). */
export function paidIf(won: boolean, payout: number, result: JsonObject): DeployedPlay {
  return {
    multiplier: won ? decimalOf(payout) : ZERO,
    multiplierNumber: won ? payout : 0,
    placedNumber: payout,
    result,
  };
}

/**
 * A game of one roll: its parameters read once, its play a pure function of (parameters, r), and
 * its law that function over the 10000 residues with their preimage weights (deployed-roll.ts).
 */
export function oneRollRule<P>(
  game: string,
  read: (params: JsonObject) => P | Unreadable,
  outcome: (params: P, roll: number) => DeployedPlay,
): DeployedRule {
  return {
    game,
    play(params, source) {
      const parsed = read(params);
      return isUnreadable(parsed) ? parsed : outcome(parsed, source.roll());
    },
    law(params) {
      const parsed = read(params);
      return isUnreadable(parsed) ? null : lawOfRoll((roll) => outcome(parsed, roll).multiplier);
    },
  };
}
