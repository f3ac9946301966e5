/**
 * A findings sink that gives each finding added through it the request evidence it lacks: the
 * endpoint, the field and the reproducing curl of a request that shows it, and a note in the
 * evidence saying which request that is. Why: a live house-edge finding about an aggregate (an
 * edge over many bets, a rule seen across a variant) or one recorded far from the call that showed
 * it had no endpoint and no curl (94 of 120 findings on a serve with its rules changed), where the
 * documents promise every finding endpoint, field, expected, seen and a curl line.
 * Invariants: what a finding states itself is kept (only absent fields are filled); the note is
 * added only where the curl is filled in, so a finding's curl is always the one its evidence names.
 */
import type { FindingInput, FindingsCollector } from '../report/findings/finding.ts';

/** Where findings go: a collector, or a view of one (withEvidence). */
export type FindingSink = Pick<FindingsCollector, 'add'>;

export interface RequestEvidence {
  /** `casino.bet (POST /api/v1/games/coin-flip)` (request-endpoint.ts). */
  readonly endpoint: string;
  /** The request as a curl line; absent where the command makes none. */
  readonly reproduce?: string;
}

export interface EvidenceDefaults extends Partial<RequestEvidence> {
  /** The field, where the finding names none. */
  readonly field?: string;
  /** Which request the curl is, appended to the evidence where the curl is filled in. */
  readonly note?: string;
}

export function withEvidence(findings: FindingSink, defaults: EvidenceDefaults): FindingSink {
  return {
    add: (finding: FindingInput, times?: number) => {
      const fillsCurl = finding.reproduce === undefined && defaults.reproduce !== undefined;
      const endpoint = finding.endpoint ?? defaults.endpoint;
      const field = finding.field ?? defaults.field;
      findings.add(
        {
          ...finding,
          ...(endpoint === undefined ? {} : { endpoint }),
          ...(field === undefined ? {} : { field }),
          ...(fillsCurl ? { reproduce: defaults.reproduce } : {}),
          evidence:
            fillsCurl && defaults.note !== undefined
              ? `${finding.evidence}; reproduce: ${defaults.note}`
              : finding.evidence,
        },
        times,
      );
    },
  };
}
