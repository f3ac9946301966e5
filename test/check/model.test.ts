// The reference model of `afp check` on its own: predictions, commits, timers, the rate budget and
// the answer comparison, without any platform (the model must stand on the contract alone).
import { describe, expect, it } from 'vitest';
import { createModel, type CheckModel } from '../../src/check/check-model.ts';
import { compareAnswer, eq, money, time } from '../../src/check/expectation.ts';
import {
  escrowFeeMicro,
  predictCreate,
  predictDispute,
  predictRefund,
  predictRelease,
  type CreateEscrowInput,
} from '../../src/check/escrow/model-escrow.ts';
import { predictGet, predictList } from '../../src/check/escrow/model-escrow-views.ts';
import {
  predictAgentView,
  predictClaimA,
  predictClaimB,
  predictRegister,
  predictStatusB,
} from '../../src/check/faucet/model-faucet.ts';
import { RateBudget, SCOPES } from '../../src/check/model-limits.ts';
import { advanceModel, timeBoundaries } from '../../src/check/model-time.ts';
import { runNames } from '../../src/check/check-target.ts';
import { DEFAULT_CONFIG } from '../../src/services/shared/config.ts';

const START_MS = Date.parse('2025-03-01T09:30:00.000Z');
const HOUR_MS = 3_600_000;

function newModel(): CheckModel {
  return createModel({
    nowMs: START_MS,
    capabilities: {
      styleA: true,
      exactTime: true,
      advance: true,
      pool: true,
      casino: true,
      deposits: true,
      domains: true,
      trading: true,
      wallet: true,
    },
    names: runNames('', 1),
  });
}

/** Registers slot `slot` in style `style` as an accepted answer would. */
function register(model: CheckModel, slot: number, style: 'A' | 'B', referrerSlot: number | null = null): void {
  const prediction = predictRegister(model, {
    slot,
    style,
    referrer: referrerSlot === null ? null : { slot: referrerSlot, via: 'id' },
  });
  expect(prediction.expected.status).toBe(201);
  prediction.commit?.({
    api_key: `key-${slot}`,
    agent_address: `0x${String(slot).repeat(40)}`,
    referral_code: `ref_${slot}`,
  });
}

function create(
  model: CheckModel,
  input: Partial<CreateEscrowInput> & { amountMicro: bigint },
  id = `esc_${model.escrows.length}`,
): number {
  const prediction = predictCreate(model, {
    style: 'B',
    senderSlot: 0,
    receiver: { slot: 1, via: 'id' },
    expiresInSeconds: null,
    referrer: null,
    description: null,
    conditions: null,
    buyer: null,
    ...input,
  });
  prediction.commit?.({ escrow_id: id });
  return prediction.expected.status;
}

describe('model: faucet', () => {
  it('registers B with the 10 USDC grant and a cooldown of 24 h; a second registration conflicts', () => {
    const model = newModel();
    const prediction = predictRegister(model, { slot: 0, style: 'B', referrer: null });
    expect(prediction.expected.status).toBe(201);
    expect(prediction.expected.body?.['next_claim']).toEqual(time(START_MS + 24 * HOUR_MS));
    expect(prediction.expected.body?.['balance']).toEqual(money('B', 10_000_000n));
    register(model, 0, 'B');
    expect(model.agents[0]?.balanceMicro).toBe(10_000_000n);
    expect(model.poolMicro).toBe(DEFAULT_CONFIG.faucet.poolFundingMicro - 10_000_000n);
    expect(predictRegister(model, { slot: 0, style: 'A', referrer: null }).expected).toEqual({
      status: 409,
      code: 'CONFLICT',
    });
    expect(predictRegister(model, { slot: 1, style: 'A', referrer: { slot: 2, via: 'code' } }).expected).toEqual({
      status: 404,
      code: 'NOT_FOUND',
    });
  });

  it('pays the A claim once, ever', () => {
    const model = newModel();
    register(model, 0, 'A');
    const first = predictClaimA(model, 0);
    expect(first.expected.body?.['balance_usdc']).toEqual(money('A', 1_000_000n));
    first.commit?.({});
    expect(predictClaimA(model, 0).expected).toEqual({ status: 409, code: 'FAUCET_CLAIMED' });
  });

  it('refuses a B claim until exactly next_claim, then pays 2 USDC', () => {
    const model = newModel();
    register(model, 0, 'B');
    advanceModel(model, START_MS + 24 * HOUR_MS - 1);
    const early = predictClaimB(model, { slot: 0, mode: 'key', otherSlot: 1 });
    expect(early.expected.status).toBe(409);
    expect(early.expected.body?.['retry_after_seconds']).toEqual({ kind: 'seconds', value: 1 });
    advanceModel(model, START_MS + 24 * HOUR_MS);
    const onTime = predictClaimB(model, { slot: 0, mode: 'key', otherSlot: 1 });
    expect(onTime.expected.status).toBe(200);
    onTime.commit?.({});
    expect(model.agents[0]?.balanceMicro).toBe(12_000_000n);
    expect(model.agents[0]?.nextClaimBAtMs).toBe(START_MS + 48 * HOUR_MS);
  });

  it('names the agent of a B claim: 403 for another id with a key, 401 keyless whoever it names', () => {
    const model = newModel();
    register(model, 0, 'A');
    expect(predictClaimB(model, { slot: 0, mode: 'key-other-id', otherSlot: 1 }).expected.status).toBe(403);
    expect(predictClaimB(model, { slot: 0, mode: 'keyless-no-id', otherSlot: 1 }).expected.status).toBe(401);
    expect(predictClaimB(model, { slot: 2, mode: 'keyless', otherSlot: 1 }).expected).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
    });
    expect(predictClaimB(model, { slot: 0, mode: 'keyless', otherSlot: 1 }).expected).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
    });
    expect(predictClaimB(model, { slot: 0, mode: 'key', otherSlot: 1 }).expected.status).toBe(200);
  });

  it('shows an agent to itself only (404 before 403) and reports B status', () => {
    const model = newModel();
    register(model, 0, 'B');
    register(model, 1, 'A', 0);
    expect(predictAgentView(model, 1, { slot: 0, via: 'address' }).expected.status).toBe(403);
    expect(predictAgentView(model, 1, { slot: 3, via: 'id' }).expected.status).toBe(404);
    expect(predictAgentView(model, 1, { slot: 1, via: 'code' }).expected.body?.['referrer']).toEqual(
      eq(model.agents[0]?.id ?? null),
    );
    const status = predictStatusB(model, 0).expected.body;
    expect(status?.['can_claim']).toEqual(eq(false));
    expect(status?.['seconds_until_next_claim']).toEqual({ kind: 'seconds', value: 86_400 });
  });
});

