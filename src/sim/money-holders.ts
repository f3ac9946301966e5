/**
 * Who holds the money at the end of a run: every ledger account grouped into the rows of the run
 * summary's money table, so that the rows a user reads add up to what the ledger holds (the
 * money that came in from outside: minus the `external` balance). Conservation shown to a user
 * must add up; before this table listed only agent balances, fee income and the faucet pool, and
 * a trading run's house, insurance and margin (or an escrow run's locked funds) were missing.
 *
 * Groups are data (HOLDER_GROUPS: an exact account name or a name prefix, in table order); an
 * account no group names falls into `other accounts`, so a new service's account is never silently
 * left out. Invariants: the groups' amounts plus agent balances, fee income and the faucet pool
 * sum to `totalHeldMicro`; `totalHeldMicro + external = ledger sum` (0 on a sound ledger). Groups
 * with zero are left out of `holders` (a run without trading lists no trading rows).
 */
import {
  EXTERNAL,
  FAUCET_POOL,
  FEE_INCOME,
  agentAccount,
  escrowAccount,
  referralAccount,
  type AccountName,
} from '../core/ledger.ts';
import type { Micro } from '../core/money.ts';
import type { MoneyHolder } from '../report/run-record.ts';
import { challengeAccount } from '../services/casino/challenges/challenge-record.ts';
import { crashRoundAccount } from '../services/casino/crash-rounds.ts';
import { CASINO_HOUSE } from '../services/casino/referral-commission.ts';
import { tournamentAccount } from '../services/casino/tournaments/tournament-record.ts';
import { videoPokerHoldAccount as videoPokerAccount } from '../services/casino/video-poker-hands.ts';
import {
  TRADING_HOUSE,
  TRADING_INSURANCE,
  tradingHoldAccount,
  marginAccount,
} from '../services/trading/trading-record.ts';

interface HolderGroup {
  readonly name: string;
  readonly exact?: AccountName;
  readonly prefixes?: readonly string[];
}

/** An account-name function's prefix: the name it gives an empty id. */
const prefixOf = (account: (id: string) => AccountName): string => account('');

/** The system accounts' groups, in the order the money table lists them. */
const HOLDER_GROUPS: readonly HolderGroup[] = [
  { name: 'escrow held', prefixes: [prefixOf(escrowAccount)] },
  { name: 'referral payable', prefixes: [prefixOf(referralAccount)] },
  { name: 'casino house', exact: CASINO_HOUSE },
  {
    name: 'casino stakes held',
    prefixes: [
      prefixOf(crashRoundAccount),
      prefixOf(tournamentAccount),
      prefixOf(challengeAccount),
      prefixOf(videoPokerAccount),
    ],
  },
  { name: 'trading house', exact: TRADING_HOUSE },
  { name: 'trading insurance', exact: TRADING_INSURANCE },
  { name: 'trading margin held', prefixes: [prefixOf(marginAccount)] },
  { name: 'trading order reserves', prefixes: [prefixOf(tradingHoldAccount)] },
];
const OTHER = 'other accounts';
/** Every row name of the table in its order (the sweep's money columns: one per row, zeros included). */
export const HOLDER_NAMES: readonly string[] = [...HOLDER_GROUPS.map((group) => group.name), OTHER];
/** Accounts the table shows in its own rows (agents, fees, faucet) or as the total (external). */
const SHOWN_APART = new Set<AccountName>([EXTERNAL, FEE_INCOME, FAUCET_POOL]);
const AGENT_PREFIX = prefixOf(agentAccount);

export interface MoneyHolders {
  /** Non-zero groups in HOLDER_GROUPS order, then `other accounts` when non-zero. */
  readonly holders: readonly MoneyHolder[];
  /** Everything the ledger holds: minus the external account's balance. */
  readonly totalHeldMicro: Micro;
}

export function moneyHolders(accounts: ReadonlyMap<AccountName, Micro>): MoneyHolders {
  const sums = new Map<string, Micro>();
  for (const [account, balanceMicro] of accounts) {
    if (SHOWN_APART.has(account) || account.startsWith(AGENT_PREFIX)) continue;
    const group = HOLDER_GROUPS.find(
      (candidate) =>
        candidate.exact === account || (candidate.prefixes ?? []).some((prefix) => account.startsWith(prefix)),
    );
    const name = group?.name ?? OTHER;
    sums.set(name, (sums.get(name) ?? 0n) + balanceMicro);
  }
  const holders: MoneyHolder[] = [];
  for (const name of HOLDER_NAMES) {
    const amountMicro = sums.get(name) ?? 0n;
    if (amountMicro !== 0n) holders.push({ name, amountMicro });
  }
  return { holders, totalHeldMicro: -(accounts.get(EXTERNAL) ?? 0n) };
}
