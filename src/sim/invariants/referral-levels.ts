/**
 * Invariant `referral-levels`: every referrer earns exactly the declared share of its
 * descendants' fees at each level (platform.md item 6; docs/decisions/platform.md "Referral programme").
 *
 * How: the checker keeps its own expected earnings per (referrer, service, level) from the fee
 * events (trading.order / trading.filled fees, domains registrations and renewals, first escrow
 * releases, the wallet's finished swaps' `wallet.fee`) with the documents' shares — trading 20 %,
 * escrow and domains 15 %, wallet 10 % at level 1, half
 * and a quarter of it at levels 2 and 3, each floor(fee × bps / 10,000) — and the chain of
 * registration referrers (an escrow's level 1 is its own referrer; parties never earn). The
 * shares are the documents', not the platform's config, so a misconfigured or defective level is
 * caught. After every fee event: the `referral.accrue[.level<n>]` transfers since the previous
 * event arrived at the right payables in the right amounts, and the book's per-level totals for
 * that chain equal the expected ones; a referral transfer with no fee event is a violation. At
 * the end every referrer is compared again, and the book's casino levels equal the casino's own
 * commissions (their amounts are casino-referral-levels' business).
 * Limits: one entry per referrer and service; pending transfers of one fee (at most three).
 */
import { referralAccount } from '../../core/ledger.ts';
import { formatDecimal, type Micro } from '../../core/money.ts';
import { REFERRAL_LEVELS_MAX, uplineOf, type ReferralService } from '../../services/shared/referral-programme.ts';
import type { DomainEvent } from '../../services/shared/events.ts';
import { jsonText } from '../json-text.ts';
import type { Platform } from '../../platform/platform.ts';
import type { InvariantDefinition, Violation } from './checker.ts';

/** platform.md item 6: level-1 shares of the fee services, in basis points. */
const SPEC_LEVEL_ONE_BPS: Readonly<Partial<Record<ReferralService, bigint>>> = {
  trading: 2_000n,
  escrow: 1_500n,
  domains: 1_500n,
  wallet: 1_000n,
};
/** The fee services whose book totals are compared at the end (a wallet fee event joins `feeOf`). */
const FEE_SERVICES = ['trading', 'escrow', 'domains', 'wallet'] as const;
/** docs/decisions/platform.md: levels 2 and 3 are 1/2 and 1/4 of the level-1 share. */
const SPEC_DIVISORS: readonly bigint[] = [1n, 2n, 4n];
const ACCRUE_REASON = 'referral.accrue';

interface Fee {
  readonly service: ReferralService;
  readonly payerId: string;
  readonly feeMicro: Micro;
  readonly chain: readonly string[];
  readonly excluded: readonly string[];
}

interface Pending {
  readonly level: number;
  readonly to: string;
  readonly amountMicro: Micro;
}

function levelOf(reason: string): number | null {
  if (reason === ACCRUE_REASON) return 1;
  if (!reason.startsWith(`${ACCRUE_REASON}.level`)) return null;
  return Number(reason.slice(`${ACCRUE_REASON}.level`.length));
}

/** What the checker keeps: escrow parties, escrows released once, expected earnings, transfers of the fee at hand. */
interface Books {
  readonly platform: Platform;
  readonly parties: Map<string, readonly string[]>;
  readonly released: Set<string>;
  readonly expected: Map<string, Map<ReferralService, Micro[]>>;
  pending: Pending[];
}

/** A fee `payerId` paid to `service`, shared up the payer's referral chain. */
function paid(books: Books, service: ReferralService, payerId: string, feeMicro: Micro): Fee {
  return { service, payerId, feeMicro, chain: uplineOf(books.platform.agents, payerId), excluded: [] };
}

function feeOf(books: Books, event: DomainEvent): Fee | null {
  if (event.type === 'trading.order' || event.type === 'trading.filled')
    return event.feeMicro > 0n ? paid(books, 'trading', event.agentId, event.feeMicro) : null;
  if (event.type === 'domains.registered' || event.type === 'domains.renewed')
    return event.costMicro > 0n ? paid(books, 'domains', event.ownerId, event.costMicro) : null;
  if (event.type === 'wallet.fee') return paid(books, 'wallet', event.agentId, event.feeMicro);
  if (event.type !== 'escrow.released') return null;
  const escrowParties = books.parties.get(event.escrowId);
  // A second release of one escrow is escrow-settles-once's business, not a fee.
  if (books.released.has(event.escrowId) || escrowParties === undefined || event.feeMicro === 0n) return null;
  books.released.add(event.escrowId);
  const senderId = escrowParties[0] as string;
  return {
    service: 'escrow',
    payerId: senderId,
    feeMicro: event.feeMicro,
    chain: uplineOf(books.platform.agents, senderId, event.referrerId),
    excluded: escrowParties,
  };
}

function expectedOf(books: Books, referrerId: string, service: ReferralService): Micro[] {
  let services = books.expected.get(referrerId);
  if (services === undefined) {
    services = new Map();
    books.expected.set(referrerId, services);
  }
  let levels = services.get(service);
  if (levels === undefined) {
    levels = new Array<Micro>(REFERRAL_LEVELS_MAX).fill(0n);
    services.set(service, levels);
  }
  return levels;
}

