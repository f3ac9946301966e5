// Replay set-up, the pure parts: the header's `platform` and `tiers` as the recorder writes them
// and the reader checks them; the platform comparison (one `setup` difference per differing
// setting); the tier plan (one call per listed agent right after its key was issued; a refused
// call is a difference, an unsupported one a single note and no more calls); hints and notes.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { JsonValue } from '../../src/core/errors.ts';
import { parseRecordHeader } from '../../src/replay/record-reader.ts';
import {
  recordedPlatformOf,
  recordedTiersOf,
  type RecordedExchange,
  type RecordedPlatform,
} from '../../src/replay/record-format.ts';
import { createRecorder } from '../../src/replay/recorder.ts';
import {
  DepositPlan,
  parsePlatformView,
  platformFindings,
  setupCommand,
  TierPlan,
  unverifiableNote,
  type DepositCall,
  type SetupOutcome,
  type TierCall,
  type TierOutcome,
} from '../../src/replay/replay-setup.ts';
import { runReplay } from '../../src/replay/replay-run.ts';
import { ReferenceIndex, ReplaySession } from '../../src/replay/replay-session.ts';

const HEADER = {
  format: 'afp-record/1',
  scenario: 's',
  seed: '7',
  start_ms: 1_000,
  end_ms: 2_000,
  exchanges: 1,
  complete: true,
  identifier_rule: 'afp-identifier/1',
  dropped: { exchanges: 0, index_values: 0, bodies: 0, sites: 0 },
};
const RELEASE: RecordedPlatform = {
  dispute_outcome: 'release',
  faults: [{ service: 'escrow', from_ms: 5_000, until_ms: 9_000, status: 503 }],
};

function registration(seq: number, agentId: string, status = 201): RecordedExchange {
  const body: JsonValue =
    status === 201 ? { agent_id: agentId, api_key: `sk_live_${'a'.repeat(48)}` } : { error: 'taken', code: 'CONFLICT' };
  return {
    seq,
    at_ms: 1_000 + seq,
    agent: agentId,
    request: { mount: 'api', method: 'POST', path: '/register', query: {}, headers: {}, body: { agent_id: agentId } },
    response: { status, headers: {}, body },
    provenance: [],
    introduced: ['body/agent_id'],
  };
}