describe('model: escrow', () => {
  it('rounds the 1% fee up to the micro', () => {
    expect(escrowFeeMicro(1_234_567n, 100n)).toBe(12_346n);
    expect(escrowFeeMicro(100_000n, 100n)).toBe(1_000n);
    expect(escrowFeeMicro(100_001n, 100n)).toBe(1_001n);
  });

  it('checks create in precedence order: minimum, receiver, self, referrer, balance', () => {
    const model = newModel();
    register(model, 0, 'B');
    expect(create(model, { amountMicro: 99_999n, receiver: { slot: 3, via: 'id' } })).toBe(400);
    expect(create(model, { amountMicro: 100_000n, receiver: { slot: 3, via: 'id' } })).toBe(404);
    expect(create(model, { amountMicro: 100_000n, receiver: { slot: 0, via: 'address' } })).toBe(400);
    register(model, 1, 'A');
    expect(create(model, { amountMicro: 100_000n, referrer: { slot: 1, via: 'id' } })).toBe(400);
    expect(create(model, { amountMicro: 100_000n, referrer: { slot: 2, via: 'id' } })).toBe(404);
    expect(create(model, { amountMicro: 10_000_001n })).toBe(422);
    expect(create(model, { style: 'A', amountMicro: 100_000n, buyer: { slot: 1, via: 'id' } })).toBe(403);
    expect(model.escrows).toHaveLength(0);
    expect(create(model, { amountMicro: 10_000_000n })).toBe(201);
    expect(model.agents[0]?.balanceMicro).toBe(0n);
  });

  it("releases once (net to the receiver, referral share to the sender's referrer, paid at the next sweep)", () => {
    const model = newModel();
    register(model, 2, 'B');
    register(model, 0, 'B', 2);
    register(model, 1, 'A');
    expect(create(model, { amountMicro: 2_000_000n })).toBe(201);
    expect(model.escrows[0]?.referrerSlot).toBe(2);
    const release = predictRelease(model, { style: 'B', callerSlot: 0, escrow: { index: 0 } });
    expect(release.expected.body?.['net']).toEqual(money('B', 1_980_000n));
    release.commit?.({ tx_hash: '0xabc' });
    expect(model.agents[1]?.balanceMicro).toBe(1_980_000n);
    expect(model.agents[2]?.pendingReferralMicro).toBe(3_000n);
    expect(predictRelease(model, { style: 'A', callerSlot: 0, escrow: { index: 0 } }).expected).toEqual({
      status: 409,
      code: 'CONFLICT',
    });
    expect(predictRelease(model, { style: 'B', callerSlot: 1, escrow: { index: 0 } }).expected.status).toBe(403);
    expect(predictRelease(model, { style: 'B', callerSlot: 0, escrow: 'unknown' }).expected.status).toBe(404);
    advanceModel(model, Date.parse('2025-03-02T00:00:00.000Z'));
    expect(model.agents[2]?.balanceMicro).toBe(10_003_000n);
    expect(model.agents[2]?.pendingReferralMicro).toBe(0n);
  });

  it('expires a locked escrow at exactly expires_at, and lists it', () => {
    const model = newModel();
    register(model, 0, 'B');
    register(model, 1, 'B');
    expect(create(model, { amountMicro: 1_000_000n, expiresInSeconds: 60 })).toBe(201);
    expect(timeBoundaries(model)[0]).toBe(START_MS + 60_000);
    advanceModel(model, START_MS + 59_999);
    expect(model.escrows[0]?.status).toBe('locked');
    advanceModel(model, START_MS + 60_000);
    expect(model.escrows[0]?.status).toBe('expired');
    expect(model.agents[0]?.balanceMicro).toBe(10_000_000n);
    expect(predictRefund(model, { style: 'B', callerSlot: 0, escrow: { index: 0 } }).expected.status).toBe(409);
    const detail = predictGet(model, { style: 'B', callerSlot: 1, escrow: { index: 0 } }).expected.body;
    expect(detail?.['settled_at']).toEqual(time(START_MS + 60_000));
    expect(detail?.['tx_hash']).toEqual({ kind: 'text' });
    const listed = predictList(model, { style: 'A', callerSlot: 0, role: 'receiver', status: null, limit: null })
      .expected.body;
    expect(listed?.['count']).toEqual(eq(0));
  });

  it('freezes a disputed escrow: no refund, no expiry; the window ends in a full refund', () => {
    const model = newModel();
    register(model, 0, 'B');
    register(model, 1, 'B');
    expect(create(model, { amountMicro: 1_000_000n, expiresInSeconds: 60 })).toBe(201);
    const dispute = predictDispute(model, {
      style: 'A',
      callerSlot: 1,
      escrow: { index: 0 },
      reason: 'late',
      evidence: null,
    });
    expect(dispute.expected.body?.['window_ends_at']).toEqual(time(START_MS + 48 * HOUR_MS));
    dispute.commit?.({});
    expect(predictRefund(model, { style: 'B', callerSlot: 0, escrow: { index: 0 } }).expected.status).toBe(409);
    advanceModel(model, START_MS + 48 * HOUR_MS - 1);
    expect(model.escrows[0]?.status).toBe('disputed');
    advanceModel(model, START_MS + 48 * HOUR_MS);
    expect(model.escrows[0]?.status).toBe('refunded');
    expect(model.escrows[0]?.dispute?.outcome).toBe('refunded');
    expect(model.agents[0]?.balanceMicro).toBe(10_000_000n);
  });
});