/** The book's per-level earnings of one referrer and service against the expected ones. */
function judgeBook(
  books: Books,
  on: { readonly referrerId: string; readonly service: ReferralService; readonly atMs: number },
  event: () => string,
): Violation | null {
  const { referrerId, service, atMs } = on;
  const want = expectedOf(books, referrerId, service);
  const book = books.platform.referrals.earnedByLevel(referrerId, service);
  for (let level = 0; level < REFERRAL_LEVELS_MAX; level++) {
    if ((book[level] ?? 0n) !== want[level]) {
      return {
        atMs,
        event: event(),
        message: `referrer ${referrerId}: ${service} level ${level + 1} earned ${formatDecimal(book[level] ?? 0n)} in the book, due ${formatDecimal(want[level] ?? 0n)}`,
      };
    }
  }
  return null;
}

/** The transfers of this fee, level by level, against the documents' shares. */
function judgeFee(books: Books, fee: Fee, atMs: number, event: () => string): Violation | null {
  const levelOneBps = SPEC_LEVEL_ONE_BPS[fee.service] ?? 0n;
  for (let level = 1; level <= REFERRAL_LEVELS_MAX; level++) {
    const referrerId = fee.chain[level - 1];
    const earns = referrerId !== undefined && referrerId !== fee.payerId && !fee.excluded.includes(referrerId);
    const dueMicro = earns ? (fee.feeMicro * (levelOneBps / (SPEC_DIVISORS[level - 1] as bigint))) / 10_000n : 0n;
    const arrived = books.pending.filter((transfer) => transfer.level === level);
    const arrivedMicro = arrived.reduce((sum, transfer) => sum + transfer.amountMicro, 0n);
    const misdirected = arrived.find(
      (transfer) => referrerId === undefined || transfer.to !== referralAccount(referrerId),
    );
    if (arrivedMicro !== dueMicro || misdirected !== undefined) {
      return {
        atMs,
        event: event(),
        message: `${fee.service} fee ${formatDecimal(fee.feeMicro)} of ${fee.payerId}: level ${level} share ${formatDecimal(arrivedMicro)}, due ${formatDecimal(dueMicro)}${misdirected === undefined ? '' : ` (one to ${misdirected.to})`}`,
      };
    }
    if (referrerId !== undefined && dueMicro > 0n) {
      const levels = expectedOf(books, referrerId, fee.service);
      levels[level - 1] = (levels[level - 1] as Micro) + dueMicro;
    }
  }
  for (const referrerId of fee.chain) {
    const violation = judgeBook(books, { referrerId, service: fee.service, atMs }, event);
    if (violation !== null) return violation;
  }
  return null;
}

/** An event: a fee's transfers judged, or any referral transfer without a fee a violation. */
function judgeEvent(books: Books, event: DomainEvent): Violation | null {
  if (event.type === 'escrow.created') books.parties.set(event.escrowId, [event.senderId, event.receiverId]);
  const fee = feeOf(books, event);
  const text = (): string => jsonText(event);
  if (fee === null) {
    const stray = books.pending[0];
    books.pending = [];
    return stray === undefined
      ? null
      : {
          atMs: event.atMs,
          event: text(),
          message: `a level ${stray.level} referral share of ${formatDecimal(stray.amountMicro)} to ${stray.to} with no fee`,
        };
  }
  const violation = judgeFee(books, fee, event.atMs, text);
  books.pending = [];
  return violation;
}

/** At the end: every referrer's fee books, and its casino levels against the casino's own commissions. */
function judgeEnd(books: Books, endMs: number): Violation | null {
  const { platform } = books;
  const event = (referrerId: string) => (): string => jsonText({ audit: 'end of run', referrerId });
  for (const referrerId of platform.referrals.referrers()) {
    for (const service of FEE_SERVICES) {
      const violation = judgeBook(books, { referrerId, service, atMs: endMs }, event(referrerId));
      if (violation !== null) return violation;
    }
    const casinoBook = platform.referrals.earnedByLevel(referrerId, 'casino');
    const casinoOwn = platform.casino.state.commissions.earnedBy(referrerId);
    if (casinoBook.some((amount, index) => amount !== (casinoOwn[index] ?? 0n))) {
      return {
        atMs: endMs,
        event: event(referrerId)(),
        message: `referrer ${referrerId}: casino levels ${casinoBook.map(formatDecimal).join('/')} in the book, ${casinoOwn.map(formatDecimal).join('/')} by the casino`,
      };
    }
  }
  return null;
}

export const referralLevels: InvariantDefinition = {
  name: 'referral-levels',
  description:
    "each referrer's earnings equal the declared share of its descendants' fees at each level (trading 20 %, escrow and domains 15 %, wallet 10 %, halved per level)",
  create({ platform }) {
    const books: Books = { platform, parties: new Map(), released: new Set(), expected: new Map(), pending: [] };
    return {
      onTransfer(transfer) {
        const level = levelOf(transfer.reason);
        if (level !== null) books.pending.push({ level, to: transfer.to, amountMicro: transfer.amountMicro });
        return null;
      },
      onEvent(event) {
        return judgeEvent(books, event);
      },
      atEnd(endMs) {
        return judgeEnd(books, endMs);
      },
    };
  },
};
