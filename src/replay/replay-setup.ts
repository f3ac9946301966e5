/**
 * Replay set-up: what the simulator set outside HTTP, reproduced on the target (pure; the CLI
 * sends the calls). Two parts:
 *   - platform settings: the record's `platform` (dispute outcome, fault windows) against the
 *     target's `GET /_afp/platform`; each differing setting is a `setup` difference. A target
 *     without that endpoint cannot be verified: a note says so, and what will differ.
 *   - tiers: right after the exchange whose recorded answer issued an agent's key (a registration:
 *     `api_key` and `agent_id` in the body) for an agent the record lists in `tiers`, the target is
 *     told that agent's tier (`POST /_afp/tier`). The agent id is caller-chosen, so the live one is
 *     the same. A target without that endpoint is noted once and not asked again.
 * Invariants: one tier call per agent; the first unsupported answer stops all tier calls.
 */
import type { JsonValue } from '../core/errors.ts';
import type { Finding } from './difference.ts';
import { isObject } from './json-pointer.ts';
import { DEFAULT_RECORDED_PLATFORM, type RecordedExchange, type RecordedFault, type RecordedPlatform, type RecordedTier } from './record-format.ts';

export const PLATFORM_ENDPOINT = '_afp/platform';
export const TIER_ENDPOINT = '_afp/tier';

export interface TierCall {
  /** The exchange after which the call is sent. */
  readonly seq: number;
  readonly agentId: string;
  readonly tier: RecordedTier;
}

export type TierOutcome =
  | { readonly kind: 'applied' }
  /** The target has no such endpoint (not afp serve, or an older one). */
  | { readonly kind: 'unsupported'; readonly status: number }
  /** The endpoint answered but did not apply it (the agent is unknown on the target). */
  | { readonly kind: 'refused'; readonly status: number; readonly message: string };

/** The target's `GET /_afp/platform` body as a RecordedPlatform, or null when it is not one. */
export function parsePlatformView(body: unknown): RecordedPlatform | null {
  if (!isObject(body)) return null;
  const outcome = body['dispute_outcome'];
  const faults = body['faults'];
  if ((outcome !== 'refund' && outcome !== 'release') || !Array.isArray(faults)) return null;
  const parsed: RecordedFault[] = [];
  for (const fault of faults as unknown[]) {
    if (!isObject(fault)) return null;
    const { service, from_ms: fromMs, until_ms: untilMs, status } = fault;
    if (typeof service !== 'string' || !Number.isSafeInteger(fromMs) || !Number.isSafeInteger(untilMs) || (status !== 500 && status !== 503)) return null;
    parsed.push({ service, from_ms: fromMs, until_ms: untilMs, status } as RecordedFault);
  }
  return { dispute_outcome: outcome, faults: parsed };
}

/** One `setup` finding per differing setting: the dispute outcome, each fault window by position. */
export function platformFindings(expected: RecordedPlatform, actual: RecordedPlatform): Finding[] {
  const findings: Finding[] = [];
  if (expected.dispute_outcome !== actual.dispute_outcome) {
    findings.push({ kind: 'setup', pointer: 'platform/dispute_outcome', expected: expected.dispute_outcome, actual: actual.dispute_outcome });
  }
  const count = Math.max(expected.faults.length, actual.faults.length);
  for (let index = 0; index < count; index++) {
    const want = faultJson(expected.faults[index]);
    const have = faultJson(actual.faults[index]);
    if (JSON.stringify(want) !== JSON.stringify(have)) findings.push({ kind: 'setup', pointer: `platform/faults/${index}`, expected: want, actual: have });
  }
  return findings;
}

function faultJson(fault: RecordedFault | undefined): JsonValue {
  return fault === undefined ? null : { service: fault.service, from_ms: fault.from_ms, until_ms: fault.until_ms, status: fault.status };
}

export function isDefaultPlatform(platform: RecordedPlatform): boolean {
  return platform.dispute_outcome === DEFAULT_RECORDED_PLATFORM.dispute_outcome && platform.faults.length === 0;
}

/** The command line that sets a target up like the record (`scenarioFile`: the scenario's file, when known). */
export function setupCommand(options: { platform: RecordedPlatform; startMs: number; scenarioName: string; scenarioFile: string | null }): string {
  if (isDefaultPlatform(options.platform)) return `afp serve --clock manual --start ${new Date(options.startMs).toISOString()} (no --scenario: the record has the default settings)`;
  return `afp serve --clock manual --scenario ${options.scenarioFile ?? `<the file of scenario '${options.scenarioName}'>`}`;
}

/** The note for a target that cannot show its settings: what the record needs, and what will differ. */
export function unverifiableNote(platform: RecordedPlatform, why: string): string {
  const parts = [`the target's platform settings cannot be verified (${why})`];
  if (platform.faults.length > 0) parts.push(`the record has ${platform.faults.length} fault window(s): responses inside them will differ unless the target fails the same way`);
  if (platform.dispute_outcome !== DEFAULT_RECORDED_PLATFORM.dispute_outcome) parts.push(`disputes ended by their window resolve with '${platform.dispute_outcome}' in the record and will differ on a target with the default`);
  return parts.join('; ');
}

/** Decides the tier calls of a replay and turns their outcomes into findings and notes. */
export class TierPlan {
  private readonly tiers: Readonly<Record<string, RecordedTier>>;
  private readonly applied = new Set<string>();
  private unsupported = false;

  constructor(tiers: Readonly<Record<string, RecordedTier>>) {
    this.tiers = tiers;
  }

  get listed(): number {
    return Object.keys(this.tiers).length;
  }

  /** The tier call due right after `exchange`, if its recorded answer issued a listed agent's key. */
  callAfter(exchange: RecordedExchange): TierCall | null {
    if (this.unsupported) return null;
    const body = exchange.response.body;
    if (!isObject(body) || typeof body['api_key'] !== 'string' || typeof body['agent_id'] !== 'string') return null;
    const agentId = body['agent_id'];
    const tier = Object.hasOwn(this.tiers, agentId) ? this.tiers[agentId] : undefined;
    if (tier === undefined || this.applied.has(agentId)) return null;
    this.applied.add(agentId);
    return { seq: exchange.seq, agentId, tier };
  }

  /** Findings (a refused call) and a note (the first unsupported answer) for one outcome. */
  observe(call: TierCall, outcome: TierOutcome): { findings: Finding[]; note: string | null } {
    switch (outcome.kind) {
      case 'applied':
        return { findings: [], note: null };
      case 'refused':
        return { findings: [{ kind: 'setup', pointer: `tier/${call.agentId}`, expected: call.tier, actual: `not applied (HTTP ${outcome.status})`, note: outcome.message }], note: null };
      case 'unsupported':
        this.unsupported = true;
        return {
          findings: [],
          note: `the target has no POST /${TIER_ENDPOINT} (answered ${outcome.status}): the record's ${this.listed} pro/enterprise agent(s) keep the target's default tier, so their rate-limit headers and 429s will differ`,
        };
    }
  }
}
