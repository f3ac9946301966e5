/**
 * Outcomes a target draws itself: a bet, a batch, a bet's audit, a seed's rotation. Across two
 * dialects the draws are each target's own (its seeds, its scheme: DEPLOYED.md §2.3), so the
 * recorded roll, win and payout are not the live one's to match. What must hold whatever the draw
 * is compared instead: accepted or refused (operation-diff.ts, before this), the stake, each bet
 * id bound to the target's, a batch's length and which of its bets were placed, and the payout
 * against the target's own result: a lost bet credits nothing, a won bet credits its stake times
 * the multiplier it shows (to the places the answer rounds to). A payout off its own result is a
 * money difference with no documented cause.
 * Pure; the replay leaves the agent's balance (replay-divergence.ts) after every drawn outcome.
 */
import { formatDecimal, type Micro } from '../core/money.ts';
import type { AuditedBet, LiveBet, OperationName, OperationResult, Refusal } from '../live.ts';
import type { Bindings } from './bindings.ts';
import type { ResultDifference } from './operation-diff.ts';

/** Operations whose result the target draws (or reveals) by its own seeds. */
export const DRAWN_OPERATIONS: ReadonlySet<OperationName> = new Set<OperationName>([
  'casino.bet',
  'casino.tournament-play',
  'casino.batch',
  'casino.audit',
  'casino.verify',
  'casino.rotate',
  'casino.seeds',
  'casino.deal',
  'casino.draw',
]);

const MICRO_PER_UNIT = 1_000_000n;
/** The multiplier's decimals kept when it is turned into micro-units (the answers show at most 6). */
const MULTIPLIER_SCALE = 1_000_000;

function isBet(value: LiveBet | Refusal): value is LiveBet {
  return 'betId' in value;
}

/** The credit a won bet's own multiplier gives, within the rounding its answer shows: [low, high] micro-USDC. */
function creditRange(bet: LiveBet, multiplier: number): readonly [Micro, Micro] {
  const exact = (bet.amountMicro * BigInt(Math.round(multiplier * MULTIPLIER_SCALE))) / BigInt(MULTIPLIER_SCALE);
  const places = bet.paidPlaces ?? null;
  // Half a unit of the last shown place, and one micro-unit for the multiplier's own rounding.
  const slack = places === null || places >= 6 ? 1n : MICRO_PER_UNIT / 10n ** BigInt(places) / 2n + 1n;
  return [exact - slack, exact + slack];
}

/** The payout against the bet's own result: null when it holds (or the answer does not say enough). */
export function payoutOffResult(bet: LiveBet, field: string): ResultDifference | null {
  const paid = bet.paidMicro;
  if (paid === null || bet.won === null) return null;
  if (!bet.won) {
    return paid === 0n
      ? null
      : {
          kind: 'money',
          field: `${field}paidMicro`,
          expected: '0',
          seen: formatDecimal(paid),
          note: 'a bet the target shows lost credited money',
        };
  }
  if (bet.multiplier === null || !Number.isFinite(bet.multiplier)) return null;
  const [low, high] = creditRange(bet, bet.multiplier);
  if (paid >= low && paid <= high) return null;
  return {
    kind: 'money',
    field: `${field}paidMicro`,
    expected: `${formatDecimal(bet.amountMicro)} × ${bet.multiplier}`,
    seen: formatDecimal(paid),
    note: 'a won bet credited other than its stake times the multiplier the target shows',
  };
}

/** One bet on each side: its id bound, its stake compared, the live payout held to the live result. */
function compareBet(recorded: LiveBet, live: LiveBet, field: string, bindings: Bindings): ResultDifference[] {
  const differences: ResultDifference[] = [];
  const bound = bindings.bind(recorded.betId, live.betId);
  if (!bound.ok)
    differences.push({
      kind: 'rule',
      field: `${field}betId`,
      expected: bound.expected,
      seen: live.betId,
      note: bound.conflict,
    });
  if (recorded.amountMicro !== live.amountMicro)
    differences.push({
      kind: 'money',
      field: `${field}amountMicro`,
      expected: formatDecimal(recorded.amountMicro),
      seen: formatDecimal(live.amountMicro),
      note: 'another stake',
    });
  const payout = payoutOffResult(live, field);
  if (payout !== null) differences.push(payout);
  return differences;
}

function compareBatch(
  recorded: OperationResult<'casino.batch'>,
  live: OperationResult<'casino.batch'>,
  bindings: Bindings,
): ResultDifference[] {
  const differences: ResultDifference[] = [];
  if (recorded.results.length !== live.results.length)
    differences.push({
      kind: 'rule',
      field: 'results.length',
      expected: recorded.results.length,
      seen: live.results.length,
      note: 'a batch of another length',
    });
  recorded.results.forEach((expected, index) => {
    const seen = live.results[index];
    if (seen === undefined) return;
    const field = `results[${index}].`;
    if (isBet(expected) && isBet(seen)) differences.push(...compareBet(expected, seen, field, bindings));
    else if (isBet(expected) !== isBet(seen))
      differences.push({
        kind: 'rule',
        field: `${field}accepted`,
        expected: isBet(expected) ? 'accepted' : `${expected.status} ${expected.name}`,
        seen: isBet(seen) ? 'accepted' : `${seen.status} ${seen.name}`,
        note: isBet(expected)
          ? 'a bet of the batch refused where the recording placed it'
          : 'a bet of the batch placed where the recording refused it',
      });
  });
  return differences;
}

/** The target's own check of its bet: whatever it drew, it must not find its own bet false. */
function verifiedOwnBet(live: OperationResult<'casino.verify'>): ResultDifference[] {
  return live.verified === false
    ? [
        {
          kind: 'rule',
          field: 'verified',
          expected: true,
          seen: false,
          note: "the target's own verification fails its bet",
        },
      ]
    : [];
}

/** Both answers accepted: what must hold whatever the target drew. */
export function compareDrawn(
  op: OperationName,
  recorded: unknown,
  live: unknown,
  bindings: Bindings,
): ResultDifference[] {
  if (op === 'casino.bet' || op === 'casino.draw' || op === 'casino.tournament-play')
    return compareBet(recorded as LiveBet, live as LiveBet, '', bindings);
  if (op === 'casino.audit')
    return compareBet((recorded as AuditedBet).bet, (live as AuditedBet).bet, 'bet.', bindings);
  if (op === 'casino.batch')
    return compareBatch(recorded as OperationResult<'casino.batch'>, live as OperationResult<'casino.batch'>, bindings);
  if (op === 'casino.verify') return verifiedOwnBet(live as OperationResult<'casino.verify'>);
  // A rotation, a seed list, a deal: the target's own seeds and cards; nothing holds across draws.
  return [];
}