describe('the record header', () => {
  test('the recorder writes the platform settings and the tiers (sorted), and the reader accepts them', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'afp-setup-'));
    try {
      const recorder = createRecorder({
        scenario: 's',
        seed: 3,
        startMs: 1_000,
        platform: {
          disputeOutcome: 'release',
          faults: [{ service: 'escrow', fromMs: 5_000, untilMs: 9_000, status: 503 }],
        },
      });
      recorder.onTier('zed-1', 'enterprise');
      recorder.onTier('abe-2', 'pro');
      expect(() => recorder.onTier('abe-2', 'pro')).toThrow(/recorded once/);
      await recorder.finish(join(directory, 'r.jsonl'));
      const line = (await readFile(join(directory, 'r.jsonl'), 'utf8')).split('\n')[0] as string;
      expect(line).toContain('"tiers":{"abe-2":"pro","zed-1":"enterprise"}');
      const parsed = parseRecordHeader(line);
      expect(parsed.ok).toBe(true);
      if (parsed.ok) {
        expect(recordedPlatformOf(parsed.value)).toEqual({ ...RELEASE, casino_closures: [] });
        expect(recordedTiersOf(parsed.value)).toEqual({ 'abe-2': 'pro', 'zed-1': 'enterprise' });
      }
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  test('an old header (no platform, no tiers) reads as the defaults', () => {
    const parsed = parseRecordHeader(JSON.stringify(HEADER));
    expect(parsed.ok).toBe(true);
    if (parsed.ok) {
      expect(recordedPlatformOf(parsed.value)).toEqual({ dispute_outcome: 'refund', faults: [] });
      expect(recordedTiersOf(parsed.value)).toEqual({});
    }
  });

  test('bad platform and tiers fields are each named', () => {
    const bad = parseRecordHeader(
      JSON.stringify({
        ...HEADER,
        platform: {
          dispute_outcome: 'split',
          faults: [{ service: 'bank', from_ms: 9, until_ms: 9, status: 502, extra: 1 }],
          more: true,
        },
        tiers: { 'ok-1': 'pro', 'has space': 'pro', 'x-2': 'free' },
      }),
    );
    expect(bad).toEqual({
      ok: false,
      errors: [
        'line 1 (header): platform has unknown key more',
        "line 1 (header): platform.dispute_outcome must be 'refund' or 'release'",
        'line 1 (header): platform.faults[0] has unknown key extra',
        'line 1 (header): platform.faults[0].service must be one of faucet, escrow, trading, domains, wallet, casino',
        'line 1 (header): platform.faults[0] must have integers 0 ≤ from_ms < until_ms',
        'line 1 (header): platform.faults[0].status must be 500 or 503',
        "line 1 (header): tiers must map agent ids to 'pro' or 'enterprise' (2 bad, first \"has space\")",
      ],
    });
  });

  test('bad trading and domain fields are each named; good ones are read back', () => {
    const good = {
      dispute_outcome: 'refund',
      faults: [],
      trading_shocks: [{ base: 'BTC', at_ms: 7_000, move_bps: -3000 }],
      market_closures: [{ symbol: '*', from_ms: 1, until_ms: 2 }],
      domain_year_ms: 86_400_000,
      domain_grace_ms: 0,
    };
    const parsed = parseRecordHeader(JSON.stringify({ ...HEADER, platform: good }));
    expect(parsed.ok && recordedPlatformOf(parsed.value)).toEqual(good);
    const bad = parseRecordHeader(
      JSON.stringify({
        ...HEADER,
        platform: {
          ...good,
          trading_shocks: [{ base: 'BTC', at_ms: -1, move_bps: -10_000, size: 1 }],
          market_closures: [{ symbol: 'no space', from_ms: 5, until_ms: 5 }],
          domain_year_ms: 0,
          domain_grace_ms: 1.5,
        },
      }),
    );
    expect(bad).toEqual({
      ok: false,
      errors: [
        'line 1 (header): platform.trading_shocks[0] has unknown key size',
        'line 1 (header): platform.trading_shocks[0].at_ms must be a non-negative integer',
        'line 1 (header): platform.trading_shocks[0].move_bps must be an integer above -10000 and at most 100000',
        "line 1 (header): platform.market_closures[0].symbol must be a market symbol or '*'",
        'line 1 (header): platform.market_closures[0] must have integers 0 ≤ from_ms < until_ms',
        'line 1 (header): platform.domain_year_ms must be a positive integer of milliseconds',
        'line 1 (header): platform.domain_grace_ms must be a non-negative integer of milliseconds',
      ],
    });
  });
});

