/**
 * A command of `afp check --target` met one of the target's announced outages: an afp serve
 * started with `--scenario` answers a service's requests with 500 or 503 inside its fault windows,
 * and lists them at GET /_afp/platform (served-faults.ts). Such an answer is the outage the serve
 * was told to give, and it changed nothing: the command is skipped (counted in a note), neither a
 * mismatch (exit 3) nor the target being unavailable (exit 4). Why thrown: a command learns it
 * mid-way, and fast-check's command runner carries no returned outcome (as CheckMismatch).
 * Only where the target announces its windows; elsewhere a 5xx stays an answer like any other.
 * announcedOutages reads the windows once, for a check's runs, and counts the commands skipped.
 */
import { AdminClient } from '../../client/admin-client.ts';
import type { CallOutcome, OperationName, Target } from '../../live.ts';
import { servedFaults, serviceFaultAt } from '../served-faults.ts';
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

/** Commands named in the note of those skipped at an outage; the rest are counted. */
const OUTAGE_LABELS_MAX = 5;

/**
 * The fault windows an afp serve announces (GET /_afp/platform): a command whose answer is a 500 or
 * 503 of one, at the serve's time (GET /_afp/clock, read at that answer), is skipped (target-outage.ts),
 * and the summary says how many were. Nothing where the target is no afp serve or lists no window.
 */
export async function announcedOutages(
  target: Target,
  notes: string[],
): Promise<{ system: Pick<DialectSystem, 'inOutage' | 'outageMet'>; summary: () => string[] }> {
  const none = { system: {}, summary: () => [] };
  if (!target.afpServe || target.adminUrl === null) return none;
  const admin = AdminClient.ofUrl(target.adminUrl);
  const platform = await admin.platform();
  const faults = platform.ok ? servedFaults(platform.value).filter((fault) => fault.game === undefined) : [];
  if (faults.length === 0) return none;
  notes.push(
    `a 500 or 503 inside one of the target's ${faults.length} fault window(s) (GET /_afp/platform) is the outage it was told to answer: the command that met it is skipped, not judged`,
  );
  // Counted whole; the first labels are kept for the note (a long outage meets every run).
  let met = 0;
  const labels = new Set<string>();
  return {
    system: {
      inOutage: async (service, status) => {
        const clock = await admin.clock();
        return clock.ok && serviceFaultAt(faults, service, status, clock.value.nowMs);
      },
      outageMet: (label) => {
        met += 1;
        if (labels.size <= OUTAGE_LABELS_MAX) labels.add(label);
      },
    },
    summary: () => {
      if (met === 0) return [];
      const named = [...labels].slice(0, OUTAGE_LABELS_MAX).join(', ');
      return [
        `${met} command(s) met the target's fault windows and were skipped: ${named}${labels.size > OUTAGE_LABELS_MAX ? ', …' : ''}`,
      ];
    },
  };
}
