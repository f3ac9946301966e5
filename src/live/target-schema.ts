/**
 * The target file's shape as one zod schema: the single source of both the strict validation in
 * target-file.ts and the editor JSON Schema in schemas/target.schema.json (scripts/gen-schema.ts),
 * as scenario-schema.ts is for scenario files.
 *
 * Invariants: every object is strict (unknown keys are errors, at every level); every number, text
 * and list has a bound (STYLE rule 7); keys are snake_case like scenario files and the HTTP API.
 * Limits are keyed by afp's operation names (src/live/operations.ts), so a misspelt operation is an
 * unknown key at its line, never a limit silently ignored. Error messages never contain a key's
 * value (a target file may hold pre-funded API keys).
 * Non-goals: checks spanning fields (the registration service is listed, admin-deposit has an
 * admin URL, keys or keys_env but not both) and reading the environment: both live in target-file.ts.
 */
import * as z from 'zod';
import { targetUrlError } from '../client/target.ts';
import { FAULT_SERVICES as SERVICES, renderFileJsonSchema } from '../scenario/scenario-schema.ts';
import { FAIRNESS_SCHEME_NAMES } from '../audit/options.ts';
import { OPERATION_NAMES, type OperationName } from './operations.ts';
import { DIALECT_NAMES } from './target.ts';

export const TARGET_LIMITS = {
  urlLength: 2_048,
  keys: 1_000,
  keyLength: 256,
  commandLength: 4_096,
  perMinuteMax: 100_000,
  burstMax: 10_000,
} as const;

/** An API key as a target file or AFP_KEYS may carry it: printable, no spaces or commas. */
export const KEY_PATTERN = /^[\x21-\x2b\x2d-\x7e]+$/;
export const ENV_NAME_PATTERN = /^[A-Z_][A-Z0-9_]{0,63}$/;

/** Why `text` cannot be a service URL in a target file, or null. Credentials would end up in reports. */
export function serviceUrlError(text: string): string | null {
  const error = targetUrlError(text);
  if (error !== null) return error;
  const parsed = new URL(text);
  if (parsed.username !== '' || parsed.password !== '')
    return `URL '${parsed.host}' must not carry a user name or password`;
  return null;
}

const url = z
  .string({ error: 'expected a URL such as http://127.0.0.1:3000' })
  .max(TARGET_LIMITS.urlLength, `a URL is at most ${TARGET_LIMITS.urlLength} characters`)
  .superRefine((text, context) => {
    const error = serviceUrlError(text);
    if (error !== null) context.addIssue({ code: 'custom', message: error });
  })
  .meta({ pattern: '^https?://' });

const serviceSchema = z.strictObject({
  url: url.describe("the service's base URL (the dialect's paths are appended to it; a trailing slash is dropped)"),
  dialect: z
    .enum(DIALECT_NAMES)
    .describe("the wire shape it speaks: the documents' styles A, B, short, or deployed (spec/DEPLOYED.md)"),
});

const servicesSchema = z
  .strictObject({
    faucet: serviceSchema.optional(),
    escrow: serviceSchema.optional(),
    trading: serviceSchema.optional(),
    domains: serviceSchema.optional(),
    wallet: serviceSchema.optional(),
    casino: serviceSchema.optional(),
  })
  .describe('the services of the target, each with its base URL and dialect');
type ListedService = keyof z.output<typeof servicesSchema>;
const everyServiceKeyed: [Exclude<(typeof SERVICES)[number], ListedService>] extends [never] ? true : false = true;
void everyServiceKeyed;

const registerSchema = z
  .union([z.literal('none'), z.strictObject({ service: z.enum(SERVICES) })], {
    error: 'register is `none` or `{ service: NAME }` with NAME one of the listed services',
  })
  .describe('where a fresh agent registers: { service: casino }, or none (then funding must be keys)');

const keySchema = z
  .string({ error: 'a key is a text' })
  .min(1, 'a key is not empty')
  .max(TARGET_LIMITS.keyLength, `a key is at most ${TARGET_LIMITS.keyLength} characters`)
  .regex(KEY_PATTERN, 'a key has no spaces or commas');

