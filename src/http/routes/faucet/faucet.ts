/**
 * Faucet route rows, styles A and B: the wire contract of the faucet, one row per endpoint.
 * Style A is served on the faucet's own address (mount 'faucet', paths under /api/v1, amounts as
 * JSON numbers); style B on the shared api address (mount 'api', short paths, amounts as decimal
 * strings). Both are tables over the same FaucetService operations.
 *
 * Invariants: `parse` validates every field (types, lengths, the agent_id pattern), rejects
 * unknown body fields and unknown query parameters, so bad input answers 400 before the domain is
 * touched; `successStatus` is the status of a success (201 for registrations, which create an
 * agent) and `render` builds the exact body of the contract (the dispatcher adds `_info`).
 * Non-goals: auth (the dispatcher resolves the caller) and rate limits (declared in `limits`).
 */
import { assert } from '../../../core/assert.ts';
import { fail, isFailure, type Failure, type JsonObject } from '../../../core/errors.ts';
import { isReference } from '../../../core/reference.ts';
import type { Agent } from '../../../services/shared/agents.ts';
import { AGENT_LIST_LIMIT_MAX } from '../../../services/faucet/agent-list.ts';
import { FRAMEWORK_MAX_LENGTH } from '../../../services/faucet/faucet-records.ts';
import type {
  AgentList,
  ClaimResult,
  ReferralView,
  RegisterCommand,
  Registration,
  StatusB,
} from '../../../services/faucet/faucet.ts';
import { isoTime, moneyA, moneyB } from '../../render.ts';
import { listCall } from '../../list-call.ts';
import { defineRoute, type Route, type RouteContext, type RouteInput } from '../../route.ts';
import {
  bodyOnly,
  emptyBody,
  knownQuery,
  NO_KEYS,
  optionalObject,
  optionalString,
  queryLimit,
  requiredString,
} from '../../validate.ts';

const AGENT_REFERENCE_MAX_LENGTH = 64;
// Allowed body fields and query parameters, shared (an array literal per request would be garbage).
const REGISTER_FIELDS_A: readonly string[] = ['agent_id', 'referrer'];
const REGISTER_FIELDS_B: readonly string[] = ['agent_id', 'referrer', 'metadata'];
const CLAIM_FIELDS_B: readonly string[] = ['agent_id'];
const AGENTS_QUERY_B: readonly string[] = ['limit'];
const AGENT_LIST_LIMIT_DEFAULT = 20;
const METADATA_KEYS_MAX = 32;

/** The agent of a bearer row; the dispatcher answered 401 already when there is none. */
function callerOf(context: RouteContext): Agent {
  assert(context.caller !== null, 'bearer rows run with an authenticated caller');
  return context.caller;
}

/** An agent id, address or referral code: 1..64 of [A-Za-z0-9_.-]. */
function checkReference(value: string | Failure, name: string): string | Failure {
  if (isFailure(value)) return value;
  return isReference(value) ? value : fail('BAD_REQUEST', `${name} must be 1 to 64 characters of A-Z a-z 0-9 _ . -`);
}

function requiredAgentId(value: unknown, name: string): string | Failure {
  return checkReference(requiredString(value, name, AGENT_REFERENCE_MAX_LENGTH), name);
}

function optionalAgentId(value: unknown, name: string): string | undefined | Failure {
  const text = optionalString(value, name, AGENT_REFERENCE_MAX_LENGTH);
  return text === undefined ? undefined : checkReference(text, name);
}

/** A GET or body-less POST: no body fields, no query parameters beyond `allowedQuery`. */
function noInput(input: RouteInput, allowedQuery: readonly string[] = NO_KEYS): Failure | null {
  return knownQuery(input.query, allowedQuery) ?? emptyBody(input.body);
}

interface RegisterInput {
  readonly agentId: string;
  readonly referrer: string | undefined;
  readonly metadata: JsonObject | undefined;
}

/** The service's command: one literal with its fields named, not a spread (see ../escrow/escrow.ts, listInput). */
function registerCommand(style: 'A' | 'B', input: RegisterInput): RegisterCommand {
  return { style, agentId: input.agentId, referrer: input.referrer, metadata: input.metadata };
}

function parseRegister(input: RouteInput, style: 'A' | 'B'): RegisterInput | Failure {
  const fields = bodyOnly(input, style === 'A' ? REGISTER_FIELDS_A : REGISTER_FIELDS_B);
  if (isFailure(fields)) return fields;
  const agentId = requiredAgentId(fields['agent_id'], 'agent_id');
  if (isFailure(agentId)) return agentId;
  const referrer = optionalAgentId(fields['referrer'], 'referrer');
  if (isFailure(referrer)) return referrer;
  const metadata = optionalObject(fields['metadata'], 'metadata', METADATA_KEYS_MAX);
  if (isFailure(metadata)) return metadata;
  if (metadata !== undefined) {
    const framework = optionalString(metadata['framework'], 'framework', FRAMEWORK_MAX_LENGTH);
    if (isFailure(framework)) return fail('BAD_REQUEST', `metadata.${framework.message}`);
  }
  return { agentId, referrer, metadata: metadata as JsonObject | undefined };
}

