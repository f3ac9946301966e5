/**
 * The deployed faucet (spec/DEPLOYED.md §3, root paths on its own address): `POST /faucet/claim
 * { agent_casino_id, referral_code? }`, no key; a one-time 1.00 credit to an existing casino agent
 * (afp's style A claim: the same rule). Checks in the deployment's order: 400 `invalid_request`;
 * the IP's claim within 24 h 429 `ip_rate_limited` (the deployed dispatcher's cooldown); 404
 * `agent_not_found`; 409 `already_claimed`; an agent with a deposit 403 `has_deposits` → 200
 * `{ credited, message, casino_url, claim_id, agent_id, referral_tracked }`.
 * Nearest values: afp records no referrer on a claim, so `referral_tracked` is false; `claim_id`
 * is a fresh id from the platform's id stream (afp's claim has none). Also `GET /faucet/stats`
 * (no key): `{ total_claims, total_agents, total_value_usd, avg_per_agent }`.
 */
import { isFailure, succeed, type Failure } from '../../../core/errors.ts';
import type { ClaimResult, FaucetStats } from '../../../services/faucet/faucet.ts';
import { deployedFailure } from '../../deployed/deployed-errors.ts';
import { moneyA } from '../../render.ts';
import type { Route } from '../../route.ts';
import { deployedRoute } from './deployed-row.ts';
import { optionalString } from '../../validate.ts';

interface ClaimCommand {
  readonly agentId: string;
}

function parseClaim(body: unknown): ClaimCommand | Failure {
  const fields = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<
    string,
    unknown
  >;
  const agentId = fields['agent_casino_id'];
  if (typeof agentId !== 'string' || agentId.trim() === '' || agentId.length > 64) {
    return deployedFailure(400, 'invalid_request', 'agent_casino_id is required: your casino agent id (ag_...)');
  }
  const referral = optionalString(fields['referral_code'], 'referral_code', 128);
  if (isFailure(referral)) return deployedFailure(400, 'invalid_request', referral.message);
  return { agentId };
}

const claim = deployedRoute<ClaimCommand, { result: ClaimResult; claimId: string }>({
  id: 'faucet.deployed.claim',
  service: 'faucet',
  style: 'deployed',
  auth: 'none',
  summary: 'Claim the one-time 1.00 USDC for a casino agent ({ agent_casino_id, referral_code? }).',
  parse: (input) => parseClaim(input.body),
  run: (context, command) => {
    const platform = context.platform;
    if (!platform.agents.has(command.agentId))
      return deployedFailure(
        404,
        'agent_not_found',
        `No casino agent ${command.agentId}: register at POST /api/v1/auth/register`,
      );
    if (platform.faucet.record(command.agentId)?.claimedA === true)
      return deployedFailure(409, 'already_claimed', 'This agent already claimed its faucet credit');
    const deposits = platform.casino.account.depositsOf(command.agentId, 1, context.nowMs);
    if (deposits.ok && deposits.value.length > 0)
      return deployedFailure(403, 'has_deposits', 'The faucet is for agents that have not deposited yet');
    const result = platform.faucet.claimA({ agentId: command.agentId }, context.nowMs);
    if (!result.ok)
      return result.code === 'FAUCET_CLAIMED' ? deployedFailure(409, 'already_claimed', result.message) : result;
    return succeed({ result: result.value, claimId: platform.context.ids.next('clm_', 16) });
  },
  successStatus: 200,
  render: ({ result, claimId }) => ({
    credited: moneyA(result.amountMicro),
    message: `Credited ${moneyA(result.amountMicro)} USDC to your casino balance.`,
    casino_url: 'https://casino.purpleflea.com',
    claim_id: claimId,
    agent_id: result.agentId,
    referral_tracked: false,
  }),
});

/** `GET /faucet/stats` (no key): `avg_per_agent` is the money paid over the agents that claimed, 0 before any claim. */
const stats = deployedRoute<null, FaucetStats>({
  id: 'faucet.deployed.stats',
  service: 'faucet',
  style: 'deployed',
  auth: 'none',
  summary: "The faucet's totals: claims, agents that claimed, USDC paid and the average per agent (no key).",
  parse: () => null,
  run: (context) => succeed(context.platform.faucet.claimStats()),
  successStatus: 200,
  render: (totals) => ({
    total_claims: totals.claims,
    total_agents: totals.agents,
    total_value_usd: moneyA(totals.paidMicro),
    avg_per_agent: moneyA(totals.agents === 0 ? 0n : totals.paidMicro / BigInt(totals.agents)),
  }),
});

export const deployedFaucetRoutes: readonly Route[] = [claim, stats];
