/**
 * Readers for the numeric and game fields of the Kelly request bodies (POST /kelly/optimal,
 * POST /kelly/simulate), so the route rows stay thin. Each returns the value or a 400
 * BAD_REQUEST Failure naming the field; nothing throws.
 *
 * The allowed body keys depend on the game (its `paramFields`), so the unknown-key check lives
 * here rather than in the route; the game parses only its own fields, and a body with none of them
 * asks of the game's default variant (its first, as GET /kelly/limits lists it). Amounts are style-A JSON numbers read exactly (money.ts).
 * Besides the 17 game ids, `game` accepts the real platform's Kelly names `dice_over` and
 * `dice_under` (dice with that direction; only `threshold` then), which its clients send.
 * Non-goal: HTTP (src/http/validate.ts is the route layer's; the domain does not import it).
 */
import { fail, succeed, type Failure, type Outcome } from '../../../core/errors.ts';
import { parseNumber, type Micro } from '../../../core/money.ts';
import { positiveAmount } from '../../../core/positive-amount.ts';
import { GAME_IDS, type Chance, type GameId, type GameModule } from '../games/game.ts';

type Fields = Readonly<Record<string, unknown>>;
/** The game registry's lookup (games/index.ts `gameById`), injected so tests can use fixtures. */
export type GameLookup = (id: string) => GameModule | undefined;

export interface SelectedGame {
  readonly game: GameModule;
  readonly params: unknown;
  /** The variant key (game.ts `variantName`), e.g. "dice:over:90". */
  readonly variant: string;
  readonly distribution: readonly Chance[];
}

interface GameAlias {
  readonly id: GameId;
  readonly fixed: Fields;
  readonly fields: readonly string[];
}

export const GAME_ALIASES: Readonly<Record<string, GameAlias>> = {
  dice_over: { id: 'dice', fixed: { direction: 'over' }, fields: ['threshold'] },
  dice_under: { id: 'dice', fixed: { direction: 'under' }, fields: ['threshold'] },
};

/** The body as an object (a missing body reads as `{}`); an Outcome, as a body may hold any key. */
export function kellyFieldsOf(body: unknown): Outcome<Fields> {
  if (body === undefined || body === null) return succeed({});
  if (typeof body !== 'object' || Array.isArray(body)) return fail('BAD_REQUEST', 'request body must be a JSON object');
  return succeed(body as Fields);
}

/** `game` plus its parameters; every key outside `ownKeys` and the game's fields is refused. */
export function selectGame(fields: Fields, ownKeys: readonly string[], lookup: GameLookup): SelectedGame | Failure {
  const name = fields['game'];
  const alias = typeof name === 'string' && Object.hasOwn(GAME_ALIASES, name) ? GAME_ALIASES[name] : undefined;
  const id = alias?.id ?? name;
  if (typeof id !== 'string' || !(GAME_IDS as readonly string[]).includes(id)) {
    return fail('BAD_REQUEST', `game must be one of: ${[...GAME_IDS, ...Object.keys(GAME_ALIASES)].join(', ')}`);
  }
  const game = lookup(id);
  if (game === undefined) return fail('BAD_REQUEST', `game ${id} is not available`);
  const gameKeys = alias?.fields ?? game.paramFields;
  const unknown = Object.keys(fields).filter(
    (key) => key !== 'game' && !ownKeys.includes(key) && !gameKeys.includes(key),
  );
  if (unknown.length > 0)
    return fail('BAD_REQUEST', `unknown field${unknown.length > 1 ? 's' : ''}: ${unknown.sort().join(', ')}`);
  // The game parses its own fields only: a strict game refuses `game`, `bankroll` and the like.
  const gameFields = Object.fromEntries(Object.entries(fields).filter(([key]) => gameKeys.includes(key)));
  if (alias === undefined && Object.keys(gameFields).length === 0) {
    // A body without the game's parameters (NOTES.md's simulate body has none) asks of the game's
    // default variant, the first GET /kelly/limits lists.
    const variant = game.variants()[0];
    if (variant !== undefined)
      return { game, params: variant.params, variant: variant.name, distribution: game.distribution(variant.params) };
  }
  const parsed = game.parse(alias === undefined ? gameFields : { ...gameFields, ...alias.fixed });
  if (!parsed.ok) return parsed;
  return {
    game,
    params: parsed.value,
    variant: game.variantName(parsed.value),
    distribution: game.distribution(parsed.value),
  };
}

/** A positive amount of USDC as a JSON number, exact to the micro; undefined when absent. */
export function optionalAmount(fields: Fields, name: string): Micro | undefined | Failure {
  const value = fields[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number') return fail('BAD_REQUEST', `${name} must be a number`);
  return positiveAmount(parseNumber(value), name);
}

export function requiredAmountField(fields: Fields, name: string): Micro | Failure {
  const amount = optionalAmount(fields, name);
  return amount === undefined ? fail('BAD_REQUEST', `${name} is required`) : amount;
}

/** A whole JSON number in [min, max]; undefined when absent. */
export function optionalIntegerField(
  fields: Fields,
  name: string,
  min: number,
  max: number,
): number | undefined | Failure {
  const value = fields[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    return fail('BAD_REQUEST', `${name} must be a whole number from ${min} to ${max}`);
  }
  return value;
}

export function requiredInteger(fields: Fields, name: string, min: number, max: number): number | Failure {
  const value = optionalIntegerField(fields, name, min, max);
  return value === undefined ? fail('BAD_REQUEST', `${name} is required`) : value;
}

export const SEED_LENGTH_MAX = 128;

/** A seed: a non-empty string of at most 128 characters, or a non-negative whole number. */
export function optionalSeed(fields: Fields, name: string): string | undefined | Failure {
  const value = fields[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  if (typeof value === 'string' && value.length > 0 && value.length <= SEED_LENGTH_MAX) return value;
  return fail(
    'BAD_REQUEST',
    `${name} must be a string of 1 to ${SEED_LENGTH_MAX} characters or a non-negative whole number`,
  );
}
