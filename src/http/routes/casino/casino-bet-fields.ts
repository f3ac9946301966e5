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
import { fail, isFailure, type Failure, type JsonObject, type JsonValue, type Outcome } from '../../../core/errors.ts';
import type { Micro } from '../../../core/money.ts';
import type { GameModule } from '../../../services/casino/games/game.ts';
import { isClientSeed } from '../../../services/casino/place-bet.ts';
import { requiredAmount, type AmountSyntax, type Fields } from '../../validate.ts';
import { jsonCopy } from '../json-copy.ts';

export interface ParsedBet {
  readonly game: GameModule;
  readonly params: unknown;
  readonly paramsJson: JsonObject;
  readonly amountMicro: Micro;
  readonly clientSeed: string | null;
}

const BET_KEYS = ['amount', 'client_seed'];
const NO_EXTRA_KEYS: readonly string[] = [];

const known = (key: string, game: GameModule, extraKeys: readonly string[]): boolean =>
  BET_KEYS.includes(key) || extraKeys.includes(key) || game.paramFields.includes(key);

/**
 * The keys of the last body found all known (all its own), in order, with its game and extra
 * keys: bodies of a population repeat their keys, so a body whose keys walk in step with these is
 * known without a lookup per key.
 */
let knownKeys: string[] = [];
let knownGame: GameModule | null = null;
let knownExtraKeys: readonly string[] = NO_EXTRA_KEYS;

/** Whether every key `Object.keys(fields)` lists is known, without building that list (every bet). */
function allKnown(fields: Fields, game: GameModule, extraKeys: readonly string[]): boolean {
  if (game === knownGame && extraKeys === knownExtraKeys) {
    let index = 0;
    let inStep = true;
    for (const key in fields) {
      if (key !== knownKeys[index++]) {
        inStep = false;
        break;
      }
    }
    if (inStep && index === knownKeys.length) return true;
  }
  const keys: string[] = [];
  let allOwn = true;
  for (const key in fields) {
    const own = Object.hasOwn(fields, key);
    if (own && !known(key, game, extraKeys)) return false;
    allOwn &&= own;
    keys.push(key);
  }
  // Kept only when every key was its own and known: a key of the list is then known in any body.
  if (allOwn) {
    knownKeys = keys;
    knownGame = game;
    knownExtraKeys = extraKeys;
  }
  return true;
}

/** Accepted amounts as sent (JSON numbers; decimal strings where the syntax allows them), read once: bets repeat a handful of amounts. */
const AMOUNTS_MEMO_MAX = 1_024;
const numberAmounts = new Map<number, Micro>();
const textAmounts = new Map<string, Micro>();
/** The last JSON number accepted as an amount (NaN: none; an accepted amount is never NaN, 0 or -0). */
let lastNumberAmount = Number.NaN;
let lastNumberMicro: Micro = 0n;

/**
 * validate.ts `requiredAmount(fields['amount'], 'amount', syntax)`, memoised: an amount accepted
 * before is not read again. Only accepted amounts are kept (a failure is a fresh object per answer); a JSON
 * number reads alike in both syntaxes, a string is looked up only where strings are accepted.
 */
export function amountField(fields: Fields, syntax: AmountSyntax): Micro | Failure {
  const value = fields['amount'];
  // The last accepted JSON number first (a population repeats one amount): no map lookup.
  if (value === lastNumberAmount) return lastNumberMicro;
  const memo =
    typeof value === 'number'
      ? numberAmounts
      : typeof value === 'string' && syntax === 'number-or-decimal-string'
        ? textAmounts
        : null;
  if (memo === null) return requiredAmount(value, 'amount', syntax);
  let amountMicro = (memo as Map<unknown, Micro>).get(value);
  if (amountMicro === undefined) {
    const read = requiredAmount(value, 'amount', syntax);
    if (isFailure(read)) return read;
    if (memo.size >= AMOUNTS_MEMO_MAX) memo.clear();
    (memo as Map<unknown, Micro>).set(value, read);
    amountMicro = read;
  }
  if (typeof value === 'number') {
    lastNumberAmount = value;
    lastNumberMicro = amountMicro;
  }
  return amountMicro;
}

