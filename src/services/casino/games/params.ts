/**
 * Typed readers for game parameters. Each returns the value or a 400 BAD_REQUEST Failure that
 * names the field and the accepted range; nothing throws. Integers must be JSON integers; decimal
 * parameters (target multipliers, cash-out points) accept JSON numbers with at most `decimals`
 * places and are returned as exact Ratios, never floats.
 */
import { fail, isFailure, succeed, type Failure, type Outcome } from '../../../core/errors.ts';
import { compare, ratio, ratioFromDecimal, type Ratio } from '../../../core/ratio.ts';

export type Params = Readonly<Record<string, unknown>>;

export function enumParam<T extends string>(
  params: Params,
  field: string,
  allowed: readonly T[],
  fallback?: T,
): T | Failure {
  const value = params[field];
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    return fail('BAD_REQUEST', `${field} must be one of: ${allowed.join(', ')}`);
  }
  return value as T;
}

export function intParam(params: Params, field: string, min: number, max: number, fallback?: number): number | Failure {
  const value = params[field];
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    return fail('BAD_REQUEST', `${field} must be an integer from ${min} to ${max}`);
  }
  return value;
}

/** A JSON number in [min, max] with at most `decimals` decimal places, exactly. */
export function decimalParam(
  params: Params,
  field: string,
  min: string,
  max: string,
  decimals: number,
): Ratio | Failure {
  const value = params[field];
  const rangeText = `${field} must be a number from ${min} to ${max} with at most ${decimals} decimals`;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return fail('BAD_REQUEST', rangeText);
  const text = String(value);
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (match === null || (match[2] ?? '').length > decimals) return fail('BAD_REQUEST', rangeText);
  const exact = ratioFromDecimal(text);
  if (compare(exact, ratioFromDecimal(min)) < 0 || compare(exact, ratioFromDecimal(max)) > 0)
    return fail('BAD_REQUEST', rangeText);
  return exact;
}

/** A JSON array of distinct integers in [min, max], with a length in [minLength, maxLength]. */
export function distinctIntsParam(
  params: Params,
  field: string,
  min: number,
  max: number,
  minLength: number,
  maxLength: number,
): number[] | Failure {
  const value = params[field];
  const text = `${field} must be an array of ${minLength} to ${maxLength} distinct integers from ${min} to ${max}`;
  if (!Array.isArray(value) || value.length < minLength || value.length > maxLength) return fail('BAD_REQUEST', text);
  const seen = new Set<number>();
  for (const item of value as unknown[]) {
    if (typeof item !== 'number' || !Number.isSafeInteger(item) || item < min || item > max || seen.has(item))
      return fail('BAD_REQUEST', text);
    seen.add(item);
  }
  return [...seen];
}

export const percent = (value: number | bigint): Ratio => ratio(BigInt(value), 100n);

/** The bet's own fields, which the service reads; a game's parse lets them through. */
export const BET_FIELDS: readonly string[] = ['amount', 'client_seed'];

/** Refuses the first field that is neither one of the game's `fields` nor a bet field. */
export function refuseUnknownFields(params: Params, fields: readonly string[]): Failure | null {
  const unknown = Object.keys(params).find((field) => !fields.includes(field) && !BET_FIELDS.includes(field));
  return unknown === undefined
    ? null
    : fail('BAD_REQUEST', `${unknown}: unknown field (accepted: ${fields.length === 0 ? 'none' : fields.join(', ')})`);
}

/** The parse of a game with one parameter: its read `value` (or the read's Failure) under `key`. */
export function oneParam<K extends string, V>(key: K, value: V | Failure): Outcome<Readonly<Record<K, V>>> {
  return isFailure(value) ? value : succeed({ [key]: value } as Record<K, V>);
}

/** The parameters of a game that takes none. */
export type NoParams = Readonly<Record<string, never>>;

/**
 * A game's `paramFields` and `parse` for a game that names its fields and refuses any other:
 * the first unknown field is refused before `read` looks at the rest.
 */
export function strictParams<P>(
  fields: readonly string[],
  read: (params: Params) => Outcome<P>,
): { readonly paramFields: readonly string[]; parse(params: Params): Outcome<P> } {
  return { paramFields: fields, parse: (params) => refuseUnknownFields(params, fields) ?? read(params) };
}

/** `strictParams` of a game without parameters: any field but the bet's own is refused. */
export const NO_PARAMS = strictParams<NoParams>([], () => succeed({}));
