/**
 * registerAgent: a style A registration in the platform's one agent registry, for the rows of
 * other services that create an account (casino, wallet, deployed trading and domains). Each row
 * reads its own body and draws the agent id where it always did; this is the one command they run.
 */
import type { Outcome } from '../../../core/errors.ts';
import type { Registration } from '../../../services/faucet/faucet.ts';
import type { RouteContext } from '../../route.ts';

export function registerAgent(
  context: RouteContext,
  agentId: string,
  referrer: string | undefined,
): Outcome<Registration> {
  return context.platform.faucet.register({ style: 'A', agentId, referrer }, context.nowMs);
}
