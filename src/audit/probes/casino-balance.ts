/**
 * The casino balance an account holds, read through the live session, or null when it could not
 * be read. Why a file: the edge audit and every probe set (money, pots, replay, settlement) read
 * it around what they do, and each had written the same three lines.
 */
import type { Micro } from '../../core/money.ts';
import type { LiveSession } from '../../live.ts';

export async function casinoBalanceMicro(session: LiveSession, apiKey: string): Promise<Micro | null> {
  const outcome = await session.call('casino.balance', {}, apiKey);
  return outcome.kind === 'ok' ? outcome.value.balanceMicro : null;
}
