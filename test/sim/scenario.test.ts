// Scenario files: a valid file parses to the exact Scenario; every kind of mistake is reported
// with its path and line, all of them at once; durations read by one table; the editor JSON
// Schema committed in schemas/ is what scripts/gen-schema.ts would write today.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { describe, expect, test } from 'vitest';
import { DURATION_PATTERN_TEXT, durationMs, formatDuration, parseDuration } from '../../src/scenario/duration.ts';
import {
  formatScenarioErrors,
  parseScenario,
  type ScenarioError,
  type ScenarioResult,
} from '../../src/scenario/scenario.ts';
import { renderScenarioJsonSchema } from '../../src/scenario/scenario-schema.ts';
import { ARCHETYPE_DESCRIPTIONS, ARCHETYPE_PARAMS } from '../../agents/index.ts';

const root = join(import.meta.dirname, '..', '..');

// Stand-ins for the archetypes' own params schemas (the real ones live in agents/).
const STAND_INS: Record<string, z.ZodType> = {
  'escrow-buyer': z.strictObject({
    release_pct: z.int().min(0).max(100).default(60),
    expires_in: durationMs({ minMs: 1_000, maxMs: 90 * 86_400_000 }).optional(),
  }),
  'faucet-farmer': z.strictObject({ claims_per_day: z.int().min(1).max(10).default(1) }),
};

function parse(text: string): ScenarioResult {
  return parseScenario(text, {
    fileName: 'test.yaml',
    agentParams: (agent) => STAND_INS[agent],
    knownAgents: Object.keys(STAND_INS),
  });
}

function errorsOf(text: string): readonly ScenarioError[] {
  const result = parse(text);
  if (result.ok) throw new Error('expected the scenario to be refused');
  return result.errors;
}

const VALID = `# a scenario like the design's example
name: escrow-expiry
seed: 42
duration: 7d
populations:
  - agent: escrow-buyer
    count: 500
    params: { release_pct: 60, expires_in: 6h }
  - agent: faucet-farmer
    count: 200
    tier: pro
    style: mixed
faults:
  - { service: escrow, from: 2d, for: 1h, answer: 500 }
  - { service: faucet, from: 0s, for: 30m }
invariants: [conservation, no-negative-balance, escrow-settles-once]
reports: [summary, events]
platform:
  dispute_outcome: release
limits:
  max_agents: 1000
`;

describe('a valid scenario', () => {
  test('parses to the exact Scenario, defaults applied', () => {
    expect(parse(VALID)).toStrictEqual({
      ok: true,
      scenario: {
        name: 'escrow-expiry',
        seed: '42',
        startMs: Date.UTC(2026, 0, 1),
        durationMs: 7 * 86_400_000,
        populations: [
          {
            agent: 'escrow-buyer',
            count: 500,
            tier: 'free',
            style: 'B',
            params: { release_pct: 60, expires_in: 6 * 3_600_000 },
          },
          { agent: 'faucet-farmer', count: 200, tier: 'pro', style: 'mixed', params: { claims_per_day: 1 } },
        ],
        faults: [
          { service: 'escrow', fromMs: 2 * 86_400_000, forMs: 3_600_000, answer: 500 },
          { service: 'faucet', fromMs: 0, forMs: 1_800_000, answer: 503 },
        ],
        invariants: ['conservation', 'no-negative-balance', 'escrow-settles-once'],
        reports: ['summary', 'events'],
        platform: { disputeOutcome: 'release' },
        casino: { startingDepositMicro: null, closures: [] },
        trading: { shocks: [], closures: [] },
        wallet: { startingFunds: [] },
        limits: { maxAgents: 1000, maxRequests: 50_000_000, maxEvents: 50_000_000 },
        load: null,
        livenessMs: null,
      },
    });
  });

  test('a minimal file gets every default', () => {
    const result = parse(
      'name: tiny\nduration: 1h\nstart: 2026-03-04T05:06:07Z\npopulations:\n  - { agent: faucet-farmer, count: 1 }\n',
    );
    expect(result).toStrictEqual({
      ok: true,
      scenario: {
        name: 'tiny',
        seed: '1',
        startMs: Date.UTC(2026, 2, 4, 5, 6, 7),
        durationMs: 3_600_000,
        populations: [{ agent: 'faucet-farmer', count: 1, tier: 'free', style: 'B', params: { claims_per_day: 1 } }],
        faults: [],
        invariants: [
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
        ],
        reports: [
          'summary',
          'agents',
          'endpoints',
          'escrows',
          'events',
          'casino',
          'html',
          'orders',
          'positions',
          'domains',
          'referrals',
          'wallet',
        ],
        platform: {},
        casino: { startingDepositMicro: null, closures: [] },
        trading: { shocks: [], closures: [] },
        wallet: { startingFunds: [] },
        limits: { maxAgents: 100_000, maxRequests: 50_000_000, maxEvents: 50_000_000 },
        load: null,
        livenessMs: null,
      },
    });
  });

  test('a text seed stays text', () => {
    const result = parse('name: s\nseed: "0xfeed"\nduration: 1s\npopulations: [{ agent: faucet-farmer, count: 1 }]\n');
    expect(result.ok && result.scenario.seed).toBe('0xfeed');
  });
});