const registerA = defineRoute<RegisterInput, Registration>({
  id: 'faucet.A.register',
  service: 'faucet',
  style: 'A',
  mount: 'faucet',
  method: 'POST',
  path: '/api/v1/agents/register',
  auth: 'none',
  limits: { registerPerIp: true },
  summary: 'Register an agent: returns its address, API key (shown once) and referral code.',
  parse: (input) => parseRegister(input, 'A'),
  run: (context, command) => context.platform.faucet.register(registerCommand('A', command), context.nowMs),
  successStatus: 201,
  render: (registration) => ({
    agent_id: registration.agent.id,
    agent_address: registration.agent.address,
    api_key: registration.apiKey,
    referral_code: registration.agent.referralCode,
    created_at: isoTime(registration.agent.createdAtMs),
  }),
});

const claimA = defineRoute<null, ClaimResult>({
  id: 'faucet.A.claim',
  service: 'faucet',
  style: 'A',
  mount: 'faucet',
  method: 'POST',
  path: '/api/v1/faucet/claim',
  auth: 'bearer',
  summary: 'Claim the one-time 1 USDC faucet allocation.',
  parse: (input) => noInput(input),
  run: (context) => context.platform.faucet.claimA({ agentId: callerOf(context).id }, context.nowMs),
  successStatus: 200,
  render: (claim) => ({ amount_usdc: moneyA(claim.amountMicro), balance_usdc: moneyA(claim.balanceMicro) }),
});

const statusA = defineRoute<null, { eligible: boolean; balanceMicro: bigint }>({
  id: 'faucet.A.status',
  service: 'faucet',
  style: 'A',
  mount: 'faucet',
  method: 'GET',
  path: '/api/v1/faucet/status',
  auth: 'bearer',
  summary: 'Whether the one-time claim is still available, and the balance.',
  parse: (input) => noInput(input),
  run: (context) => context.platform.faucet.statusA({ agentId: callerOf(context).id }),
  successStatus: 200,
  render: (status) => ({ eligible: status.eligible, balance_usdc: moneyA(status.balanceMicro) }),
});

const agentA = defineRoute<{ reference: string }, { agent: Agent; balanceMicro: bigint }>({
  id: 'faucet.A.agent',
  service: 'faucet',
  style: 'A',
  mount: 'faucet',
  method: 'GET',
  path: '/api/v1/agents/:id',
  auth: 'bearer',
  summary: "The caller's own agent details and balance (by agent id, address or referral code).",
  parse: (input) => {
    const failure = noInput(input);
    if (failure !== null) return failure;
    const reference = checkReference(input.params['id'] ?? '', 'id');
    return isFailure(reference) ? reference : { reference };
  },
  run: (context, command) =>
    context.platform.faucet.agentDetails({ callerId: callerOf(context).id, reference: command.reference }),
  successStatus: 200,
  render: ({ agent, balanceMicro }) => ({
    agent_id: agent.id,
    agent_address: agent.address,
    balance_usdc: moneyA(balanceMicro),
    tier: agent.tier,
    referrer: agent.referrerId,
    referral_code: agent.referralCode,
    created_at: isoTime(agent.createdAtMs),
  }),
});

const registerB = defineRoute<RegisterInput, Registration>({
  id: 'faucet.B.register',
  service: 'faucet',
  style: 'B',
  mount: 'api',
  method: 'POST',
  path: '/register',
  auth: 'none',
  limits: { registerPerIp: true, serviceRowB: true },
  summary: 'Register an agent and receive the 10 USDC grant; the next claim opens 24 h later.',
  parse: (input) => parseRegister(input, 'B'),
  run: (context, command) => context.platform.faucet.register(registerCommand('B', command), context.nowMs),
  successStatus: 201,
  render: (registration) => {
    assert(registration.nextClaimAtMs !== null, 'a B registration starts the claim cooldown');
    return {
      agent_id: registration.agent.id,
      agent_address: registration.agent.address,
      api_key: registration.apiKey,
      referral_code: registration.agent.referralCode,
      amount: moneyB(registration.grantMicro),
      currency: 'USDC',
      balance: moneyB(registration.balanceMicro),
      next_claim: isoTime(registration.nextClaimAtMs),
    };
  },
});

