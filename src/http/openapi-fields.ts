/**
 * The zod building blocks of the OpenAPI request and response definitions: each mirrors one reader
 * of src/http/validate.ts (or of the casino's game parameters) with the same bounds, so a field
 * documented with it accepts what the row accepts. The rows validate in hand-written code (a hot
 * path: see validate.ts); test/http/openapi-contract.test.ts holds every definition built from
 * these to the row's own `parse`, value by value, so the two cannot drift apart silently.
 *
 * `RequestContract` is what one row takes: its JSON body, query and path parameters. Query and
 * path values travel as text; they are documented with their meaning (an integer from 1 to 100),
 * as clients and generators expect, and the contract test sends them as text.
 * Non-goals: describing cross-field rules (a tournament's end after its start): descriptions say them.
 */
import * as z from 'zod';
import { LIST_LIMIT_MAX } from './list-call.ts';

export interface RequestContract {
  /** The JSON body; absent: the row takes none (a body, if sent, must be `{}`). */
  readonly body?: z.ZodType;
  readonly query?: z.ZodObject;
  /** Path parameters by name (every `:name` of the row's path). */
  readonly params?: z.ZodObject;
  /** Whether the body may be omitted (every field optional). */
  readonly bodyOptional?: boolean;
}

/** validate.ts `checkString`: a string, not blank, at most `max` characters. */
export const nonBlankString = (max = 256): z.ZodString => z.string().min(1).max(max).regex(/\S/);

/** core/reference.ts: an agent id, address or referral code, 1..64 of A-Z a-z 0-9 _ . - */
export const reference = (): z.ZodString => z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/);

/** An instant as the platform renders it (ISO 8601, UTC, milliseconds). */
export const instant = (): z.ZodString =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    .describe('ISO 8601 instant, UTC');

/** Style A money: USDC as a JSON number (at most 6 decimals). */
export const usdcNumber = (): z.ZodNumber => z.number().describe('USDC as a JSON number (at most 6 decimals)');

/** Style B money: USDC as a decimal string with 2 to 6 decimals ("10.00", "0.995"). */
export const usdcString = (): z.ZodString =>
  z
    .string()
    .regex(/^-?\d+\.\d{2,6}$/)
    .describe('USDC as a decimal string, 2 to 6 decimals');

/** validate.ts `requiredAmount(…, 'number')`: a positive JSON number, at most 6 decimals, at most 10^12. */
export const amountNumber = (): z.ZodNumber =>
  z.number().positive().max(1e12).describe('USDC, a positive JSON number with at most 6 decimals');

/** validate.ts `requiredAmount(…, 'number-or-decimal-string')`: style B also takes the decimal strings it renders. */
export const amountNumberOrText = (): z.ZodType =>
  z
    .union([amountNumber(), z.string().regex(/^\s*\d{1,18}(\.\d{1,6})?\s*$/)])
    .describe('USDC, a positive JSON number or decimal string ("1.50") with at most 6 decimals');

/** validate.ts `optionalObject`: a JSON object of at most `maxKeys` keys. */
export const jsonObject = (maxKeys = 32): z.ZodType =>
  z
    .record(z.string(), z.unknown())
    .refine((value) => Object.keys(value).length <= maxKeys)
    .meta({ maxProperties: maxKeys });

/** validate.ts `queryLimit`: a whole number in [1, max]. */
export const limitQuery = (fallback: number | string, max: number): z.ZodInt =>
  z.int().min(1).max(max).describe(`At most this many items, 1 to ${max} (default ${fallback})`);

/**
 * The query of a list call wrapped by list-call.ts: `limit` 1..100, without it the row's own
 * answer (`fallback` says what that holds).
 */
export const listLimitQuery = (fallback: number | string): z.ZodObject =>
  z.strictObject({ limit: limitQuery(fallback, LIST_LIMIT_MAX).optional() });

/** An optional request field: absent or null reads as not sent (validate.ts). */
export const optional = <T extends z.ZodType>(schema: T): z.ZodOptional<z.ZodNullable<T>> =>
  schema.nullable().optional();

/** A union of strict objects told apart by `key` (each option's literal). */
export const oneOf = (key: string, options: readonly z.ZodObject[]): z.ZodType =>
  z.discriminatedUnion(key, options as unknown as [z.ZodObject<{ [k: string]: z.ZodLiteral }>]);

const NAMES = new Map<z.ZodType, string>();

/** Gives a shared shape its name in `components.schemas`. */
export function named<T extends z.ZodType>(name: string, schema: T): T {
  NAMES.set(schema, name);
  return schema;
}

/** Every named shape, by name. */
export function namedSchemas(): ReadonlyMap<z.ZodType, string> {
  return NAMES;
}

export const INFO_SCHEMA = named(
  'Info',
  z
    .strictObject({ service: z.string(), docs: z.string(), referral: z.string(), version: z.string() })
    .describe('Added to every JSON object response, error bodies included.'),
);

/** A response object: its fields plus `_info`, strict. */
export const withInfo = (shape: z.ZodRawShape): z.ZodObject => z.strictObject({ ...shape, _info: INFO_SCHEMA });