const MANY_MISTAKES = `name: Bad_Name
seed: 1.5
duration: 7 days
populations:
  - agent: escrow-buyer
    count: 200000
    colour: red
    params:
      release_pct: 150
      relese: 3
  - agent: ghost
    count: 1
faults:
  - { service: escrow, from: 2d, for: 1h, answer: 502 }
invariants: [conservation, money-printer]
reports: [summary]
reports: [events]
`;

describe('a file with many mistakes', () => {
  test('reports every one of them, with paths and lines, in line order', () => {
    expect(errorsOf(MANY_MISTAKES)).toStrictEqual([
      { path: 'name', line: 1, message: 'name is 1 to 64 characters of a-z, 0-9 and -' },
      {
        path: 'seed',
        line: 2,
        message:
          'seed is a whole number below 2^53 or a text of 1 to 128 printable characters without spaces (quote longer numbers)',
      },
      {
        path: 'duration',
        line: 3,
        message: "'7 days' is not a duration: write an integer and a unit (ms, s, m, h, d), e.g. 30s, 6h, 7d",
      },
      { path: 'populations', line: 5, message: '200001 agents in all, more than the default limit of 100000' },
      { path: 'populations[0].count', line: 6, message: 'must be at most 100000 (agents in this population)' },
      { path: 'populations[0].colour', line: 7, message: "unknown key 'colour'" },
      { path: 'populations[0].params.release_pct', line: 9, message: 'Too big: expected number to be <=100' },
      { path: 'populations[0].params.relese', line: 10, message: "unknown key 'relese'" },
      {
        path: 'populations[1].agent',
        line: 11,
        message: "unknown agent 'ghost'; known agents: escrow-buyer, faucet-farmer",
      },
      { path: 'faults[0].answer', line: 14, message: 'Invalid option: expected one of 500|503' },
      {
        path: 'invariants[1]',
        line: 15,
        message: expect.stringContaining('Invalid option: expected one of "conservation"|"no-negative-balance"'),
      },
      { path: 'reports', line: 17, message: "duplicate key 'reports' (first at line 16)" },
    ]);
  });

  test('formats as file:line path: message lines', () => {
    const text = formatScenarioErrors('scenarios/bad.yaml', errorsOf(MANY_MISTAKES));
    const lines = text.split('\n');
    expect(lines).toHaveLength(12);
    expect(lines[0]).toBe('scenarios/bad.yaml:1 name: name is 1 to 64 characters of a-z, 0-9 and -');
    expect(lines[7]).toBe("scenarios/bad.yaml:10 populations[0].params.relese: unknown key 'relese'");
  });

  test('errors without a line or a path still format', () => {
    expect(
      formatScenarioErrors('f.yaml', [
        { path: '', message: 'too big' },
        { path: 'name', message: 'bad' },
        { path: '', message: 'syntax', line: 3 },
      ]),
    ).toBe('f.yaml: too big\nf.yaml name: bad\nf.yaml:3: syntax');
  });
});