describe('RateBudget', () => {
  it('refuses a command that would empty a bucket, and credits back only whole refilled tokens', () => {
    const budget = new RateBudget(DEFAULT_CONFIG.limits);
    const claims = Array.from({ length: 10 }, () => ({ slot: 0, scopes: SCOPES.faucetB }));
    expect(budget.canTake(claims)).toBe(true);
    budget.take(claims);
    expect(budget.canTake([{ slot: 0, scopes: SCOPES.faucetB }])).toBe(false);
    expect(budget.canTake([{ slot: 1, scopes: SCOPES.faucetB }])).toBe(true);
    budget.elapse(START_MS, START_MS + 5_999);
    expect(budget.usedBy(0, 'faucet')).toBe(10);
    budget.elapse(START_MS, START_MS + 6_000);
    expect(budget.usedBy(0, 'faucet')).toBe(9);
    expect(budget.usedBy(0, 'faucet-daily')).toBe(10);
    budget.elapse(START_MS, START_MS + 24 * HOUR_MS);
    expect(budget.usedBy(0, 'faucet-daily')).toBe(0);
  });
});

describe('compareAnswer', () => {
  it("compares money by value and by its style's JSON type, and times by the millisecond", () => {
    const expected = {
      status: 200,
      body: { a: money('A', 1_500_000n), b: money('B', 10_000_000n), t: time(START_MS) },
    };
    expect(
      compareAnswer({ status: 200, body: { a: 1.5, b: '10.000000', t: '2025-03-01T09:30:00.000Z' } }, expected, 0),
    ).toEqual([]);
    const problems = compareAnswer(
      { status: 200, body: { a: '1.5', b: 10, t: '2025-03-01T09:30:00.001Z' } },
      expected,
      0,
    );
    expect(problems).toHaveLength(3);
    expect(
      compareAnswer({ status: 200, body: { a: 1.5, b: '10.00', t: '2025-03-01T09:30:00.001Z' } }, expected, 1),
    ).toEqual([]);
    expect(compareAnswer({ status: 409, body: { code: 'CONFLICT', error: 'x' } }, { status: 200 }, 0)[0]).toMatch(
      /expected 200, got 409 CONFLICT/,
    );
  });
});
