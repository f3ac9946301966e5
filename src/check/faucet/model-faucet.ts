/**
 * The reference model's faucet: registration (both styles), claims (A once ever; B one per
 * cooldown, always with the key: a keyless claim is 401), B status and an agent's own details.
 * Each `predict*` reads the model only; the returned `commit` applies an accepted answer.
 *
 * Precedence of failures, from the contract and afp's documented order: registration — taken
 * (409) before unknown referrer (404) before an empty pool (422); B claim — identity (401
 * keyless whatever it names, 403 for another agent's id with a key) before the
 * cooldown (409 FAUCET_CLAIMED) before an empty pool (422); agent details — unknown (404)
 * before another agent's (403).
 */
import { requireAgent, type AgentRef, type CheckModel, type ModelAgent, type CheckStyle } from '../check-model.ts';
import { eq, failure, money, seconds, text, time, type Matcher, type Prediction } from '../expectation.ts';

export interface RegisterInput {
  readonly slot: number;
  readonly style: CheckStyle;
  readonly referrer: AgentRef | null;
}

export function predictRegister(model: Readonly<CheckModel>, input: RegisterInput): Prediction {
  const { slot, style } = input;
  if (model.agents[slot] !== undefined) return failure(409, 'CONFLICT');
  if (input.referrer !== null && model.agents[input.referrer.slot] === undefined) return failure(404, 'NOT_FOUND');
  const grantMicro = style === 'B' ? model.config.faucet.registrationGrantBMicro : 0n;
  if (model.capabilities.pool && model.poolMicro < grantMicro) return failure(422, 'INSUFFICIENT_BALANCE');
  const nowMs = model.nowMs;
  const id = model.names.agentId(slot);
  const nextClaimBAtMs = style === 'B' ? nowMs + model.config.faucet.cooldownMs : null;
  const common: Record<string, Matcher> = {
    agent_id: eq(id),
    agent_address: text(),
    api_key: text(),
    referral_code: text(),
  };
  const body: Record<string, Matcher> =
    style === 'A'
      ? { ...common, created_at: time(nowMs) }
      : {
          ...common,
          amount: money('B', grantMicro),
          currency: eq('USDC'),
          balance: money('B', grantMicro),
          next_claim: time(nextClaimBAtMs),
        };
  return {
    expected: { status: 201, body },
    commit: (answer) => {
      const mutable = model as CheckModel;
      mutable.agents[slot] = {
        slot,
        id,
        style,
        apiKey: String(answer['api_key']),
        address: String(answer['agent_address']),
        referralCode: String(answer['referral_code']),
        referrerSlot: input.referrer?.slot ?? null,
        createdAtMs: nowMs,
        balanceMicro: grantMicro,
        claimedA: false,
        claimsB: 0,
        nextClaimBAtMs,
        pendingReferralMicro: 0n,
        referralEarnedMicro: [0n, 0n, 0n],
        referralWithdrawnMicro: 0n,
      };
      mutable.poolMicro -= grantMicro;
    },
  };
}

export function predictClaimA(model: Readonly<CheckModel>, slot: number): Prediction {
  const agent = requireAgent(model, slot);
  if (agent.claimedA) return failure(409, 'FAUCET_CLAIMED');
  const amountMicro = model.config.faucet.claimAMicro;
  if (model.capabilities.pool && model.poolMicro < amountMicro) return failure(422, 'INSUFFICIENT_BALANCE');
  return {
    expected: {
      status: 200,
      body: { amount_usdc: money('A', amountMicro), balance_usdc: money('A', agent.balanceMicro + amountMicro) },
    },
    commit: () => {
      agent.claimedA = true;
      agent.balanceMicro += amountMicro;
      (model as CheckModel).poolMicro -= amountMicro;
    },
  };
}

/**
 * How a B claim names its agent: with the caller's key and no body, with the key and the caller's
 * own id, with the key and another agent's id, keyless with an agent id, or keyless with nothing.
 */
