/**
 * The scenario file's shape as one zod schema: the single source of both the strict validation
 * in scenario.ts and the editor JSON Schema in schemas/scenario.schema.json (scripts/gen-schema.ts).
 *
 * Invariants: every object is strict (unknown keys are errors, at every level); every number and
 * list has a bound (STYLE rule 7); keys are snake_case like the HTTP API and agent parameters.
 * Defaults are applied in scenario.ts, not here, so the schema describes exactly what a file may
 * contain and the JSON Schema's `required` lists exactly what a file must contain.
 * Non-goals: agent parameters (each archetype validates its own `params`) and checks that span
 * fields (fault windows inside the duration, total agents): both live in scenario.ts.
 */
import { MARKETS, marketBySymbol } from '../services/trading/market-catalogue.ts';
import { TRADING_LIMITS } from '../services/trading/trading-record.ts';
import * as z from 'zod';
import { SEED_PATTERN, SEED_RULE } from '../core/seed-text.ts';
import type { ServiceName } from '../platform/platform.ts';
import { GAME_IDS } from '../services/casino/games/game.ts';
import { DURATION_PATTERN_TEXT, durationMs, UNIT_MS } from './duration.ts';
import { loadSchema } from './load-schema.ts';
import { REPORT_NAMES } from '../report/report-names.ts';

export const INVARIANT_NAMES = [
  'conservation',
  'no-negative-balance',
  'faucet-cooldown',
  'escrow-settles-once',
  'escrow-expiry-exact',
  'rate-limit-headers',
  'error-shape',
  'casino-bet-limits',
  'casino-bets-verify',
  'casino-conservation',
  'casino-referral-levels',
  'domains-one-owner',
  'domains-expiry-exact',
  'domains-fees',
  'trading-conservation',
  'trading-liquidation-solvent',
  'trading-funding-exact',
  'trading-triggers-exact',
  'wallet-conservation',
  'referral-levels',
] as const;
export type InvariantName = (typeof INVARIANT_NAMES)[number];

/** Kept here as a value (platform.ts is not loaded at run time by the schema); typed against it. */
export const FAULT_SERVICES = [
  'faucet',
  'escrow',
  'trading',
  'domains',
  'wallet',
  'casino',
] as const satisfies readonly ServiceName[];
type MissingService = Exclude<ServiceName, (typeof FAULT_SERVICES)[number]>;
const everyServiceListed: [MissingService] extends [never] ? true : false = true;
void everyServiceListed;

export const SCENARIO_LIMITS = {
  nameLength: 64,
  populations: 1_000,
  countPerPopulation: 100_000,
  faults: 100,
  closures: 100,
  /** Entries of wallet.starting_funds (one per asset is plenty: six chains, four tokens). */
  walletFunds: 20,
  /** A starting deposit is at most this many USDC (a bound, far above any sensible bankroll). */
  startingDepositUsdcMax: 1_000_000,
  maxAgents: { default: 100_000, max: 1_000_000 },
  maxRequests: { default: 50_000_000, max: 1_000_000_000 },
  maxEvents: { default: 50_000_000, max: 1_000_000_000 },
  durationMs: { min: UNIT_MS.s, max: 365 * UNIT_MS.d },
} as const;

export const DEFAULT_START = '2026-01-01T00:00:00Z';

const ISO_INSTANT_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/** `2026-01-01T00:00:00Z` → epoch ms; UTC only (the `Z`), a real calendar instant, not before 1970. */
const isoInstant = z
  .string({ error: 'expected an ISO 8601 UTC instant such as 2026-01-01T00:00:00Z' })
  .meta({ pattern: ISO_INSTANT_PATTERN.source, description: `start instant, ISO 8601 UTC (default ${DEFAULT_START})` })
  .transform((text, context) => {
    const atMs = Date.parse(text);
    const valid = ISO_INSTANT_PATTERN.test(text) && Number.isSafeInteger(atMs) && atMs >= 0;
    // Date.parse rolls 2026-02-30 over to March; the round trip catches that.
    if (valid && new Date(atMs).toISOString().slice(0, 19) === text.slice(0, 19)) return atMs;
    context.issues.push({
      code: 'custom',
      message: `'${text}' is not an ISO 8601 UTC instant such as ${DEFAULT_START}`,
      input: text,
    });
    return z.NEVER;
  });

const boundedInt = (min: number, max: number, what: string) =>
  z
    .int({ error: `expected a whole number (${what})` })
    .min(min, `must be at least ${min} (${what})`)
    .max(max, `must be at most ${max} (${what})`);

