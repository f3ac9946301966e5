/**
 * Parsing a casino bet body, for every route that places bets (the 16 single-game rows, batch
 * elements, style B, tournament play): the amount (style A: a JSON number; style B: a number or a
 * decimal string), the optional client seed, and the game's own parameters, with every other
 * field refused. The game parses its parameters itself (games/params.ts); the domain checks
 * (minimum, maximum, balance, Kelly) run later in placeBet.
 */
import { fail, isFailure, type Failure, type JsonObject, type JsonValue } from '../../core/errors.ts';
import type { Micro } from '../../core/money.ts';
import type { GameModule } from '../../services/casino/games/game.ts';
import { CLIENT_SEED_PATTERN } from '../../services/casino/place-bet.ts';
import { requiredAmount, type AmountSyntax, type Fields } from '../validate.ts';

export interface ParsedBet {
  readonly game: GameModule;
  readonly params: unknown;
  readonly paramsJson: JsonObject;
  readonly amountMicro: Micro;
  readonly clientSeed: string | null;
}

const BET_KEYS = ['amount', 'client_seed'];

export function clientSeedField(fields: Fields): string | null | Failure {
  const value = fields['client_seed'];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !CLIENT_SEED_PATTERN.test(value)) return fail('BAD_REQUEST', "client_seed must be 1 to 64 printable characters without ':'");
  return value;
}

/**
 * `fields` holds amount, client_seed and the game's parameters (plus `extraKeys`, already read by
 * the caller, e.g. batch's `game`).
 */
export function parseBetFields(fields: Fields, game: GameModule, syntax: AmountSyntax, extraKeys: readonly string[] = []): ParsedBet | Failure {
  const unknown = Object.keys(fields).filter((key) => !BET_KEYS.includes(key) && !extraKeys.includes(key) && !game.paramFields.includes(key));
  if (unknown.length > 0) return fail('BAD_REQUEST', `unknown field${unknown.length > 1 ? 's' : ''} for ${game.id}: ${unknown.sort().join(', ')}`);
  const amountMicro = requiredAmount(fields, 'amount', syntax);
  if (isFailure(amountMicro)) return amountMicro;
  const clientSeed = clientSeedField(fields);
  if (isFailure(clientSeed)) return clientSeed;
  const paramsJson: JsonObject = {};
  for (const key of game.paramFields) if (fields[key] !== undefined) paramsJson[key] = structuredClone(fields[key]) as JsonValue;
  const params = game.parse(paramsJson);
  if (!params.ok) return params;
  return { game, params: params.value, paramsJson, amountMicro, clientSeed };
}