export type ClaimBMode = 'key' | 'key-own-id' | 'key-other-id' | 'keyless' | 'keyless-no-id';

export interface ClaimBInput {
  readonly slot: number;
  readonly mode: ClaimBMode;
  /** The agent named by 'key-other-id'. */
  readonly otherSlot: number;
}

export function predictClaimB(model: Readonly<CheckModel>, input: ClaimBInput): Prediction {
  // A keyless claim is 401 whatever it names (claims.ts: the first payout is the registration grant).
  if (input.mode === 'keyless-no-id' || input.mode === 'keyless') return failure(401, 'UNAUTHORIZED');
  if (input.mode === 'key-other-id' && model.names.agentId(input.otherSlot) !== requireAgent(model, input.slot).id)
    return failure(403, 'FORBIDDEN');
  const agent = model.agents[input.slot];
  if (agent === undefined) return failure(404, 'NOT_FOUND');
  const nowMs = model.nowMs;
  const nextMs = agent.nextClaimBAtMs;
  if (nextMs !== null && nowMs < nextMs) {
    return {
      expected: {
        status: 409,
        code: 'FAUCET_CLAIMED',
        body: { next_claim: time(nextMs), retry_after_seconds: seconds(Math.ceil((nextMs - nowMs) / 1000)) },
      },
    };
  }
  const amountMicro = model.config.faucet.claimBMicro;
  if (model.capabilities.pool && model.poolMicro < amountMicro) return failure(422, 'INSUFFICIENT_BALANCE');
  const nextClaimBAtMs = nowMs + model.config.faucet.cooldownMs;
  return {
    expected: {
      status: 200,
      body: {
        amount: money('B', amountMicro),
        balance: money('B', agent.balanceMicro + amountMicro),
        next_claim: time(nextClaimBAtMs),
      },
    },
    commit: () => {
      agent.claimsB += 1;
      agent.nextClaimBAtMs = nextClaimBAtMs;
      agent.balanceMicro += amountMicro;
      (model as CheckModel).poolMicro -= amountMicro;
    },
  };
}

export function predictStatusB(model: Readonly<CheckModel>, slot: number): Prediction {
  const agent = requireAgent(model, slot);
  const nextMs = agent.nextClaimBAtMs;
  const waitMs = nextMs === null ? 0 : Math.max(0, nextMs - model.nowMs);
  const claimMicro = model.config.faucet.claimBMicro;
  const body: Record<string, Matcher> = {
    agent_id: eq(agent.id),
    next_claim: time(nextMs),
    seconds_until_next_claim: seconds(Math.ceil(waitMs / 1000)),
    balance: money('B', agent.balanceMicro),
  };
  // can_claim flips at next_claim: only asserted when the time is exact.
  if (model.capabilities.exactTime)
    body['can_claim'] = eq(waitMs === 0 && (!model.capabilities.pool || model.poolMicro >= claimMicro));
  if (model.capabilities.pool) body['pool_balance'] = money('B', model.poolMicro);
  return { expected: { status: 200, body } };
}

/** GET /api/v1/agents/:ref by the agent in `callerSlot`. */
export function predictAgentView(model: Readonly<CheckModel>, callerSlot: number, target: AgentRef): Prediction {
  const caller = requireAgent(model, callerSlot);
  const agent = model.agents[target.slot];
  if (agent === undefined) return failure(404, 'NOT_FOUND');
  if (agent.slot !== caller.slot) return failure(403, 'FORBIDDEN');
  return { expected: { status: 200, body: agentDetails(model, agent) } };
}

function agentDetails(model: Readonly<CheckModel>, agent: ModelAgent): Record<string, Matcher> {
  const referrer = agent.referrerSlot === null ? null : (model.agents[agent.referrerSlot]?.id ?? null);
  return {
    agent_id: eq(agent.id),
    agent_address: eq(agent.address),
    balance_usdc: money('A', agent.balanceMicro),
    tier: eq('free'),
    referrer: eq(referrer),
    referral_code: eq(agent.referralCode),
    created_at: time(agent.createdAtMs),
  };
}