const claimB = defineRoute<{ agentId: string | null }, ClaimResult>({
  id: 'faucet.B.claim',
  service: 'faucet',
  style: 'B',
  mount: 'api',
  method: 'POST',
  path: '/claim',
  auth: 'optional',
  limits: { serviceRowB: true },
  summary: 'Claim 2 USDC, once per 24 h, with your key (the first payout is the registration grant).',
  parse: (input) => {
    const fields = bodyOnly(input, CLAIM_FIELDS_B);
    if (isFailure(fields)) return fields;
    const agentId = optionalAgentId(fields['agent_id'], 'agent_id');
    return isFailure(agentId) ? agentId : { agentId: agentId ?? null };
  },
  run: (context, command) =>
    context.platform.faucet.claimB({ callerId: context.caller?.id ?? null, agentId: command.agentId }, context.nowMs),
  successStatus: 200,
  render: (claim) => {
    assert(claim.nextClaimAtMs !== null, 'a B claim sets the next claim');
    return {
      amount: moneyB(claim.amountMicro),
      balance: moneyB(claim.balanceMicro),
      next_claim: isoTime(claim.nextClaimAtMs),
    };
  },
});

const statusB = defineRoute<null, StatusB>({
  id: 'faucet.B.status',
  service: 'faucet',
  style: 'B',
  mount: 'api',
  method: 'GET',
  path: '/status',
  auth: 'bearer',
  limits: { serviceRowB: true },
  summary: 'Whether the caller can claim now, when the next claim opens, and the faucet pool balance.',
  parse: (input) => noInput(input),
  run: (context) => context.platform.faucet.statusB({ agentId: callerOf(context).id }, context.nowMs),
  successStatus: 200,
  render: (status) => ({
    agent_id: status.agentId,
    can_claim: status.canClaim,
    next_claim: status.nextClaimAtMs === null ? null : isoTime(status.nextClaimAtMs),
    seconds_until_next_claim: status.secondsUntilNextClaim,
    balance: moneyB(status.balanceMicro),
    pool_balance: moneyB(status.poolMicro),
  }),
});

const agentsB = defineRoute<{ limit: number }, AgentList>({
  id: 'faucet.B.agents',
  service: 'faucet',
  style: 'B',
  mount: 'api',
  method: 'GET',
  path: '/agents',
  auth: 'none',
  limits: { serviceRowB: true },
  summary: 'Public list: top agents by claims, total claimed, framework breakdown.',
  parse: (input) => {
    const failure = noInput(input, AGENTS_QUERY_B);
    if (failure !== null) return failure;
    const limit = queryLimit(input.query, AGENT_LIST_LIMIT_DEFAULT, AGENT_LIST_LIMIT_MAX);
    return isFailure(limit) ? limit : { limit };
  },
  run: (context, command) => context.platform.faucet.listAgents(command),
  successStatus: 200,
  render: (list) => ({
    agents: list.agents.map((entry) => ({
      agent_id: entry.agentId,
      agent_address: entry.address,
      framework: entry.framework,
      claims: entry.claims,
      total_claimed: moneyB(entry.receivedMicro),
      created_at: isoTime(entry.createdAtMs),
    })),
    total_agents: list.totalAgents,
    total_claimed: moneyB(list.totalClaimedMicro),
    frameworks: Object.fromEntries(list.frameworks),
  }),
});

const referralsB = listCall(
  { items: ['referred_agents'] },
  defineRoute<null, ReferralView>({
    id: 'faucet.B.referrals',
    service: 'faucet',
    style: 'B',
    mount: 'api',
    method: 'GET',
    path: '/referrals',
    auth: 'bearer',
    limits: { serviceRowB: true },
    summary: "The caller's referral code, referred agents, fees earned, paid out and pending, and earnings by level.",
    parse: (input) => noInput(input),
    run: (context) => context.platform.faucet.referrals({ agentId: callerOf(context).id }),
    successStatus: 200,
    render: (view) => ({
      referral_code: view.referralCode,
      referred_count: view.referredCount,
      referred_agents: view.referred.map((entry) => ({
        agent_id: entry.agentId,
        registered_at: isoTime(entry.registeredAtMs),
      })),
      fees_earned: moneyB(view.earnedMicro),
      paid_out: moneyB(view.paidMicro),
      pending_payouts: moneyB(view.pendingMicro),
      share_pct: Number(view.shareBps) / 100,
      withdrawn: moneyB(view.paidMicro),
      available: moneyB(view.pendingMicro),
      by_level: view.levels.map((level) => ({
        level: level.level,
        referred_agents: level.referredAgents,
        earned: moneyB(level.earnedMicro),
      })),
    }),
  }),
);

export const faucetRoutes: readonly Route[] = [
  registerA,
  claimA,
  statusA,
  agentA,
  registerB,
  claimB,
  statusB,
  agentsB,
  referralsB,
];
