/**
 * Parsing a casino bet body, for every route that places bets (the 16 single-game rows, batch
 * elements, style B, tournament play): the amount (style A: a JSON number; style B: a number or a
 * decimal string), the optional client seed, and the game's own parameters, with every other
 * field refused. The game parses its parameters itself (games/params.ts); the domain checks
 * (minimum, maximum, balance, Kelly) run later in placeBet.
 * Hot path (every bet): the unknown-key check builds no key list unless it fails, accepted JSON
 * number amounts are memoised (bounded), parameters are copied by jsonCopy (structuredClone's
 * copy, faster): the answers are those of the plain reading, as a pinned test shows.
 */
import { fail, isFailure, type Failure, type JsonObject, type JsonValue, type Outcome } from '../../core/errors.ts';
import type { Micro } from '../../core/money.ts';
import type { GameModule } from '../../services/casino/games/game.ts';
import { CLIENT_SEED_PATTERN } from '../../services/casino/place-bet.ts';
import { requiredAmount, type AmountSyntax, type Fields } from '../validate.ts';
import { jsonCopy } from './casino-json-copy.ts';

export interface ParsedBet {
  readonly game: GameModule;
  readonly params: unknown;
  readonly paramsJson: JsonObject;
  readonly amountMicro: Micro;
  readonly clientSeed: string | null;
}

const BET_KEYS = ['amount', 'client_seed'];
const NO_EXTRA_KEYS: readonly string[] = [];

const known = (key: string, game: GameModule, extraKeys: readonly string[]): boolean => BET_KEYS.includes(key) || extraKeys.includes(key) || game.paramFields.includes(key);

/** Whether every key `Object.keys(fields)` lists is known, without building that list (every bet). */
function allKnown(fields: Fields, game: GameModule, extraKeys: readonly string[]): boolean {
  for (const key in fields) if (Object.hasOwn(fields, key) && !known(key, game, extraKeys)) return false;
  return true;
}

/** Accepted amounts as sent (JSON numbers; decimal strings where the syntax allows them), read once: bets repeat a handful of amounts. */
const AMOUNTS_MEMO_MAX = 1_024;
const numberAmounts = new Map<number, Micro>();
const textAmounts = new Map<string, Micro>();

/**
 * validate.ts `requiredAmount(fields, 'amount', syntax)`, memoised: an amount accepted before is
 * not read again. Only accepted amounts are kept (a failure is a fresh object per answer); a JSON
 * number reads alike in both syntaxes, a string is looked up only where strings are accepted.
 */
export function amountField(fields: Fields, syntax: AmountSyntax): Micro | Failure {
  const value = fields['amount'];
  const memo = typeof value === 'number' ? numberAmounts : typeof value === 'string' && syntax === 'number-or-decimal-string' ? textAmounts : null;
  if (memo === null) return requiredAmount(fields, 'amount', syntax);
  const known = (memo as Map<unknown, Micro>).get(value);
  if (known !== undefined) return known;
  const amountMicro = requiredAmount(fields, 'amount', syntax);
  if (!isFailure(amountMicro)) {
    if (memo.size >= AMOUNTS_MEMO_MAX) memo.clear();
    (memo as Map<unknown, Micro>).set(value, amountMicro);
  }
  return amountMicro;
}

export function clientSeedField(fields: Fields): string | null | Failure {
  const value = fields['client_seed'];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !CLIENT_SEED_PATTERN.test(value)) return fail('BAD_REQUEST', "client_seed must be 1 to 64 printable characters without ':'");
  return value;
}

/**
 * The parameters of the last bet parsed, as sent (the object kept on its record) and as the game
 * read them: the answer of that bet needs them again (the `kelly` object), and reading them twice
 * gives the same value (`parse` is pure), so it is not done twice.
 */
let lastParamsJson: JsonObject | null = null;
let lastParamsGame: GameModule | null = null;
let lastParams: unknown = null;

/** `game.parse(paramsJson)`, from the memo when these are the last parameters parsed. */
export function parsedParamsOf(game: GameModule, paramsJson: JsonObject): Outcome<unknown> {
  if (paramsJson === lastParamsJson && game === lastParamsGame) return { ok: true, value: lastParams };
  return game.parse(paramsJson);
}

/**
 * `fields` holds amount, client_seed and the game's parameters (plus `extraKeys`, already read by
 * the caller, e.g. batch's `game`).
 */
export function parseBetFields(fields: Fields, game: GameModule, syntax: AmountSyntax, extraKeys: readonly string[] = NO_EXTRA_KEYS): ParsedBet | Failure {
  if (!allKnown(fields, game, extraKeys)) {
    const unknown = Object.keys(fields).filter((key) => !known(key, game, extraKeys));
    return fail('BAD_REQUEST', `unknown field${unknown.length > 1 ? 's' : ''} for ${game.id}: ${unknown.sort().join(', ')}`);
  }
  const amountMicro = amountField(fields, syntax);
  if (isFailure(amountMicro)) return amountMicro;
  const clientSeed = clientSeedField(fields);
  if (isFailure(clientSeed)) return clientSeed;
  const paramsJson: JsonObject = {};
  for (const key of game.paramFields) {
    const value = fields[key];
    // A string, number or boolean is its own copy; anything else goes through jsonCopy, as before.
    if (value !== undefined) paramsJson[key] = (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : jsonCopy(value)) as JsonValue;
  }
  const params = game.parse(paramsJson);
  if (!params.ok) return params;
  lastParamsJson = paramsJson;
  lastParamsGame = game;
  lastParams = params.value;
  return { game, params: params.value, paramsJson, amountMicro, clientSeed };
}
