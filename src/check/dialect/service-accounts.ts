/**
 * The check's own accounts on a target's trading and domains services, where those keep accounts,
 * keys and balances of their own (the deployment's, DEPLOYED.md §1.1): opened once per invocation
 * (`trading.register`; `domains.account` twice, the second the receiver of gifts) and funded the
 * one way afp can fund them, an afp serve's admin deposit. A deployment's trading and domains take
 * chain deposits afp cannot make, and the faucet pays casino agents only (one claim per IP a day):
 * there the rows are left out, with that reason, rather than sent against empty balances.
 * Non-goals: a service that shares the casino's accounts (the documents' one platform): no row
 * needs these accounts there, and they stay unopened with the reason.
 */
import type { Deadline } from '../../core/deadline.ts';
import type { WaitClock } from '../../core/clock.ts';
import { formatDecimal, type Micro } from '../../core/money.ts';
import { fundLiveAccount, type LiveSession } from '../../live.ts';

/** A trading account's funds: positions of 2 to 5 USDC at leverage 1 to 5, a few at a time. */
export const TRADING_FUND_MICRO: Micro = 20_000_000n;
/** A domains account's funds: about twenty .xyz names a year at the documents' 14.40 (a run registers up to four). */
export const DOMAINS_FUND_MICRO: Micro = 300_000_000n;

export interface OpenedService {
  readonly accounts: readonly { readonly agentId: string; readonly apiKey: string }[];
}

interface OpenOptions {
  readonly session: LiveSession;
  readonly clock: WaitClock;
  readonly deadline: Deadline;
}

/** Why the check cannot fund an account of a service of its own on this target, or null. */
function unfundable(session: LiveSession, service: string): string | null {
  const target = session.target;
  if (target.funding.method === 'admin-deposit' && target.afpServe) return null;
  // The user's funding command is told the service (AFP_SERVICE): it funds a trading or domains account as it does a casino one.
  if (target.funding.method === 'command') return null;
  return `${service} keeps its own accounts and balances (DEPLOYED.md §1.1), and ${target.name} funds only by ${target.funding.method}: a deployment's ${service} takes chain deposits afp cannot make, so only an afp serve (its admin deposit) or a funding command (funding: { method: command }, told AFP_SERVICE) funds them`;
}

export async function openTradingAccounts(options: OpenOptions): Promise<OpenedService | string> {
  const { session } = options;
  const missing = session.offers('trading.register') ?? session.offers('trading.balance');
  if (missing !== null) return `the target keeps no trading accounts of its own the check can open (${missing})`;
  const why = unfundable(session, 'trading');
  if (why !== null) return why;
  const registered = await session.call('trading.register', {}, null);
  if (registered.kind !== 'ok')
    return `a trading account could not be registered: ${registered.kind === 'refused' ? `${registered.refusal.status} ${registered.refusal.name}` : registered.kind}`;
  const funded = await fundLiveAccount(
    {
      session,
      key: null,
      fundMicro: TRADING_FUND_MICRO,
      clock: options.clock,
      deadline: options.deadline,
      balanceOperation: 'trading.balance',
    },
    registered.value.agentId,
    registered.value.apiKey,
  );
  if (!funded.ok)
    return `the trading account ${registered.value.agentId} could not be funded with ${formatDecimal(TRADING_FUND_MICRO)} USDC: ${funded.message}`;
  return { accounts: [registered.value] };
}

export async function openDomainsAccounts(options: OpenOptions): Promise<OpenedService | string> {
  const { session } = options;
  const missing = session.offers('domains.account') ?? session.offers('domains.balance');
  if (missing !== null) return `the target keeps no domains accounts of its own the check can open (${missing})`;
  const why = unfundable(session, 'domains');
  if (why !== null) return why;
  const accounts: { agentId: string; apiKey: string }[] = [];
  for (let index = 0; index < 2; index++) {
    const opened = await session.call('domains.account', {}, null);
    if (opened.kind !== 'ok')
      return `a domains account could not be registered: ${opened.kind === 'refused' ? `${opened.refusal.status} ${opened.refusal.name}` : opened.kind}`;
    accounts.push(opened.value);
  }
  const [first] = accounts;
  if (first === undefined) return 'no domains account';
  const funded = await fundLiveAccount(
    {
      session,
      key: null,
      fundMicro: DOMAINS_FUND_MICRO,
      clock: options.clock,
      deadline: options.deadline,
      balanceOperation: 'domains.balance',
    },
    first.agentId,
    first.apiKey,
  );
  if (!funded.ok)
    return `the domains account ${first.agentId} could not be funded with ${formatDecimal(DOMAINS_FUND_MICRO)} USDC: ${funded.message}`;
  return { accounts };
}

/** The registration and balance operations of a service that keeps accounts of its own. */
const ACCOUNT_OPERATIONS = {
  trading: { register: 'trading.register', balance: 'trading.balance' },
  domains: { register: 'domains.account', balance: 'domains.balance' },
} as const;

export type AccountService = keyof typeof ACCOUNT_OPERATIONS;

/** Why the target's `service` shares the casino's accounts (no account of its own to open), or null when it keeps its own. */
export function sharedAccounts(session: LiveSession, service: AccountService): string | null {
  const operations = ACCOUNT_OPERATIONS[service];
  return session.offers(operations.register) ?? session.offers(operations.balance);
}

/** One account on `service`, registered and funded with `fundMicro` (the replay opens one per recorded agent); a reason when it cannot be. */
export async function openServiceAccount(
  options: OpenOptions,
  service: AccountService,
  fundMicro: Micro,
): Promise<{ readonly agentId: string; readonly apiKey: string } | string> {
  const { session } = options;
  const operations = ACCOUNT_OPERATIONS[service];
  const why = unfundable(session, service);
  if (why !== null) return why;
  const registered = await session.call(operations.register, {}, null);
  if (registered.kind !== 'ok')
    return `a ${service} account could not be registered: ${registered.kind === 'refused' ? `${registered.refusal.status} ${registered.refusal.name}` : registered.kind}`;
  const funded = await fundLiveAccount(
    {
      session,
      key: null,
      fundMicro,
      clock: options.clock,
      deadline: options.deadline,
      balanceOperation: operations.balance,
    },
    registered.value.agentId,
    registered.value.apiKey,
  );
  if (!funded.ok)
    return `the ${service} account ${registered.value.agentId} could not be funded with ${formatDecimal(fundMicro)} USDC: ${funded.message}`;
  return registered.value;
}
