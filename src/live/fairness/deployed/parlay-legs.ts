/**
 * A deployed parlay's legs as the deployed scheme reads them off its `result` (spec/DEPLOYED.md
 * §2.5: `legs: [{ game, params, nonce, ...the leg game's result fields, won }]`): the parameters
 * it replays (`{ bets: [{ game, params, nonce }] }`, what services/casino/deployed/parlay-rule.ts
 * plays), and each leg as a draw of its own (its game, result, nonce and client seed), for the
 * audits that judge draws one by one (the recorded roll against the committed one, a nonce drawn
 * twice). A leg's parameters are its `params` echo, else its game's parameter echoes
 * (result-params.ts); its client seed is its own `params.client_seed`, else the bet's.
 * Null where the result names too little (no legs, a leg without a game or an integer nonce):
 * the parlay is then not replayed, with the rule's reason.
 */
import type { JsonObject, JsonValue } from '../../../core/errors.ts';
import { deployedParamsOf } from './result-params.ts';

export interface ParlayLegDraw {
  readonly game: string;
  readonly result: JsonObject;
  readonly nonce: number;
  readonly clientSeed: string;
  /** The leg's path in the bet's `result` (`legs[1]`), where its field differences are named. */
  readonly path: string;
}

const isObject = (value: JsonValue | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function legsOfResult(result: JsonValue): JsonObject[] | null {
  if (!isObject(result)) return null;
  const legs = result['legs'];
  if (!Array.isArray(legs) || legs.length === 0) return null;
  const read: JsonObject[] = [];
  for (const leg of legs) {
    if (!isObject(leg) || typeof leg['game'] !== 'string') return null;
    const nonce = leg['nonce'];
    if (typeof nonce !== 'number' || !Number.isSafeInteger(nonce) || nonce < 0) return null;
    read.push(leg);
  }
  return read;
}

const legParams = (leg: JsonObject): JsonObject | null =>
  isObject(leg['params']) ? leg['params'] : deployedParamsOf(leg['game'] as string, leg);

/** The parameters a parlay replays from: every leg's game, parameters and nonce. */
export function parlayParamsOf(result: JsonValue): JsonObject | null {
  const legs = legsOfResult(result);
  if (legs === null) return null;
  const bets: JsonObject[] = [];
  for (const leg of legs) {
    const params = legParams(leg);
    if (params === null) return null;
    bets.push({ game: leg['game'] as string, params, nonce: leg['nonce'] as number });
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
    return {
      game: leg['game'] as string,
      result: leg,
      nonce: leg['nonce'] as number,
      clientSeed: typeof own === 'string' ? own : bet.clientSeed,
      path: `legs[${index}]`,
    };
  });
}