const BASE = 'name: one\nduration: 7d\npopulations:\n  - agent: escrow-buyer\n    count: 10\n';

describe('each mistake alone', () => {
  const cases: readonly { what: string; text: string; path: string; line?: number; message: string | RegExp }[] = [
    { what: 'YAML syntax error', text: 'name: [one\nduration: 7d\n', path: '', line: 2, message: /^YAML: / },
    {
      // The reproduce line passes the seed as --seed, which refuses a space: the file takes what the flag takes.
      what: 'seed with a space',
      text: `${BASE}seed: 'a b'\n`,
      path: 'seed',
      line: 6,
      message: /printable characters without spaces/,
    },
    {
      // A run that writes no report has no digest to tell it from another (SHA-256 of nothing).
      what: 'no report at all',
      text: `${BASE}reports: []\n`,
      path: 'reports',
      line: 6,
      message: /reports names at least one report/,
    },
    {
      what: 'unknown top-level key',
      text: `${BASE}colour: red\n`,
      path: 'colour',
      line: 6,
      message: "unknown key 'colour'",
    },
    {
      what: 'unknown key in a population',
      text: `${BASE}    colour: red\n`,
      path: 'populations[0].colour',
      line: 6,
      message: "unknown key 'colour'",
    },
    {
      what: 'unknown key in params',
      text: `${BASE}    params: { relese: 1 }\n`,
      path: 'populations[0].params.relese',
      line: 6,
      message: "unknown key 'relese'",
    },
    {
      what: 'unknown key in a fault',
      text: `${BASE}faults: [{ service: escrow, from: 1d, for: 1h, until: 2d }]\n`,
      path: 'faults[0].until',
      line: 6,
      message: "unknown key 'until'",
    },
    {
      what: 'unknown key in limits',
      text: `${BASE}limits: { max_agent: 5 }\n`,
      path: 'limits.max_agent',
      line: 6,
      message: "unknown key 'max_agent'",
    },
    {
      what: 'wrong type',
      text: 'name: one\nduration: 7d\npopulations:\n  - agent: escrow-buyer\n    count: ten\n',
      path: 'populations[0].count',
      line: 5,
      message: 'expected a whole number (agents in this population)',
    },
    {
      what: 'fractional count',
      text: 'name: one\nduration: 7d\npopulations:\n  - agent: escrow-buyer\n    count: 1.5\n',
      path: 'populations[0].count',
      line: 5,
      message: 'expected a whole number (agents in this population)',
    },
    {
      what: 'params not a mapping',
      text: `${BASE}    params: [1, 2]\n`,
      path: 'populations[0].params',
      line: 6,
      message: /expected record/,
    },
    {
      what: 'missing required key',
      text: 'name: one\npopulations:\n  - agent: escrow-buyer\n    count: 10\n',
      path: 'duration',
      line: 1,
      message: "required key 'duration' is missing",
    },
    {
      what: 'missing count',
      text: 'name: one\nduration: 1d\npopulations:\n  - agent: escrow-buyer\n',
      path: 'populations[0].count',
      line: 4,
      message: "required key 'count' is missing",
    },
    {
      what: 'duration with words',
      text: BASE.replace('7d', '7 days'),
      path: 'duration',
      line: 2,
      message: /is not a duration/,
    },
    { what: 'negative duration', text: BASE.replace('7d', '-1h'), path: 'duration', line: 2, message: /is negative/ },
    {
      what: 'fractional duration',
      text: BASE.replace('7d', '1.5d'),
      path: 'duration',
      line: 2,
      message: /has a fraction: use a whole number of a smaller unit/,
    },
    {
      what: 'duration without a unit',
      text: BASE.replace('7d', '"7"'),
      path: 'duration',
      line: 2,
      message: /has no unit/,
    },
    {
      what: 'duration as a number',
      text: BASE.replace('7d', '7'),
      path: 'duration',
      line: 2,
      message: /expected a duration text/,
    },
    {
      what: 'duration too short',
      text: BASE.replace('7d', '999ms'),
      path: 'duration',
      line: 2,
      message: "duration '999ms' is shorter than the minimum 1s",
    },
    {
      what: 'duration too long',
      text: BASE.replace('7d', '366d'),
      path: 'duration',
      line: 2,
      message: "duration '366d' is longer than the maximum 365d",
    },
    {
      what: 'bad param duration',
      text: `${BASE}    params: { expires_in: 6 hours }\n`,
      path: 'populations[0].params.expires_in',
      line: 6,
      message: /is not a duration/,
    },
    {
      what: 'unknown agent',
      text: BASE.replace('escrow-buyer', 'ghost'),
      path: 'populations[0].agent',
      line: 4,
      message: "unknown agent 'ghost'; known agents: escrow-buyer, faucet-farmer",
    },
    {
      what: 'unknown invariant',
      text: `${BASE}invariants: [conservation, money-printer]\n`,
      path: 'invariants[1]',
      line: 6,
      message: /^Invalid option: expected one of "conservation"/,
    },
    {
      what: 'invariant listed twice',
      text: `${BASE}invariants: [conservation, conservation]\n`,
      path: 'invariants[1]',
      line: 6,
      message: "'conservation' is listed twice",
    },
    {
      what: 'unknown report',
      text: `${BASE}reports: [pdf]\n`,
      path: 'reports[0]',
      line: 6,
      message: /^Invalid option/,
    },
    {
      what: 'closure of an unknown game',
      text: `${BASE}casino: { closures: [{ game: poker, from: 1d, for: 1h }] }\n`,
      path: 'casino.closures[0].game',
      line: 6,
      message: /^Invalid option/,
    },
    {
      what: 'closure ending after the run',
      text: `${BASE}casino: { closures: [{ game: dice, from: 6d, for: 2d }] }\n`,
      path: 'casino.closures[0].for',
      line: 6,
      message: 'closure ends at 8d, after the run ends (duration 7d)',
    },
    {
      what: 'starting deposit of zero',
      text: `${BASE}casino: { starting_deposit: '0' }\n`,
      path: 'casino.starting_deposit',
      line: 6,
      message: /must be above 0/,
    },
    {
      what: 'starting deposit with 7 decimals',
      text: `${BASE}casino: { starting_deposit: '1.0000001' }\n`,
      path: 'casino.starting_deposit',
      line: 6,
      message: /at most 6 decimals/,
    },
    {
      what: 'shock of an unlisted asset',
      text: `${BASE}trading: { shocks: [{ market: NOPE, at: 1d, move_bps: -3000 }] }\n`,
      path: 'trading.shocks[0].market',
      line: 6,
      message: /an asset the venue lists/,
    },
    {
      what: 'shock wiping out the price',
      text: `${BASE}trading: { shocks: [{ market: BTC, at: 1d, move_bps: -10000 }] }\n`,
      path: 'trading.shocks[0].move_bps',
      line: 6,
      message: /./,
    },
    {
      what: 'closure of an unknown market',
      text: `${BASE}trading: { closures: [{ market: BTC-FUT, from: 1d, for: 1h }] }\n`,
      path: 'trading.closures[0].market',
      line: 6,
      message: /a listed market symbol/,
    },
    {
      what: 'price shock after the run',
      text: `${BASE}trading: { shocks: [{ market: BTC, at: 7d, move_bps: -3000 }] }\n`,
      path: 'trading.shocks[0].at',
      line: 6,
      message: 'shock at 7d, not inside the run (duration 7d)',
    },
    {
      what: 'market closure starting after the run',
      text: `${BASE}trading: { closures: [{ market: BTC-PERP, from: 8d, for: 1h }] }\n`,
      path: 'trading.closures[0].from',
      line: 6,
      message: 'closure starts at 8d, not inside the run (duration 7d)',
    },
    {
      what: 'market closure ending after the run',
      text: `${BASE}trading: { closures: [{ market: '*', from: 6d, for: 2d }] }\n`,
      path: 'trading.closures[0].for',
      line: 6,
      message: 'closure ends at 8d, after the run ends (duration 7d)',
    },
    {
      what: 'unknown fault service',
      text: `${BASE}faults: [{ service: bank, from: 1d, for: 1h }]\n`,
      path: 'faults[0].service',
      line: 6,
      message: /^Invalid option/,
    },
    {
      what: 'fault starting after the run',
      text: `${BASE}faults: [{ service: escrow, from: 7d, for: 1h }]\n`,
      path: 'faults[0].from',
      line: 6,
      message: 'fault starts at 7d, not inside the run (duration 7d)',
    },
    {
      what: 'fault ending after the run',
      text: `${BASE}faults: [{ service: escrow, from: 6d, for: 25h }]\n`,
      path: 'faults[0].for',
      line: 6,
      message: 'fault window ends at 169h, after the run ends (duration 7d)',
    },
    {
      what: 'empty fault window',
      text: `${BASE}faults: [{ service: escrow, from: 1d, for: 0s }]\n`,
      path: 'faults[0].for',
      line: 6,
      message: "duration '0s' is shorter than the minimum 1ms",
    },
    {
      what: 'count over the limit',
      text: `${BASE.replace('count: 10', 'count: 100001')}limits: { max_agents: 1000000 }\n`,
      path: 'populations[0].count',
      line: 5,
      message: 'must be at most 100000 (agents in this population)',
    },
    {
      what: 'zero count',
      text: BASE.replace('count: 10', 'count: 0'),
      path: 'populations[0].count',
      line: 5,
      message: 'must be at least 1 (agents in this population)',
    },
    {
      what: 'total agents over max_agents',
      text: `${BASE}  - { agent: faucet-farmer, count: 5 }\nlimits: { max_agents: 12 }\n`,
      path: 'populations',
      line: 4,
      message: '15 agents in all, more than limits.max_agents of 12',
    },
    {
      what: 'duplicate key',
      text: `${BASE}duration: 1d\n`,
      path: 'duration',
      line: 6,
      message: "duplicate key 'duration' (first at line 2)",
    },
    {
      what: 'duplicate key in params',
      text: `${BASE}    params:\n      release_pct: 1\n      release_pct: 2\n`,
      path: 'populations[0].params.release_pct',
      line: 8,
      message: "duplicate key 'release_pct' (first at line 7)",
    },
    {
      what: 'bad start instant',
      text: `${BASE}start: 2026-02-30T00:00:00Z\n`,
      path: 'start',
      line: 6,
      message: "'2026-02-30T00:00:00Z' is not an ISO 8601 UTC instant such as 2026-01-01T00:00:00Z",
    },
    {
      what: 'start without a zone',
      text: `${BASE}start: 2026-01-01T00:00:00\n`,
      path: 'start',
      line: 6,
      message: /is not an ISO 8601 UTC instant/,
    },
    {
      what: 'bad name',
      text: BASE.replace('name: one', 'name: "has space"'),
      path: 'name',
      line: 1,
      message: 'name is 1 to 64 characters of a-z, 0-9 and -',
    },
    {
      what: 'unknown dispute outcome',
      text: `${BASE}platform: { dispute_outcome: split }\n`,
      path: 'platform.dispute_outcome',
      line: 6,
      message: /^Invalid option/,
    },
    {
      what: 'no populations',
      text: 'name: one\nduration: 1d\npopulations: []\n',
      path: 'populations',
      line: 3,
      message: 'a scenario needs at least one population',
    },
    { what: 'not a mapping', text: '- just\n- a list\n', path: '', line: 1, message: /expected object/ },
    { what: 'empty file', text: '', path: '', message: /expected object/ },
  ];

  test.each(cases)('$what', ({ text, path, line, message }) => {
    const errors = errorsOf(text);
    expect(errors).toHaveLength(1);
    const [error] = errors;
    expect(error?.path).toBe(path);
    expect(error?.line).toBe(line);
    if (typeof message === 'string') expect(error?.message).toBe(message);
    else expect(error?.message).toMatch(message);
  });

  test('a file over the size limit is refused before parsing', () => {
    expect(errorsOf(`${BASE}#${'x'.repeat(1_048_576)}\n`)).toStrictEqual([
      { path: '', message: expect.stringMatching(/^a scenario file is at most 1048576 characters/) },
    ]);
  });

  test('an alias bomb is refused', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]',
    ].join('\n');
    const errors = errorsOf(`${bomb}\n`);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/^YAML: /);
  });
});

