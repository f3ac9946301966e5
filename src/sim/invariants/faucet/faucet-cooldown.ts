/**
 * Invariant `faucet-cooldown`, from the faucet's own events: per agent, style-B payouts (the
 * registration grant and every /claim) are at least the configured cooldown apart, and style A
 * pays at most one claim per agent, ever. The cooldown is read from the platform's config, so a
 * platform that shortens it (the `faucet-cooldown-23h` defect) is caught.
 */
import { eventViolation, type InvariantDefinition } from '../checker.ts';

export const faucetCooldown: InvariantDefinition = {
  name: 'faucet-cooldown',
  description: 'B claims are at least the cooldown apart (the B grant starts it); at most one A claim per agent',
  create({ platform }) {
    const cooldownMs = platform.config.faucet.cooldownMs;
    const lastPayoutBAtMs = new Map<string, number>();
    const claimedA = new Set<string>();
    return {
      onEvent(event) {
        if (event.type === 'agent.registered') {
          if (event.style === 'B' && event.grantMicro > 0n) lastPayoutBAtMs.set(event.agentId, event.atMs);
          return null;
        }
        if (event.type !== 'faucet.claimed') return null;
        if (event.style === 'A') {
          if (claimedA.has(event.agentId))
            return eventViolation(event, `agent ${event.agentId} was paid a second style-A claim`);
          claimedA.add(event.agentId);
          return null;
        }
        const lastAtMs = lastPayoutBAtMs.get(event.agentId);
        lastPayoutBAtMs.set(event.agentId, event.atMs);
        if (lastAtMs !== undefined && event.atMs - lastAtMs < cooldownMs) {
          return eventViolation(
            event,
            `agent ${event.agentId} was paid a B claim ${event.atMs - lastAtMs} ms after its previous B payout (cooldown ${cooldownMs} ms)`,
          );
        }
        return null;
      },
    };
  },
};