const populationSchema = z.strictObject({
  agent: z.string().min(1).max(64).describe('agent archetype name (agents/ registry)'),
  count: boundedInt(1, SCENARIO_LIMITS.countPerPopulation, 'agents in this population'),
  first: boundedInt(0, SCENARIO_LIMITS.countPerPopulation, 'archetype indexes skipped before the first agent')
    .optional()
    .describe(
      'number the agents from here: `first: 281, count: 1` is agent escrow-buyer-281 alone, as it is in a run of 500 (afp shrink writes it; default 0)',
    ),
  tier: z.enum(['free', 'pro', 'enterprise']).optional().describe('rate-limit tier (default free)'),
  style: z.enum(['A', 'B', 'mixed']).optional().describe('addressing style the agents use (default B)'),
  params: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("the archetype's parameters, validated by its own schema"),
});

const faultSchema = z.strictObject({
  service: z.enum(FAULT_SERVICES),
  from: durationMs({ minMs: 0 }).describe('start of the window, from the scenario start'),
  for: durationMs({ minMs: 1 }).describe('length of the window'),
  answer: z.literal([500, 503]).optional().describe('HTTP status every request to the service gets (default 503)'),
});

/** A USDC amount as a decimal text ('100.00', at most 6 decimals) or a number; checked in scenario.ts. */
const USDC_TEXT_PATTERN = /^\d{1,7}(\.\d{1,6})?$/;

const closureSchema = z.strictObject({
  game: z.enum(GAME_IDS).describe('the game to close (every variant answers 409 GAME_CLOSED)'),
  from: durationMs({ minMs: 0 }).describe('start of the closure, from the scenario start'),
  for: durationMs({ minMs: 1 }).describe('length of the closure'),
});

const casinoSchema = z.strictObject({
  starting_deposit: z
    .union([
      z.string().regex(USDC_TEXT_PATTERN, "a USDC amount such as '100.00' (at most 6 decimals)"),
      z.number().positive(),
    ])
    .optional()
    .describe(
      'USDC every agent receives as a simulated Base deposit when it registers (credited on the clock, 2 min later); default none',
    ),
  closures: z
    .array(closureSchema)
    .max(SCENARIO_LIMITS.closures)
    .optional()
    .describe('windows in which a game answers 409 GAME_CLOSED'),
});

const tradingShockSchema = z.strictObject({
  market: z
    .string()
    .refine(
      (base) => MARKETS.some((market) => market.base === base),
      'an asset the venue lists (BTC, ETH, kPEPE, GOLD...)',
    )
    .describe('the asset whose price jumps (its perpetual and spot market alike)'),
  at: durationMs({ minMs: 0 }).describe('when, from the scenario start (takes effect at the next price tick)'),
  move_bps: z.int().min(-9_999).max(100_000).describe('the jump in basis points: -3000 is a 30% fall'),
});

const tradingClosureSchema = z.strictObject({
  market: z
    .string()
    .refine(
      (symbol) => symbol === '*' || marketBySymbol(symbol) !== undefined,
      'a listed market symbol (BTC-PERP, ETH-USDC) or *',
    )
    .describe('the market that refuses orders with 409 MARKET_CLOSED (* = every market)'),
  from: durationMs({ minMs: 0 }).describe('start of the closure, from the scenario start'),
  for: durationMs({ minMs: 1 }).describe('length of the closure'),
});

const tradingSchema = z.strictObject({
  shocks: z
    .array(tradingShockSchema)
    .max(TRADING_LIMITS.shocksMax)
    .optional()
    .describe('price shocks: an asset jumps by move_bps at an instant, permanently'),
  closures: z
    .array(tradingClosureSchema)
    .max(TRADING_LIMITS.closuresMax)
    .optional()
    .describe('windows in which a market answers 409 MARKET_CLOSED'),
});

/** A wallet amount in whole units: up to 12 integer digits and 18 decimals (checked per asset in scenario.ts). */
const WALLET_AMOUNT_PATTERN = /^\d{1,12}(\.\d{1,18})?$/;

const walletFundSchema = z.strictObject({
  chain: z
    .enum(['ethereum', 'base', 'solana', 'bitcoin', 'tron', 'monero'])
    .describe('the chain the funds are minted on'),
  token: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe("a token's contract address on that chain (default: the chain's native coin)"),
  amount: z
    .string()
    .regex(WALLET_AMOUNT_PATTERN, "an amount in whole units such as '0.5' (at most the asset's decimals)")
    .describe("minted at the wallet's address on that chain"),
});

