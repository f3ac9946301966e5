/**
 * WireBet: one casino bet as a client sees it on the wire — everything a client-side
 * recomputation needs (verify-wire-bet.ts) and nothing the server computed about its own proof.
 *
 * Two sources: the audit trail `GET /api/v1/fairness/audit/:betId` (fairness audit: parameters,
 * proof, recorded multiplier and result, and the revealed server seed once rotated) and a style-A
 * bet answer (`{ bet_id, game, amount_bet, result, payout_multiplier, amount_won, proof }`, in
 * a batch or alone) joined with the parameters the auditor sent. Parsing is strict: a missing or
 * mistyped field is a returned problem naming the field (a malformed answer is a finding, not a
 * crash). The server's own `verified`/`mismatches` are never read.
 * Money arrives as style-A numbers, read without loss (core/live-amount.ts) and kept to the nearest
 * micro (a target's sub-micro digits are float noise to afp's model).
 */
import type { JsonObject, JsonValue } from '../../core/errors.ts';
import { isLiveAmount, parseLiveAmount, toMicro } from '../../core/live-amount.ts';
import type { Micro } from '../../core/money.ts';

export interface WireBet {
  readonly betId: string;
  readonly game: string;
  /** The casino's variant name (audit trail), or null when unknown (a bet answer). */
  readonly variant: string | null;
  readonly params: JsonObject;
  readonly amountMicro: Micro;
  readonly payoutMicro: Micro;
  /** The recorded multiplier as the wire shows it (rounded to 6 decimals). */
  readonly multiplier: number;
  /** The recorded outcome detail (`result`). */
  readonly detail: JsonValue;
  readonly clientSeed: string;
  readonly nonce: number;
  readonly seedHash: string;
  readonly resultHash: string;
}

/** The bet and, from an audit trail, the revealed server seed (null until revealed). */
export interface AuditTrail {
  readonly bet: WireBet;
  readonly serverSeed: string | null;
}

type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

class FieldError extends Error {}

function field<T>(
  object: Record<string, unknown>,
  name: string,
  check: (value: unknown) => value is T,
  what: string,
): T {
  const value = object[name];
  if (!check(value)) throw new FieldError(`${name} is not ${what}`);
  return value;
}

const isString = (value: unknown): value is string => typeof value === 'string' && value.length <= 4096;
const isNonce = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isHash = (value: unknown): value is string => typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
const isJsonObject = (value: unknown): value is JsonObject => isObject(value);
const isAnything = (value: unknown): value is JsonValue => value !== undefined;

function micro(object: Record<string, unknown>, name: string): Micro {
  const value = field(object, name, isFiniteNumber, 'a number');
  const parsed = parseLiveAmount(value);
  if (!isLiveAmount(parsed)) throw new FieldError(`${name} is not an amount (${parsed})`);
  return toMicro(parsed).micro;
}

function proofFields(
  proof: Record<string, unknown>,
): Pick<WireBet, 'clientSeed' | 'nonce' | 'seedHash' | 'resultHash'> {
  return {
    clientSeed: field(proof, 'client_seed', isString, 'a string'),
    nonce: field(proof, 'nonce', isNonce, 'a non-negative integer'),
    seedHash: field(proof, 'server_seed_hash', isHash, '64 hex characters'),
    resultHash: field(proof, 'result_hash', isHash, '64 hex characters'),
  };
}

function guarded<T>(what: string, read: () => T): Parsed<T> {
  try {
    return { ok: true, value: read() };
  } catch (error) {
    if (error instanceof FieldError) return { ok: false, problem: `${what}: ${error.message}` };
    throw error;
  }
}

/** An audit trail answer (GET /api/v1/fairness/audit/:betId). */
export function parseAuditTrail(body: unknown): Parsed<AuditTrail> {
  return guarded('audit trail', () => {
    if (!isObject(body)) throw new FieldError('the answer is not an object');
    const proof = field(body, 'proof', isObject, 'an object');
    const verification = field(body, 'verification', isObject, 'an object');
    const recorded = field(verification, 'recorded', isObject, 'an object');
    const serverSeed = verification['server_seed'];
    if (serverSeed !== null && !isString(serverSeed))
      throw new FieldError('verification.server_seed is neither null nor a string');
    const bet: WireBet = {
      betId: field(body, 'bet_id', isString, 'a string'),
      game: field(body, 'game', isString, 'a string'),
      variant: field(body, 'variant', isString, 'a string'),
      params: field(body, 'parameters', isJsonObject, 'an object'),
      amountMicro: micro(body, 'amount'),
      payoutMicro: micro(body, 'payout'),
      multiplier: field(recorded, 'payout_multiplier', isFiniteNumber, 'a number'),
      detail: field(recorded, 'result', isAnything, 'present'),
      ...proofFields(proof),
    };
    return { bet, serverSeed };
  });
}

/** A style-A bet answer (single game or a batch element), with the parameters that were sent. */
export function parseBetAnswer(body: unknown, params: JsonObject): Parsed<WireBet> {
  return guarded('bet answer', () => {
    if (!isObject(body)) throw new FieldError('the answer is not an object');
    return {
      betId: field(body, 'bet_id', isString, 'a string'),
      game: field(body, 'game', isString, 'a string'),
      variant: null,
      params,
      amountMicro: micro(body, 'amount_bet'),
      payoutMicro: micro(body, 'amount_won'),
      multiplier: field(body, 'payout_multiplier', isFiniteNumber, 'a number'),
      detail: field(body, 'result', isAnything, 'present'),
      ...proofFields(field(body, 'proof', isObject, 'an object')),
    };
  });
}