describe('durations', () => {
  const table: readonly [string, number | RegExp][] = [
    ['0s', 0],
    ['250ms', 250],
    ['30s', 30_000],
    ['15m', 900_000],
    ['6h', 21_600_000],
    ['7d', 604_800_000],
    ['365d', 31_536_000_000],
    ['7 days', /is not a duration/],
    ['7D', /is not a duration/],
    ['1d12h', /is not a duration/],
    ['-1h', /is negative/],
    ['1.5d', /has a fraction/],
    ['10', /has no unit/],
    ['', /is not a duration/],
    [' 7d', /is not a duration/],
    ['9999999999999999d', /is too large/],
  ];

  test.each(table)('%j', (text, expected) => {
    const parsed = parseDuration(text);
    if (typeof expected === 'number') expect(parsed).toBe(expected);
    else expect(parsed).toMatch(expected);
  });

  test('the JSON Schema pattern accepts exactly the texts parseDuration reads', () => {
    const pattern = new RegExp(DURATION_PATTERN_TEXT);
    for (const [text, expected] of table) {
      if (text === '9999999999999999d') continue; // syntactically fine, too large in ms
      expect(pattern.test(text)).toBe(typeof expected === 'number');
    }
  });

  test('formatDuration picks the largest exact unit', () => {
    expect([0, 1, 1_000, 90_000, 3_600_000, 86_400_000, 90_000_000].map(formatDuration)).toStrictEqual([
      '0ms',
      '1ms',
      '1s',
      '90s',
      '1h',
      '1d',
      '25h',
    ]);
  });

  test('durationMs() enforces its range', () => {
    const schema = durationMs({ minMs: 1_000, maxMs: 60_000 });
    expect(schema.parse('1m')).toBe(60_000);
    expect(schema.safeParse('2m').error?.issues[0]?.message).toBe("duration '2m' is longer than the maximum 1m");
    expect(schema.safeParse('10ms').error?.issues[0]?.message).toBe("duration '10ms' is shorter than the minimum 1s");
  });
});

