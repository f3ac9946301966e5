/**
 * Which differences of a replay through a dialect an earlier cause explains, so they are info
 * naming that cause, never a new fault: the agent's money after its balance left the recording's
 * (a draw, a refusal, a credit not reproduced) or on a service account the replay funds itself; a
 * name whose holder left the recording's (a transfer or renewal not replayed); an exchange the
 * recording's own rate limit refused (the target's limits are its own); an exchange naming an
 * escrow or an order the target never created (operation-replay.ts's orphans). Why a file of its
 * own: the replay loop sends and files; this says why a difference is not the target's fault.
 */
import type { OperationInput, OperationName } from '../live.ts';
import { isObject } from './json-pointer.ts';
import type { ResultDifference } from './operation-diff.ts';
import type { RecordedExchange } from './record-format.ts';
import type { ReplayDivergence } from './replay-divergence.ts';

/** Result fields that report the agent's balance: after it left the recording's, a difference there is its consequence. */
const BALANCE_FIELD = /(^|\.)balance(After)?Micro$/;

/** What an exchange sent and what the replay knows of its causes. */
export interface SentExchange {
  readonly op: OperationName;
  readonly input: OperationInput<OperationName>;
  readonly liveKey: string | null;
  /** The agent's account on the service is the replay's own (a deployment's trading, domains). */
  readonly ownAccount: boolean;
  /** Why the exchange names an object the target never created, or null. */
  readonly orphanCause: string | null;
}

export class ReplayConsequences {
  /** Domain names whose holder on the target left the recording's, and since when and why. */
  private readonly namesDiverged = new Map<string, string>();

  private readonly divergence: ReplayDivergence;

  constructor(divergence: ReplayDivergence) {
    this.divergence = divergence;
  }

  /** The exchange's differences, each explained by the first cause that holds (or left unexplained). */
  explain(
    exchange: RecordedExchange,
    differences: readonly ResultDifference[],
    sent: SentExchange,
  ): ResultDifference[] {
    const money = this.consequences(differences, sent.liveKey, sent.ownAccount);
    const held = this.divergence.explain(sent.op, sent.input, exchange.at_ms, money);
    return explainedBy(sent.orphanCause, rateLimitedInRecording(exchange, this.nameConsequences(held, sent.input)));
  }

  /**
   * Differences about the agent's money that an earlier cause explains (info): its balance left
   * the recording's (a draw, a refusal, a credit not reproduced), or its account on the service is
   * the replay's own (a deployment's trading and domains keep their own, funded by the replay).
   */
  consequences(
    differences: readonly ResultDifference[],
    liveKey: string | null,
    ownAccount: boolean,
  ): ResultDifference[] {
    const since = this.divergence.balanceLeftAt(liveKey);
    const cause = ownAccount
      ? "the agent's account on this service is the replay's own, funded by it (DEPLOYED.md §1.1)"
      : since === undefined
        ? undefined
        : `the agent's balance on the target left the recording's at ${since}`;
    if (cause === undefined) return [...differences];
    return differences.map((difference) => {
      const funds =
        BALANCE_FIELD.test(difference.field) ||
        (/accepted$/.test(difference.field) &&
          /insufficient|kelly|balance|limit/i.test(`${String(difference.expected)} ${String(difference.seen)}`));
      return funds && difference.documented === undefined
        ? { ...difference, documented: cause, consequence: true }
        : difference;
    });
  }

  /** A transfer not replayed, or answered otherwise: the name's holder on the target may be another than the recording's from now on. */
  nameDiverges(op: OperationName, input: unknown, why: string): void {
    if (op !== 'domains.transfer' && op !== 'domains.register') return;
    const domain = isObject(input) ? input['domain'] : undefined;
    if (typeof domain === 'string' && !this.namesDiverged.has(domain)) this.namesDiverged.set(domain, why);
  }

  /** A later difference about a name whose holder already left the recording's is its consequence (info), naming the cause. */
  private nameConsequences(
    differences: readonly ResultDifference[],
    input: OperationInput<OperationName>,
  ): ResultDifference[] {
    const names = (input as { names?: unknown }).names;
    const asked = (input as { domain?: unknown }).domain ?? (Array.isArray(names) ? names[0] : undefined);
    return differences.map((difference) => {
      const domain = difference.domain ?? asked;
      const since = typeof domain === 'string' ? this.namesDiverged.get(domain) : undefined;
      return difference.documented === undefined && since !== undefined
        ? {
            ...difference,
            documented: `the holder of ${domain as string} on the target left the recording's at ${since}`,
            consequence: true,
          }
        : difference;
    });
  }
}

/** Every difference not yet explained, explained by `cause` (info, a consequence); unchanged when there is none. */
function explainedBy(cause: string | null, differences: readonly ResultDifference[]): ResultDifference[] {
  if (cause === null) return [...differences];
  return differences.map((difference) =>
    difference.documented === undefined ? { ...difference, documented: cause, consequence: true } : difference,
  );
}

/**
 * A recorded 429 is sent like any exchange (its operation exists on the target), but the target's
 * limits are its own: whatever it answers is not the recording's refusal to match (info).
 */
function rateLimitedInRecording(
  exchange: RecordedExchange,
  differences: readonly ResultDifference[],
): ResultDifference[] {
  if (exchange.response.status !== 429) return [...differences];
  return differences.map((difference) =>
    difference.documented === undefined
      ? {
          ...difference,
          documented: "the recording's own rate limit refused it (429); the target's limits are its own",
        }
      : difference,
  );
}