describe('platform settings', () => {
  test('one setup finding per differing setting, faults by position', () => {
    const served: RecordedPlatform = {
      dispute_outcome: 'refund',
      faults: [
        { service: 'escrow', from_ms: 5_000, until_ms: 8_000, status: 503 },
        { service: 'faucet', from_ms: 1, until_ms: 2, status: 500 },
      ],
    };
    expect(platformFindings(RELEASE, RELEASE)).toEqual([]);
    expect(platformFindings(RELEASE, served)).toEqual([
      { kind: 'setup', pointer: 'platform/dispute_outcome', expected: 'release', actual: 'refund' },
      { kind: 'setup', pointer: 'platform/faults/0', expected: RELEASE.faults[0], actual: served.faults[0] },
      { kind: 'setup', pointer: 'platform/faults/1', expected: null, actual: served.faults[1] },
    ]);
  });

  test("the target's answer is read strictly", () => {
    expect(
      parsePlatformView({
        dispute_outcome: 'release',
        faults: [{ service: 'escrow', from_ms: 5_000, until_ms: 9_000, status: 503 }],
      }),
    ).toEqual({ ...RELEASE, casino_closures: [], trading_shocks: [], market_closures: [] });
    const served = {
      dispute_outcome: 'refund',
      faults: [],
      trading_shocks: [{ base: 'BTC', at_ms: 7_000, move_bps: -3000 }],
      market_closures: [{ symbol: 'SOL-PERP', from_ms: 1, until_ms: 2 }],
      domain_year_ms: 86_400_000,
      domain_grace_ms: 0,
    };
    expect(parsePlatformView(served)).toEqual({ ...served, casino_closures: [] });
    expect(parsePlatformView({ ...served, trading_shocks: [{ base: 'BTC', at_ms: 7_000 }] })).toBeNull();
    expect(parsePlatformView({ ...served, market_closures: 'SOL-PERP' })).toBeNull();
    expect(parsePlatformView({ ...served, domain_grace_ms: -1 })).toBeNull();
    expect(parsePlatformView({ dispute_outcome: 'release' })).toBeNull();
    expect(
      parsePlatformView({
        dispute_outcome: 'refund',
        faults: [{ service: 'escrow', from_ms: '5', until_ms: 9, status: 503 }],
      }),
    ).toBeNull();
    expect(parsePlatformView('ok')).toBeNull();
  });

  test('trading shocks, market closures and the domain year and grace: a finding each, absent read as none or the default', () => {
    const recorded: RecordedPlatform = {
      dispute_outcome: 'refund',
      faults: [],
      trading_shocks: [{ base: 'BTC', at_ms: 7_000, move_bps: -3000 }],
      market_closures: [{ symbol: 'SOL-PERP', from_ms: 1, until_ms: 2 }],
      domain_year_ms: 86_400_000,
      domain_grace_ms: 30 * 86_400_000,
    };
    const plain: RecordedPlatform = { dispute_outcome: 'refund', faults: [] };
    expect(platformFindings(recorded, recorded)).toEqual([]);
    expect(platformFindings(recorded, plain)).toEqual([
      {
        kind: 'setup',
        pointer: 'platform/trading_shocks/0',
        expected: { base: 'BTC', at_ms: 7_000, move_bps: -3000 },
        actual: null,
      },
      {
        kind: 'setup',
        pointer: 'platform/market_closures/0',
        expected: { symbol: 'SOL-PERP', from_ms: 1, until_ms: 2 },
        actual: null,
      },
      { kind: 'setup', pointer: 'platform/domain_year_ms', expected: 86_400_000, actual: 365 * 86_400_000 },
    ]);
    // The default lengths written out equal the lengths left out.
    expect(
      platformFindings({ ...plain, domain_year_ms: 365 * 86_400_000, domain_grace_ms: 30 * 86_400_000 }, plain),
    ).toEqual([]);
    expect(
      setupCommand({
        platform: { ...plain, domain_grace_ms: 0 },
        startMs: 0,
        scenarioName: 'x',
        scenarioFile: 'scenarios/x.yaml',
      }),
    ).toBe('afp serve --clock manual --scenario scenarios/x.yaml');
    expect(unverifiableNote(recorded, 'why')).toBe(
      "the target's platform settings cannot be verified (why); the record has 1 trading price shock(s) and 1 market closure(s): quotes, fills and orders on those markets will differ unless the target has them too; the record's domain year (86400000 ms) and grace (2592000000 ms) are not the defaults: domain expiries and prices will differ on a target with the defaults",
    );
  });

  test('the fix names afp serve --scenario, or the plain flags for a default record; the note says what will differ', () => {
    expect(setupCommand({ platform: RELEASE, startMs: 0, scenarioName: 'x', scenarioFile: 'scenarios/x.yaml' })).toBe(
      'afp serve --clock manual --scenario scenarios/x.yaml',
    );
    expect(setupCommand({ platform: RELEASE, startMs: 0, scenarioName: 'x', scenarioFile: null })).toBe(
      "afp serve --clock manual --scenario <the file of scenario 'x'>",
    );
    expect(
      setupCommand({
        platform: { dispute_outcome: 'refund', faults: [] },
        startMs: 0,
        scenarioName: 'x',
        scenarioFile: null,
      }),
    ).toBe(
      'afp serve --clock manual --start 1970-01-01T00:00:00.000Z (no --scenario: the record has the default settings)',
    );
    expect(unverifiableNote({ dispute_outcome: 'refund', faults: [] }, 'why')).toBe(
      "the target's platform settings cannot be verified (why)",
    );
    expect(unverifiableNote(RELEASE, 'why')).toBe(
      "the target's platform settings cannot be verified (why); the record has 1 fault window(s): responses inside them will differ unless the target fails the same way; disputes ended by their window resolve with 'release' in the record and will differ on a target with the default",
    );
  });
});

