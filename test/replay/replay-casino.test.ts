// A casino scenario recorded by `afp run --record` and replayed by `afp replay` against `afp serve`
// on 127.0.0.1: what the simulator does outside HTTP travels with the record and is reproduced on
// the target.
//   - starting deposits (`casino.starting_deposit`): the header lists each agent's; the replay
//     sends POST /_afp/casino/deposit right after that agent's registration (after its tier call);
//   - game closures (`casino.closures`): the header's platform lists them at absolute instants,
//     `afp serve --scenario` closes the game exactly then (GET /_afp/platform shows them), and a
//     served platform without them is named as a `setup` difference;
//   - configured from the scenario, the replay has zero differences; without the deposits it
//     has many (every agent's bets are refused or differ).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import type { RecordHeader, RecordedExchange } from '../../src/replay/record-format.ts';
import { startServe } from '../../src/server/listeners.ts';
import type { Scenario } from '../../src/scenario/scenario.ts';
import { recordScenario, replayRecord, serveFromScenario } from './scenario-replay-fixture.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const START_MS = Date.parse('2026-03-01T00:00:00Z');
const MINUTE_MS = 60_000;
const SCENARIO = `
name: casino-replay
seed: 19
start: 2026-03-01T00:00:00Z
duration: 2h
populations:
  - agent: fixed-bettor
    count: 2
    style: mixed
    params: { game: dice, params: { direction: under, threshold: 50 }, amount: 0.05, every: 2m, closed_wait: 2m }
  - agent: martingale
    count: 2
    params: { game: coin_flip, params: { side: tails }, base: 0.05, max_doublings: 4, every: 2m }
  - agent: batch-bettor
    count: 1
    tier: enterprise
    params: { amount: 0.01, size: 5, every: 5m, mix: [{ game: coin_flip, params: { side: heads } }, { game: crash, params: { cash_out_at: 1.5 } }] }
  - agent: challenger
    count: 2
    params: { amount: 0.50, every: 30m, accept: 0.7 }
  - agent: fairness-checker
    count: 1
    params: { game: custom, params: { win_probability: 75 }, amount: 0.01, every: 5m, rotate_after: 10 }
casino:
  starting_deposit: '25.00'
  closures:
    - { game: dice, from: 40m, for: 30m }
`;

let directory: string;
let recordPath: string;
let scenario: Scenario;
let header: RecordHeader;
let exchanges: RecordedExchange[];

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'afp-replay-casino-'));
  const scenarioFile = join(directory, 'casino-replay.yaml');
  await writeFile(scenarioFile, SCENARIO);
  ({ scenario, recordPath, header, exchanges } = await recordScenario(scenarioFile, directory, 'casino.jsonl'));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const replay = (file: string, target: string, name: string): ReturnType<typeof replayRecord> =>
  replayRecord(file, target, directory, name);

const isDiceBet = (exchange: RecordedExchange): boolean =>
  exchange.request.path.endsWith('/dice') ||
  (exchange.request.path === '/casino-api/bet' &&
    (exchange.request.body as { game?: unknown } | undefined)?.game === 'dice');

describe('recording a casino scenario', () => {
  test('the header lists every agent starting deposit and the closures at absolute instants; the run shows both at work', () => {
    expect(header.platform?.casino_closures).toEqual([
      { game: 'dice', from_ms: START_MS + 40 * MINUTE_MS, until_ms: START_MS + 70 * MINUTE_MS },
    ]);
    const deposits = Object.entries(header.deposits ?? {});
    expect(deposits).toHaveLength(8);
    for (const [, deposit] of deposits) expect(deposit).toEqual({ chain: 'base', amount: '25.00' });
    expect(Object.values(header.tiers ?? {})).toEqual(['enterprise']);
    const dice = exchanges.filter(isDiceBet);
    const inside = dice.filter(
      (exchange) => exchange.at_ms >= START_MS + 40 * MINUTE_MS && exchange.at_ms < START_MS + 70 * MINUTE_MS,
    );
    expect(inside.length).toBeGreaterThan(0);
    expect(inside.every((exchange) => exchange.response.status === 409)).toBe(true);
    expect(dice.filter((exchange) => exchange.response.status === 200).length).toBeGreaterThan(20);
  });
});

describe('replaying a casino scenario', () => {
  test('against afp serve configured from the scenario: zero differences, every deposit made', async () => {
    const handle = await serveFromScenario(scenario);
    try {
      const platform = (await (await fetch(`${handle.urls.api as string}/_afp/platform`)).json()) as Record<
        string,
        unknown
      >;
      expect(platform['casino_closures']).toEqual(header.platform?.casino_closures);
      const { code, output, diff } = await replay(recordPath, handle.urls.api as string, 'configured');
      expect(diff.differences_total, JSON.stringify(diff.differences.slice(0, 5))).toBe(0);
      expect(code, output).toBe(0);
      expect(diff.sent).toBe(exchanges.length);
      expect(diff.setup_calls).toBe(1 + 1 + 8);
      expect(output).toContain(
        "setup: the target's platform settings match the record's (dispute_outcome refund, 0 fault window(s), 1 casino game closure(s))",
      );
    } finally {
      await handle.close({ forceAfterMs: 100 });
    }
  });

  test('a record without its deposits: the bets differ', async () => {
    const lines = (await readFile(recordPath, 'utf8')).split('\n');
    const changed = JSON.parse(lines[0] as string) as Record<string, unknown>;
    delete changed['deposits'];
    lines[0] = JSON.stringify(changed);
    const file = join(directory, 'no-deposits.jsonl');
    await writeFile(file, lines.join('\n'));
    const handle = await serveFromScenario(scenario);
    try {
      const { code, diff } = await replay(file, handle.urls.api as string, 'no-deposits');
      expect(code).toBe(3);
      expect(diff.setup_calls).toBe(1 + 1);
      expect(diff.differences_total).toBeGreaterThan(100);
    } finally {
      await handle.close({ forceAfterMs: 100 });
    }
  });

  test('against a served platform without the closure: a setup difference naming it, and the fix', async () => {
    const handle = await startServe({
      trustedProxies: LOOPBACK_PROXIES,
      routes: ALL_ROUTES,
      seed: scenario.seed,
      port: 0,
      clockMode: 'manual',
      startMs: scenario.startMs,
      log: () => undefined,
    });
    try {
      const { code, output, diff } = await replay(recordPath, handle.urls.api as string, 'no-closure');
      expect(code).toBe(3);
      expect(diff.differences.filter((difference) => difference.kind === 'setup')).toEqual([
        {
          seq: 0,
          endpoint: '_afp/platform',
          kind: 'setup',
          pointer: 'platform/casino_closures/0',
          expected: { game: 'dice', from_ms: START_MS + 40 * MINUTE_MS, until_ms: START_MS + 70 * MINUTE_MS },
          actual: null,
        },
      ]);
      expect(output).toContain('start it as: afp serve --clock manual --scenario');
    } finally {
      await handle.close({ forceAfterMs: 100 });
    }
  });
});
