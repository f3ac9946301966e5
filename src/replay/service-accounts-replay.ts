/**
 * The replay's accounts on a target's trading and domains, where those keep accounts, keys and
 * balances of their own (the deployment's, DEPLOYED.md §1.1: `sk_trade_`, `sk_domains_`): each
 * recorded agent gets its own account on each such service on its first use there (registered and
 * funded as the check's are, check/dialect/service-accounts.ts), and its own bindings per service,
 * so a recorded agent is its casino agent on the casino and its domains account on domains: a
 * whois holder or a transfer's receiver is compared with the account of the same service, never a
 * false difference between two live ids of one recorded agent. Where the service shares the
 * casino's accounts (the documents' one platform), nothing is opened and the replay's own bindings
 * answer. The live domain ids the target issued are kept by name (a deployed transfer names the id).
 * Limits: accounts at most ACCOUNTS_MAX per service (beyond, the exchange is not replayed, with why).
 */
import type { Deadline } from '../core/deadline.ts';
import type { WaitClock } from '../core/clock.ts';
import type { Micro } from '../core/money.ts';
import { openServiceAccount, sharedAccounts, type AccountService } from '../check.ts';
import type { LiveSession } from '../live.ts';
import { Bindings } from './bindings.ts';

/**
 * What each recorded agent's account is funded with: the documents' agents trade and register
 * from their one platform balance, which the recording does not state; enough that no order or
 * registration of a short run is refused for want of funds the recording had (docs/decisions/live-and-audit.md).
 */
export const REPLAY_FUND_MICRO: Readonly<Record<AccountService, Micro>> = {
  trading: 1_000_000_000n,
  domains: 1_000_000_000n,
};
const ACCOUNTS_MAX = 10_000;

export interface ServiceAccount {
  readonly agentId: string;
  readonly apiKey: string;
}

interface ServiceState {
  readonly bindings: Bindings;
  /** Recorded agent id → its account on this service. */
  readonly accounts: Map<string, ServiceAccount>;
  /** Recorded agent ids whose account could not be opened, with why (not tried again). */
  readonly failed: Map<string, string>;
  readonly domainIds: Map<string, string>;
}

export function accountService(service: string): AccountService | null {
  return service === 'trading' || service === 'domains' ? service : null;
}

export class ReplayServiceAccounts {
  private readonly states = new Map<AccountService, ServiceState | null>();

  private readonly options: { readonly session: LiveSession; readonly clock: WaitClock; readonly deadline: Deadline };

  constructor(options: { readonly session: LiveSession; readonly clock: WaitClock; readonly deadline: Deadline }) {
    this.options = options;
  }

  /** The state of a service that keeps its own accounts on the target, or null when it shares the casino's. */
  private state(service: AccountService): ServiceState | null {
    if (!this.states.has(service)) {
      const shared = sharedAccounts(this.options.session, service);
      this.states.set(
        service,
        shared === null
          ? { bindings: new Bindings(), accounts: new Map(), failed: new Map(), domainIds: new Map() }
          : null,
      );
    }
    return this.states.get(service) ?? null;
  }

  /** Whether the target's `service` keeps accounts of its own. */
  separate(service: AccountService): boolean {
    return this.state(service) !== null;
  }

  /** The service's own bindings (recorded agent → its account there, and the ids that service issued); null when shared. */
  bindings(service: AccountService): Bindings | null {
    return this.state(service)?.bindings ?? null;
  }

  account(service: AccountService, recordedAgentId: string): ServiceAccount | null {
    return this.state(service)?.accounts.get(recordedAgentId) ?? null;
  }

  /**
   * The recorded agent's account on `service`, opened and funded on first use; `opened` says
   * whether this call opened it. A string: why it cannot be (the exchange is not replayed).
   */
  async ensure(
    service: AccountService,
    recordedAgentId: string,
  ): Promise<{ readonly account: ServiceAccount; readonly opened: boolean } | string> {
    const state = this.state(service);
    if (state === null) return `${service} shares the casino's accounts`;
    const known = state.accounts.get(recordedAgentId);
    if (known !== undefined) return { account: known, opened: false };
    const failed = state.failed.get(recordedAgentId);
    if (failed !== undefined) return failed;
    if (state.accounts.size >= ACCOUNTS_MAX) return `more than ${ACCOUNTS_MAX} recorded agents on ${service}`;
    const opened = await openServiceAccount(this.options, service, REPLAY_FUND_MICRO[service]);
    if (typeof opened === 'string') {
      state.failed.set(recordedAgentId, opened);
      return opened;
    }
    state.accounts.set(recordedAgentId, opened);
    state.bindings.bind(recordedAgentId, opened.agentId);
    return { account: opened, opened: true };
  }

  domainId(name: string): string | null {
    return this.state('domains')?.domainIds.get(name) ?? null;
  }

  learnDomain(name: string, domainId: string): void {
    this.state('domains')?.domainIds.set(name, domainId);
  }
}