const fundingSchema = z
  .discriminatedUnion(
    'method',
    [
      z.strictObject({
        method: z
          .literal('admin-deposit')
          .describe('afp serve only: a simulated chain deposit through its /_afp/casino/deposit door'),
      }),
      z.strictObject({
        method: z.literal('faucet').describe("the target's faucet (1 USDC once per agent on a deployment)"),
      }),
      z.strictObject({
        method: z.literal('keys').describe('pre-funded agents: their API keys'),
        keys: z
          .array(keySchema)
          .min(1, 'keys lists at least one key')
          .max(TARGET_LIMITS.keys, `at most ${TARGET_LIMITS.keys} keys`)
          .optional()
          .describe('the keys themselves (prefer keys_env: a file is easily shared)'),
        keys_env: z
          .string()
          .regex(ENV_NAME_PATTERN, 'keys_env names an environment variable (A-Z, 0-9, _)')
          .optional()
          .describe('the environment variable holding the keys, comma-separated (e.g. AFP_KEYS)'),
      }),
      z.strictObject({
        method: z
          .literal('command')
          .describe(
            'a command run with AFP_AGENT_ID, AFP_API_KEY, AFP_AMOUNT and AFP_SERVICE (casino, trading or domains) in its environment',
          ),
        command: z
          .string()
          .min(1, 'command is not empty')
          .max(TARGET_LIMITS.commandLength, `command is at most ${TARGET_LIMITS.commandLength} characters`),
      }),
    ],
    { error: 'funding.method is admin-deposit, faucet, keys or command' },
  )
  .describe('how an agent gets funds on this target');

const boundedInt = (min: number, max: number, what: string) =>
  z
    .int({ error: `expected a whole number (${what})` })
    .min(min, `must be at least ${min} (${what})`)
    .max(max, `must be at most ${max} (${what})`);

const limitSchema = z.strictObject({
  per_minute: boundedInt(1, TARGET_LIMITS.perMinuteMax, 'requests per minute'),
  burst: boundedInt(1, TARGET_LIMITS.burstMax, 'requests sent back to back').optional(),
  bucket: z
    .string()
    .regex(/^[a-z0-9_-]{1,32}$/, 'a bucket is 1 to 32 characters of a-z, 0-9, _ and -')
    .optional()
    .describe(
      'a name the operations the target counts together share: one pace, one window (the same per_minute each)',
    ),
});

const limitsShape = Object.fromEntries(OPERATION_NAMES.map((op) => [op, limitSchema.optional()])) as Record<
  OperationName,
  z.ZodOptional<typeof limitSchema>
>;
const limitsSchema = z
  .strictObject(limitsShape)
  .describe(`the pace to keep per operation (${OPERATION_NAMES.join(', ')})`);

export const targetFileSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[a-z0-9-]{1,64}$/, 'name is 1 to 64 characters of a-z, 0-9 and -')
    .describe('a name for reports'),
  services: servicesSchema,
  register: registerSchema,
  funding: fundingSchema,
  limits: limitsSchema.optional(),
  fairness: z
    .enum(FAIRNESS_SCHEME_NAMES)
    .optional()
    .describe(
      "how the casino's bets are verified: afp (docs/fairness.md) or deployed (spec/DEPLOYED.md §2.3); required when a casino is listed",
    ),
  admin_url: url
    .optional()
    .describe("an afp serve's api URL (its /_afp doors): present only when the target is an afp serve"),
});

export type TargetFile = z.output<typeof targetFileSchema>;

/** The editor JSON Schema's exact bytes (sorted keys, 2-space indent, trailing newline). */
export function renderTargetJsonSchema(): string {
  return renderFileJsonSchema(
    targetFileSchema,
    'afp target',
    'An afp target file (--target FILE): a live deployment, its services, registration, funding, limits and fairness scheme. Generated by scripts/gen-schema.ts; do not edit.',
  );
}