describe('the editor JSON Schema', () => {
  test('schemas/scenario.schema.json is fresh (run node scripts/gen-schema.ts)', () => {
    expect(readFileSync(join(root, 'schemas', 'scenario.schema.json'), 'utf8')).toBe(
      renderScenarioJsonSchema(ARCHETYPE_PARAMS, ARCHETYPE_DESCRIPTIONS),
    );
  });

  test('rejects unknown keys and requires name, duration and populations', () => {
    const schema = JSON.parse(renderScenarioJsonSchema(ARCHETYPE_PARAMS)) as {
      additionalProperties: boolean;
      required: string[];
    };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toStrictEqual(['name', 'duration', 'populations']);
  });

  test("documents every archetype's parameters: a population's params are its agent's schema, every $ref resolves", () => {
    const text = renderScenarioJsonSchema(ARCHETYPE_PARAMS);
    const schema = JSON.parse(text) as {
      $defs?: Record<string, unknown>;
      properties: {
        populations: {
          items: {
            oneOf: Array<{
              properties: {
                agent: { const: string };
                params: { properties: Record<string, unknown>; additionalProperties: boolean };
              };
            }>;
          };
        };
      };
    };
    const entries = schema.properties.populations.items.oneOf;
    expect(entries.map((entry) => entry.properties.agent.const)).toStrictEqual(Object.keys(ARCHETYPE_PARAMS).sort());
    for (const entry of entries) {
      expect(Object.keys(entry.properties.params.properties).length).toBeGreaterThan(0);
      const shape = (ARCHETYPE_PARAMS[entry.properties.agent.const] as unknown as { shape?: Record<string, unknown> })
        .shape;
      if (shape !== undefined)
        expect(Object.keys(entry.properties.params.properties).sort()).toStrictEqual(Object.keys(shape).sort());
      expect(entry.properties.params.additionalProperties).toBe(false);
    }
    for (const [, name] of text.matchAll(/"#\/\$defs\/([^"]+)"/g))
      expect(schema.$defs).toHaveProperty([name as string]);
  });

  test('every archetype parameter has a description, a default and its range: probabilities 0..1, amounts above 0, durations in words', () => {
    const schema = JSON.parse(renderScenarioJsonSchema(ARCHETYPE_PARAMS, ARCHETYPE_DESCRIPTIONS)) as {
      properties: {
        populations: {
          items: {
            oneOf: Array<{
              properties: {
                agent: { const: string; description: string };
                params: { properties: Record<string, Record<string, unknown>> };
              };
            }>;
          };
        };
      };
    };
    expect(JSON.stringify(schema)).not.toContain('x-range');
    for (const entry of schema.properties.populations.items.oneOf) {
      const name = entry.properties.agent.const;
      expect(entry.properties.agent.description).toBe(`agent archetype ${name}: ${ARCHETYPE_DESCRIPTIONS[name]}`);
      for (const [key, field] of Object.entries(entry.properties.params.properties)) {
        const where = `${name}.${key}`;
        expect(typeof field['description'], where).toBe('string');
        const description = field['description'] as string;
        if (!description.includes('(default')) expect(field, where).toHaveProperty('default');
        if (description.includes('0 to 1, at most 4 decimals'))
          expect([field['minimum'], field['maximum']], where).toEqual([0, 1]);
        if (field['pattern'] === '^[0-9]{1,16}(ms|s|m|h|d)$')
          expect(description, where).toMatch(/duration \d+(ms|s|m|h|d) to \d+(ms|s|m|h|d)/);
        if (description.includes('USDC above 0')) expect(field['exclusiveMinimum'], where).toBe(0);
        const ranged = (node: Record<string, unknown>): boolean =>
          ['minimum', 'maximum', 'enum', 'pattern', 'maxLength', 'maxItems'].some((keyword) => keyword in node);
        const bounded =
          ranged(field) ||
          ((field['anyOf'] as Record<string, unknown>[] | undefined) ?? []).some(ranged) ||
          ['boolean', 'object', 'array'].includes(field['type'] as string) ||
          /USDC above 0/.test(description);
        expect(bounded, `${where} has a range`).toBe(true);
      }
    }
    const buyer = schema.properties.populations.items.oneOf.find(
      (entry) => entry.properties.agent.const === 'escrow-buyer',
    )?.properties.params.properties;
    expect(buyer?.['release']).toMatchObject({
      minimum: 0,
      maximum: 1,
      default: 0.6,
      description: 'weight of escrows the buyer releases (0 to 1, at most 4 decimals)',
    });
    expect(buyer?.['escrow_every']?.['description']).toBe('time between new escrows (duration 1m to 30d)');
  });
});