export function clientSeedField(fields: Fields): string | null | Failure {
  const value = fields['client_seed'];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !isClientSeed(value))
    return fail('BAD_REQUEST', "client_seed must be 1 to 64 printable characters without ':'");
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
export function parseBetFields(
  fields: Fields,
  game: GameModule,
  syntax: AmountSyntax,
  extraKeys: readonly string[] = NO_EXTRA_KEYS,
): ParsedBet | Failure {
  if (!allKnown(fields, game, extraKeys)) {
    const unknown = Object.keys(fields).filter((key) => !known(key, game, extraKeys));
    return fail(
      'BAD_REQUEST',
      `unknown field${unknown.length > 1 ? 's' : ''} for ${game.id}: ${unknown.sort().join(', ')}`,
    );
  }
  const amountMicro = amountField(fields, syntax);
  if (isFailure(amountMicro)) return amountMicro;
  const clientSeed = clientSeedField(fields);
  if (isFailure(clientSeed)) return clientSeed;
  const read = recentParamsOf(fields, game) ?? readParams(fields, game);
  if (isFailure(read)) return read;
  lastParamsJson = read.paramsJson;
  lastParamsGame = game;
  lastParams = read.params;
  return { game, params: read.params, paramsJson: read.paramsJson, amountMicro, clientSeed };
}

/** Parameters as sent (a copy of the game's fields) and as the game read them. */
interface ReadParams {
  /** Per `game.paramFields`: the value sent, undefined when absent. */
  readonly values: readonly unknown[];
  readonly paramsJson: JsonObject;
  readonly params: unknown;
}

/**
 * Parameters read recently, per game, kept when every value is a string, number or boolean:
 * bettors repeat their parameters bet after bet, and `parse` is pure, so equal values (same
 * presence, `Object.is` equal) give the same reading. Shared objects are never changed (records
 * keep their parameters as they are). Bounded per game.
 */
const RECENT_PARAMS_MAX = 16;
const recentParams = new Map<GameModule, ReadParams[]>();

/** The values of the fields being read, per paramFields index (one read of each field per bet). */
const sentValues: unknown[] = [];

function recentParamsOf(fields: Fields, game: GameModule): ReadParams | undefined {
  const recent = recentParams.get(game);
  if (recent === undefined) return undefined;
  const keys = game.paramFields;
  const sent = sentValues;
  sent.length = keys.length;
  for (let index = 0; index < keys.length; index++) sent[index] = fields[keys[index] as string];
  for (const entry of recent) {
    let same = true;
    for (let index = 0; index < keys.length && same; index++) same = Object.is(sent[index], entry.values[index]);
    if (same) return entry;
  }
  return undefined;
}

function readParams(fields: Fields, game: GameModule): ReadParams | Failure {
  const paramsJson: JsonObject = {};
  const values: unknown[] = [];
  let primitive = true;
  for (const key of game.paramFields) {
    const value = fields[key];
    values.push(value);
    if (value === undefined) continue;
    // A string, number or boolean is its own copy; anything else goes through jsonCopy, as before.
    const plain = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
    primitive &&= plain;
    paramsJson[key] = (plain ? value : jsonCopy(value)) as JsonValue;
  }
  const params = game.parse(paramsJson);
  if (!params.ok) return params;
  const read: ReadParams = { values, paramsJson, params: params.value };
  if (primitive) remember(game, read);
  return read;
}

function remember(game: GameModule, read: ReadParams): void {
  let recent = recentParams.get(game);
  if (recent === undefined) {
    recent = [];
    recentParams.set(game, recent);
  }
  if (recent.length >= RECENT_PARAMS_MAX) recent.pop();
  recent.unshift(read);
}