const walletSchema = z.strictObject({
  starting_funds: z
    .array(walletFundSchema)
    .max(SCENARIO_LIMITS.walletFunds)
    .optional()
    .describe(
      'coins and tokens minted on the simulated chains at every wallet an agent creates (POST /v1/wallet/create), right after the answer; default none',
    ),
});

const SEED_MESSAGE = `seed is a whole number below 2^53 or a text of ${SEED_RULE} (quote longer numbers)`;

export const scenarioFileSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9-]{1,64}$/, 'name is 1 to 64 characters of a-z, 0-9 and -'),
  seed: z
    // The --seed flag's rule (src/core/seed-text.ts): the reproduce line passes this seed as --seed.
    .union([z.string().regex(SEED_PATTERN, SEED_MESSAGE), z.int()], { error: SEED_MESSAGE })
    .optional()
    .describe('default seed (default 1); --seed overrides it'),
  start: isoInstant.optional(),
  duration: durationMs({ minMs: SCENARIO_LIMITS.durationMs.min, maxMs: SCENARIO_LIMITS.durationMs.max }).describe(
    'virtual run length, 1s to 365d',
  ),
  populations: z
    .array(populationSchema)
    .min(1, 'a scenario needs at least one population')
    .max(SCENARIO_LIMITS.populations),
  faults: z.array(faultSchema).max(SCENARIO_LIMITS.faults).optional(),
  invariants: z
    .array(z.enum(INVARIANT_NAMES))
    .max(INVARIANT_NAMES.length)
    .optional()
    .describe('invariants to check (default all)'),
  reports: z
    .array(z.enum(REPORT_NAMES))
    // None at all wrote no file and printed the digest of nothing, the same for every run.
    .min(
      1,
      'reports names at least one report (leave the key out for all of them): a run that writes none has no digest',
    )
    .max(REPORT_NAMES.length)
    .optional()
    .describe('reports to write, at least one (default all)'),
  casino: casinoSchema.optional().describe('casino settings of the run: starting deposits, game closures'),
  trading: tradingSchema.optional().describe('trading settings of the run: price shocks, market closures'),
  wallet: walletSchema.optional().describe("wallet settings of the run: the funds minted at every agent's new wallet"),
  platform: z
    .strictObject({
      dispute_outcome: z
        .enum(['refund', 'release'])
        .optional()
        .describe('what the end of a dispute window does (default refund)'),
      domain_year: durationMs({ minMs: UNIT_MS.h, maxMs: 365 * UNIT_MS.d })
        .optional()
        .describe(
          'length of a domain registration year (default 365d; shorter compresses time so expiry happens within a run)',
        ),
      domain_grace: durationMs({ minMs: 0, maxMs: 365 * UNIT_MS.d })
        .optional()
        .describe('how long an expired domain stays expired before it is released (default 30d)'),
    })
    .optional(),
  liveness: durationMs({ minMs: 60_000, maxMs: 30 * 86_400_000 })
    .optional()
    .describe(
      'after the run: agents stop, faults are over, and within this long every escrow, withdrawal, tournament and challenge must settle (else exit 4 with the stuck ones); default no liveness phase',
    ),
  load: loadSchema.optional(),
  limits: z
    .strictObject({
      max_agents: boundedInt(1, SCENARIO_LIMITS.maxAgents.max, 'max_agents').optional(),
      max_requests: boundedInt(1, SCENARIO_LIMITS.maxRequests.max, 'max_requests').optional(),
      max_events: boundedInt(1, SCENARIO_LIMITS.maxEvents.max, 'max_events').optional(),
    })
    .optional()
    .describe('run limits (defaults 100000 agents, 50000000 requests, 50000000 events)'),
});

export type ScenarioFile = z.output<typeof scenarioFileSchema>;

/** Recursively sorts object keys so the JSON text is stable whatever order zod emits. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}

/** An editor JSON Schema's exact bytes: sorted keys, 2-space indent, trailing newline. */
export function jsonSchemaText(document: unknown): string {
  return `${JSON.stringify(sortKeys(document), null, 2)}\n`;
}

/** A file's zod schema as an editor JSON Schema (input side), titled and described: the target and rules files'. */
export function renderFileJsonSchema(schema: z.ZodType, title: string, description: string): string {
  const generated = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' });
  return jsonSchemaText({ ...generated, title, description });
}