describe('tier calls', () => {
  test('one call per listed agent, right after the answer that issued its key', () => {
    const plan = new TierPlan({ 'pro-1': 'pro' });
    expect(plan.callAfter(registration(1, 'free-1'))).toBeNull();
    expect(plan.callAfter(registration(2, 'pro-1', 409))).toBeNull();
    expect(plan.callAfter(registration(3, 'pro-1'))).toEqual({ seq: 3, agentId: 'pro-1', tier: 'pro' });
    expect(plan.callAfter(registration(4, 'pro-1'))).toBeNull();
  });

  test('a refused call is a setup difference at its exchange; an unsupported one is noted once and ends the calls', async () => {
    const tiers = { 'a-1': 'pro', 'b-2': 'enterprise', 'c-3': 'pro' } as const;
    const answers: TierOutcome[] = [
      { kind: 'refused', status: 404, message: "no agent 'a-1'" },
      { kind: 'unsupported', status: 404 },
    ];
    const calls: TierCall[] = [];
    const session = new ReplaySession({ references: new ReferenceIndex(), exactTime: true, tiers });
    const record = [registration(1, 'a-1'), registration(2, 'b-2'), registration(3, 'c-3')];
    const stop = await runReplay(record, session, {
      beforeSend: () => Promise.resolve(),
      send: (request) =>
        Promise.resolve({
          status: 201,
          headers: {},
          body: { agent_id: (request.body as { agent_id: string }).agent_id, api_key: `sk_live_${'a'.repeat(48)}` },
        }),
      applyTier: (call) => {
        calls.push(call);
        return Promise.resolve(answers[calls.length - 1] as TierOutcome);
      },
    });
    expect(stop).toBeNull();
    expect(calls.map((call) => call.agentId)).toEqual(['a-1', 'b-2']);
    const totals = session.totals();
    expect(totals.sent).toBe(3);
    expect(totals.setupCalls).toBe(2);
    expect(totals.differences).toEqual([
      {
        seq: 1,
        endpoint: '_afp/tier',
        kind: 'setup',
        pointer: 'tier/a-1',
        expected: 'pro',
        actual: 'not applied (HTTP 404)',
        note: "no agent 'a-1'",
      },
    ]);
    expect(totals.notes).toEqual([
      "the target has no POST /_afp/tier (answered 404): the record's 3 pro/enterprise agent(s) keep the target's default tier, so their rate-limit headers and 429s will differ",
    ]);
  });
});

describe('casino starting-deposit calls', () => {
  const DEPOSIT = { chain: 'base', amount: '25.00' };

  test('one call per listed agent, right after the answer that issued its key', () => {
    const plan = new DepositPlan({ 'bettor-1': DEPOSIT });
    expect(plan.listed).toBe(1);
    expect(plan.callAfter(registration(1, 'other-1'))).toBeNull();
    expect(plan.callAfter(registration(2, 'bettor-1', 409))).toBeNull();
    expect(plan.callAfter(registration(3, 'bettor-1'))).toEqual({ seq: 3, agentId: 'bettor-1', deposit: DEPOSIT });
    expect(plan.callAfter(registration(4, 'bettor-1'))).toBeNull();
  });

  test('sent after the tier call of the same exchange; refused is a setup difference, unsupported is noted once and ends the calls', async () => {
    const order: string[] = [];
    const answers: SetupOutcome[] = [
      { kind: 'refused', status: 404, message: "no agent 'a-1'" },
      { kind: 'unsupported', status: 404 },
    ];
    const calls: DepositCall[] = [];
    const session = new ReplaySession({
      references: new ReferenceIndex(),
      exactTime: true,
      tiers: { 'a-1': 'pro' },
      deposits: { 'a-1': DEPOSIT, 'b-2': DEPOSIT, 'c-3': DEPOSIT },
    });
    const stop = await runReplay([registration(1, 'a-1'), registration(2, 'b-2'), registration(3, 'c-3')], session, {
      beforeSend: () => Promise.resolve(),
      send: (request) =>
        Promise.resolve({
          status: 201,
          headers: {},
          body: { agent_id: (request.body as { agent_id: string }).agent_id, api_key: `sk_live_${'a'.repeat(48)}` },
        }),
      applyTier: (call) => {
        order.push(`tier ${call.agentId}`);
        return Promise.resolve({ kind: 'applied' });
      },
      applyDeposit: (call) => {
        order.push(`deposit ${call.agentId}`);
        calls.push(call);
        return Promise.resolve(answers[calls.length - 1] as SetupOutcome);
      },
    });
    expect(stop).toBeNull();
    expect(order).toEqual(['tier a-1', 'deposit a-1', 'deposit b-2']);
    const totals = session.totals();
    expect(totals.setupCalls).toBe(3);
    expect(totals.differences).toEqual([
      {
        seq: 1,
        endpoint: '_afp/casino/deposit',
        kind: 'setup',
        pointer: 'deposit/a-1',
        expected: DEPOSIT,
        actual: 'not applied (HTTP 404)',
        note: "no agent 'a-1'",
      },
    ]);
    expect(totals.notes).toEqual([
      "the target has no POST /_afp/casino/deposit (answered 404): the record's 3 agent(s) with a casino starting deposit start with no casino funds, so their bets will differ",
    ]);
  });
});
