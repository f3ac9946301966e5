/**
 * What a money probe of `afp audit money` is (a name and a run that raises findings and says what it
 * did, or why it was skipped), and the minimum bets the casino probes place: a coin flip at the
 * documents' minimum with a seed naming the probe's bet, so a probe costs cents. Shared by
 * money-probes.ts and the probes split out beside it (batch-summary-probe.ts).
 */
import type { Micro } from '../../core/money.ts';
import type { BetInput } from '../../live.ts';
import type { FindingInput } from '../../report/findings/finding.ts';
import { casinoBalanceMicro } from './casino-balance.ts';
import type { ProbeContext } from './probe-context.ts';

/** Bets in a probe's batch or run. */
export const PROBE_BETS = 10;
/** The documents' minimum bet. */
export const PROBE_MIN_BET_MICRO = 10_000n;

export interface Probe {
  readonly name: string;
  run(
    context: ProbeContext,
    raise: (finding: FindingInput) => void,
  ): Promise<{ status: 'ran' | 'skipped'; note: string }>;
}

export const abs = (value: bigint): bigint => (value < 0n ? -value : value);

export function balance(context: ProbeContext, apiKey = context.apiKey): Promise<Micro | null> {
  return casinoBalanceMicro(context.session, apiKey);
}

export function bet(
  index: number,
  params: Record<string, string | number> = { side: 'heads' },
  game = 'coin_flip',
  amountMicro = PROBE_MIN_BET_MICRO,
): BetInput {
  return { game, amountMicro, clientSeed: `afp-money-probe-${index}`, params };
}
