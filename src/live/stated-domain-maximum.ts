/**
 * The most domains a target lets one agent hold, when it refuses a registration or a gift for it
 * and says so. Why: a deployment may cap the names an agent holds (afp serve's `domainsPerAgentMax`
 * answers "agent … already holds the maximum of N domains": 409 CONFLICT in the documents' style,
 * 400 `domain_limit_reached` in the deployed one), and a check whose gift went to an agent at that
 * cap, or whose race found its registrant there, failed a working target ("expected it accepted",
 * "0 of two … accepted"). The check reads the cap from the words and reports it as the target's
 * rule (dialect-commands-services.ts, dialect-commands-domains.ts).
 * Read from the refusal's message only; a refusal that states no count teaches nothing (null).
 */
import type { Refusal } from './operations.ts';
import { statedCount } from './stated-count.ts';

/** Words that state how many domains an agent may hold, and nothing else. */
const MESSAGE_PATTERNS: readonly RegExp[] = [
  /\bmaximum (?:of )?(\d{1,6}) domains\b/i,
  /\bat most (\d{1,6}) domains\b/i,
  /\blimit (?:of )?(\d{1,6}) domains\b/i,
  /\b(\d{1,6}) domains (?:per agent|per account|max(?:imum)?)\b/i,
];

/** The per-agent maximum the refusal states (at least 1), else null. */
export function statedDomainMaximum(refusal: Refusal): number | null {
  const stated = statedCount(refusal.message, MESSAGE_PATTERNS);
  return stated !== null && stated >= 1 ? stated : null;
}