/** The metadata key of a field's range text (duration.ts, probability.ts, agent/agent-kit.ts `usdcAmount`). */
export const RANGE_KEY = 'x-range';

/**
 * Folds every `x-range` into its node's description — "time between bets (duration 1s to 1d)" —
 * and drops the key: editors show descriptions, not custom keywords, and a field's own
 * .describe() would otherwise hide its range. A description that already names the range keeps it once.
 */
export function foldRanges(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(foldRanges);
  if (typeof node !== 'object' || node === null) return node;
  const folded: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) if (key !== RANGE_KEY) folded[key] = foldRanges(value);
  const range = (node as Record<string, unknown>)[RANGE_KEY];
  if (typeof range === 'string') {
    const description = typeof folded['description'] === 'string' ? folded['description'] : '';
    const bare = range.replace(/^duration /, '');
    folded['description'] =
      description === ''
        ? range
        : description.includes(bare)
          ? description
          : description.endsWith(')')
            ? `${description.slice(0, -1)}; ${range})`
            : `${description} (${range})`;
  }
  return folded;
}

/**
 * One archetype's parameters as JSON Schema (input side, no `$schema`): what the editor schema
 * embeds (ranges folded into descriptions) and what `afp agents` lists (`fold: false` keeps each
 * `x-range` apart, for its range column), so the two never disagree.
 */
export function archetypeParamsJsonSchema(
  params: z.ZodType,
  options: { readonly fold?: boolean } = {},
): Record<string, unknown> {
  const { $schema: _schema, ...schema } = z.toJSONSchema(params, { io: 'input', target: 'draft-2020-12' }) as Record<
    string,
    unknown
  >;
  return options.fold === false ? schema : (foldRanges(schema) as Record<string, unknown>);
}

/**
 * The editor schema's exact bytes (sorted keys, 2-space indent, trailing newline).
 * `archetypes` (the agents/ registry's params schemas, passed in: src/scenario does not import the
 * registry) make each population's `params` the schema of its `agent`, so editors complete and
 * check every archetype's parameters, with their descriptions and ranges: population items are a
 * `oneOf` on `agent`. `descriptions` (each archetype's one line) describe the entries.
 */
export function renderScenarioJsonSchema(
  archetypes: Readonly<Record<string, z.ZodType>>,
  descriptions: Readonly<Record<string, string>> = {},
): string {
  const generated = foldRanges(z.toJSONSchema(scenarioFileSchema, { io: 'input', target: 'draft-2020-12' })) as Record<
    string,
    unknown
  > & { properties: Record<string, { items?: Record<string, unknown> }> };
  const population = generated.properties['populations']?.items as { properties: Record<string, unknown> } & Record<
    string,
    unknown
  >;
  const names = Object.keys(archetypes).sort();
  // Each params schema's own $defs move to the document's, renamed per archetype (a $ref is resolved from the document root).
  const defs: Record<string, unknown> = { ...((generated['$defs'] as Record<string, unknown> | undefined) ?? {}) };
  const items = {
    oneOf: names.map((name) => {
      const { $defs: own, ...params } = archetypeParamsJsonSchema(archetypes[name] as z.ZodType);
      const renamed = (text: string): string => text.replaceAll('"#/$defs/', `"#/$defs/${name}.`);
      for (const [key, value] of Object.entries((own as Record<string, unknown> | undefined) ?? {}))
        defs[`${name}.${key}`] = JSON.parse(renamed(JSON.stringify(value))) as unknown;
      const paramsSchema = JSON.parse(renamed(JSON.stringify(params))) as Record<string, unknown>;
      const summary = descriptions[name];
      const agent = {
        const: name,
        description: summary === undefined ? `agent archetype ${name}` : `agent archetype ${name}: ${summary}`,
      };
      return {
        ...population,
        properties: {
          ...population.properties,
          agent,
          params: { ...paramsSchema, description: `${name}'s parameters (every one optional, with its default)` },
        },
      };
    }),
  };
  const populations = { ...generated.properties['populations'], items };
  const document = {
    ...generated,
    ...(Object.keys(defs).length === 0 ? {} : { $defs: defs }),
    properties: { ...generated.properties, populations },
    title: 'afp scenario',
    description: `An afp scenario file (afp run FILE). Durations match ${DURATION_PATTERN_TEXT}. Generated by scripts/gen-schema.ts; do not edit.`,
  };
  return jsonSchemaText(document);
}
