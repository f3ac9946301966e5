/**
 * A deployed parlay's legs as the deployed scheme reads them off its `result`: the parameters it
 * replays (`{ bets: [{ game, params, nonce, client_seed? }] }`, what
 * services/casino/deployed/parlay-rule.ts plays), and each leg as a draw of its own (its game,
 * result, nonce and client seed), for the audits that judge draws one by one (the recorded roll
 * against the committed one, a nonce drawn twice).
 * Leg shape: DEPLOYED.md §2.5 lists `legs` among the answer's fields without giving a leg's form, so
 * a leg's game result fields may sit beside `game`, `params`, `nonce` and `won` (flat, as afp's
 * stand-in writes them) or under the leg's `result` object (nested); legRecord reads both as the
 * flat record (the nested fields over the leg's own where both name one).
 * Client seed: §2.5 gives each leg `params.client_seed`, else `parlay_` and the millisecond, so legs placed
 * without one may each work out their own default (the millisecond can tick between legs). A leg
 * is drawn under its `params.client_seed` (the player's choice), else the `client_seed` its record
 * states (the default the target worked out: the draw HMAC(server seed, that seed, the leg's nonce)
 * proves it or does not), else the bet's. A leg drawn under the bet's seed where that seed is the
 * default form (`parlay_` and digits) and the leg states none is `seedUnstated`: its own default may
 * be a millisecond later, so a draw that differs under the bet's seed proves nothing (not checked:
 * deployed-scheme.ts, draw-agreement.ts), where a draw that agrees still verifies. Trying nearby
 * milliseconds instead would let a server choose among draws. A leg's parameters are its `params`
 * echo, else its game's parameter echoes (result-params.ts).
 * Null where the result names too little (no legs, a leg without a game or an integer nonce):
 * the parlay is then not replayed, with the rule's reason.
 */
import type { JsonObject, JsonValue } from '../../../core/errors.ts';
import { deployedParamsOf } from './result-params.ts';
import type { SchemeLeg } from '../scheme.ts';

/** A leg as the scheme's draws are judged (scheme.ts SchemeLeg), its result a record and whether its seed is unstated always said. */
export type ParlayLegDraw = SchemeLeg & { readonly result: JsonObject; readonly seedUnstated: boolean };

/** The client seed DEPLOYED.md §2.5 gives a parlay placed without one: `parlay_` and the millisecond. */
const DEFAULT_PARLAY_SEED = /^parlay_\d+$/;

const isObject = (value: JsonValue | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A leg's record with its game's result fields at its top level, whether written flat or nested under `result`. */
export function legRecord(leg: JsonObject): JsonObject {
  const nested = leg['result'];
  if (!isObject(nested)) return leg;
  const { result: _nested, ...own } = leg;
  return { ...own, ...nested };
}

/** A parlay's `result` with every leg read flat (legRecord); anything else as it is. */
export function parlayResultRead(result: JsonValue): JsonValue {
  if (!isObject(result) || !Array.isArray(result['legs'])) return result;
  return { ...result, legs: result['legs'].map((leg) => (isObject(leg) ? legRecord(leg) : leg)) };
}

function legsOfResult(result: JsonValue): JsonObject[] | null {
  if (!isObject(result)) return null;
  const legs = result['legs'];
  if (!Array.isArray(legs) || legs.length === 0) return null;
  const read: JsonObject[] = [];
  for (const written of legs) {
    if (!isObject(written)) return null;
    const leg = legRecord(written);
    if (typeof leg['game'] !== 'string') return null;
    const nonce = leg['nonce'];
    if (typeof nonce !== 'number' || !Number.isSafeInteger(nonce) || nonce < 0) return null;
    read.push(leg);
  }
  return read;
}

const legParams = (leg: JsonObject): JsonObject | null =>
  isObject(leg['params']) ? leg['params'] : deployedParamsOf(leg['game'] as string, leg);

/** The client seed a leg's record states (a non-empty string), else null. */
function statedClientSeed(leg: JsonObject): string | null {
  const stated = leg['client_seed'];
  return typeof stated === 'string' && stated !== '' ? stated : null;
}

/** The parameters a parlay replays from: every leg's game, parameters and nonce. */
export function parlayParamsOf(result: JsonValue): JsonObject | null {
  const legs = legsOfResult(result);
  if (legs === null) return null;
  const bets: JsonObject[] = [];
  for (const leg of legs) {
    const params = legParams(leg);
    if (params === null) return null;
    const stated = statedClientSeed(leg);
    bets.push({
      game: leg['game'] as string,
      params,
      nonce: leg['nonce'] as number,
      ...(stated === null ? {} : { client_seed: stated }),
    });
  }
  return { bets };
}

/** Each leg as a draw of its own; null for a bet that is no parlay or names too little. */
export function parlayLegDraws(bet: {
  readonly game: string;
  readonly result: JsonValue;
  readonly clientSeed: string;
}): readonly ParlayLegDraw[] | null {
  if (bet.game !== 'parlay') return null;
  const legs = legsOfResult(bet.result);
  if (legs === null) return null;
  return legs.map((leg, index) => {
    const own = legParams(leg)?.['client_seed'];
    const stated = statedClientSeed(leg);
    return {
      game: leg['game'] as string,
      result: leg,
      nonce: leg['nonce'] as number,
      clientSeed: typeof own === 'string' ? own : (stated ?? bet.clientSeed),
      path: `legs[${index}]`,
      seedUnstated: typeof own !== 'string' && stated === null && DEFAULT_PARLAY_SEED.test(bet.clientSeed),
    };
  });
}

/** The paths (`legs[1]`) of a parlay's legs whose seed is unstated (parlayLegDraws); none for any other bet. */
export function unstatedSeedLegs(bet: {
  readonly game: string;
  readonly result: JsonValue;
  readonly clientSeed: string;
}): ReadonlySet<string> {
  return new Set((parlayLegDraws(bet) ?? []).filter((leg) => leg.seedUnstated).map((leg) => leg.path));
}
