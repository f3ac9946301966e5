/**
 * A command of `afp check --target` met one of the target's announced outages: an afp serve
 * started with `--scenario` answers a service's requests with 500 or 503 inside its fault windows,
 * and lists them at GET /_afp/platform (served-faults.ts). Such an answer is the outage the serve
 * was told to give, and it changed nothing: the command is skipped (counted in a note), neither a
 * mismatch (exit 3) nor the target being unavailable (exit 4). Why thrown: a command learns it
 * mid-way, and fast-check's command runner carries no returned outcome (as CheckMismatch).
 * Only where the target announces its windows; elsewhere a 5xx stays an answer like any other.
 */
import type { CallOutcome, OperationName } from '../../live.ts';
import type { DialectSystem } from './dialect-model.ts';

export class TargetOutage extends Error {
  override readonly name = 'TargetOutage';
}

/** Throws TargetOutage when `outcome` of `op` is a 500 or 503 inside one of the target's announced fault windows, now. */
export async function throwIfOutage(
  system: DialectSystem,
  label: string,
  op: OperationName,
  outcome: CallOutcome<unknown>,
): Promise<void> {
  if (outcome.kind !== 'refused' || outcome.refusal.status < 500 || system.inOutage === undefined) return;
  const service = op.slice(0, op.indexOf('.'));
  if (await system.inOutage(service, outcome.refusal.status))
    throw new TargetOutage(
      `${label}: ${outcome.refusal.status} ${outcome.refusal.name}, inside the target's fault window for ${service}`,
    );
}
