/**
 * An operation replay's state (operation-replay.ts's header says what the replay does): the
 * bindings of recorded identifiers to the target's, the recorded agents' other names and keys,
 * the escrows and orders the target never created (orphans), the counts of what was sent and
 * skipped, and the acts every step shares: translating a recorded id, opening a service's own
 * accounts, sending and counting, following what an answer leaves, filing skips and differences.
 * Limits: FOLLOWED_MAX per recorded agent.
 */
import type {
  CallOutcome,
  LiveSession,
  SentRequest,
  OperationInput,
  OperationName,
  OperationResult,
  ReadOutcome,
} from '../live.ts';
import type { FindingsCollector } from '../report/findings/finding.ts';
import type { Deadline } from '../core/deadline.ts';
import type { WaitClock } from '../core/clock.ts';
import { Bindings } from './bindings.ts';
import type { ResultDifference } from './operation-diff.ts';
import type { RecordedDeposit, RecordedExchange } from './record-format.ts';
import type { IdTranslation } from './route-operations-types.ts';
import { ReplayPositions } from './replay-positions.ts';
import { accountService, ReplayServiceAccounts } from './service-accounts-replay.ts';
import { ReplayWallets } from './wallet-replay.ts';
import { ReplayDivergence } from './replay-divergence.ts';
import { ReplayLeftovers } from './replay-leftovers.ts';
import { fileDifferences, fileNote, type ReplayNote } from './replay-findings.ts';
import { ReplayConsequences } from './replay-consequences.ts';
import { forwardedFrom, ReplayFunding } from './replay-funding.ts';
import { isRegistration, secretFreeCurl } from './replay-exchange-parts.ts';
import { ReplaySettlements } from './replay-settlements.ts';
import { askedByRecords, sendOperation } from './dns-set-calls.ts';

/** What the replay keeps per recorded agent or escrow, at most (beyond, what it would name is not). */
export const FOLLOWED_MAX = {
  /** Recorded agents given a wallet key of their own on the target (beyond, a 401 stands as it is). */
  walletKeys: 10_000,
  /** Recorded agents' keys, to name a receiver's balance as left (beyond, it is not). */
  keysOfAgents: 1_000_000,
} as const;

/** An escrow the recording created and the target did not: the seq that tried, and the recorded agent it pays. */
export interface Orphan {
  readonly seq: number;
  readonly receiver: string | null;
  /** The recorded id the target never issued, and what it names. */
  readonly id: string;
  readonly kind: 'escrow' | 'order';
}

export interface OperationReplayOptions {
  readonly session: LiveSession;
  readonly findings: FindingsCollector;
  readonly curlOf: (request: SentRequest) => string;
  readonly clock: WaitClock;
  readonly deadline: Deadline;
  /** Pacing and clock sync before an exchange is sent; throws to stop (the CLI's LivenessError). */
  readonly beforeSend?: (exchange: RecordedExchange) => Promise<void>;
  /** The record's casino starting deposits by recorded agent (its header's `deposits`), funded the target's way after each registration. */
  readonly deposits?: Readonly<Record<string, RecordedDeposit>>;
}

export type OperationReplayStop = { readonly seq: number; readonly reason: string } | null;

export interface OperationReplayTotals {
  readonly exchanges: number;
  /** Exchanges sent as an operation (registrations the target's way included). */
  readonly sent: number;
  readonly skipped: number;
  /** Exchanges per operation sent, sorted by name. */
  readonly byOperation: readonly { readonly op: string; readonly count: number }[];
  readonly bindings: number;
}

/**
 * The state an operation replay keeps across exchanges (bindings, aliases, orphans, counts) and the
 * small acts every step shares: translating ids, sending, counting, filing. Extended by
 * ReplayTargetWay (replay-target-way.ts), then OperationReplay (operation-replay.ts).
 */
export class ReplayState {
  protected readonly options: OperationReplayOptions;
  readonly bindings = new Bindings();
  /** Recorded agent address or referral code → recorded agent id (from recorded registrations). */
  protected readonly aliases = new Map<string, string>();
  /** Recorded api key → recorded agent id. */
  protected readonly agentOfKey = new Map<string, string>();
  /** Recorded agent id → its recorded api key (at most FOLLOWED_MAX.keysOfAgents). */
  protected readonly keyOfAgent = new Map<string, string>();
  protected readonly sentByOperation = new Map<string, number>();
  protected exchanges = 0;
  protected sent = 0;
  protected skipped = 0;
  /** Recorded ids the recording created and the target did not (escrows), with the seq that tried. */
  protected readonly orphans = new Map<string, Orphan>();
  /** Orphans the current exchange's input named. */
  protected orphansNamed: Orphan[] = [];
  /** Why the current exchange's differences follow from an orphan it names (orphaned), or null. */
  protected orphanCause: string | null = null;
  /** Balances, escrows and wallet addresses whose state on the target left the recording's (replay-divergence.ts). */
  protected readonly divergence = new ReplayDivergence();
  /** Funding the target's way what the recording was credited otherwise (replay-funding.ts). */
  protected readonly funding: ReplayFunding;
  /** Which differences an earlier cause explains (replay-consequences.ts). */
  protected readonly explained = new ReplayConsequences(this.divergence);
  /** What an exchange not sent, or answered otherwise, leaves the recording's view of (replay-leftovers.ts). */
  protected readonly leftovers = new ReplayLeftovers(this.divergence, this.bindings);
  protected readonly settlements: ReplaySettlements;
  /** Recorded agent → its own key on a wallet that refused its platform key (at most FOLLOWED_MAX.walletKeys). */
  protected readonly walletKeys = new Map<string, string>();
  protected readonly ids: IdTranslation = {
    agent: (reference) => {
      const agentId = this.recordedAgent(reference);
      return this.bindings.live(agentId) ?? reference;
    },
    escrow: (escrowId) => this.orphanOr(escrowId, this.bindings),
    bet: (betId) => this.bindings.live(betId) ?? betId,
    tournament: (tournamentId) => this.bindings.live(tournamentId) ?? tournamentId,
    tx: (txHash) => this.boundOrNever(txHash, 'transaction'),
    order: (orderId) => this.orphanOr(orderId, this.bindings),
    domain: (name) => this.serviceAccounts.domainId(name),
    address: (recorded) => this.bindings.live(recorded) ?? recorded,
    walletKey: (body) =>
      this.current === null
        ? null
        : this.wallets.signingKey(this.current.exchange, body, this.current.liveKey, this.bindings),
    moneroKeys: (liveAddress) => this.wallets.moneroKeys(liveAddress),
  };
  /** The exchange being replayed and its live key, for the wallet's signing (`ids.walletKey`). */
  protected current: { readonly exchange: RecordedExchange; readonly liveKey: string | null } | null = null;
  protected readonly wallets: ReplayWallets;
  protected readonly serviceAccounts: ReplayServiceAccounts;
  /** The recorded agents' positions, to replay the documents' closing order as a close (replay-positions.ts). */
  protected readonly positions = new ReplayPositions();

  constructor(options: OperationReplayOptions) {
    // No key in a report: a re-signed wallet send's reproduce line shows the key redacted, as the record does.
    this.options = { ...options, curlOf: secretFreeCurl(options.curlOf) };
    this.wallets = new ReplayWallets(options.session);
    this.settlements = new ReplaySettlements(options.session, this.divergence);
    this.funding = new ReplayFunding(options, this.divergence);
    this.serviceAccounts = new ReplayServiceAccounts({
      session: options.session,
      clock: options.clock,
      deadline: options.deadline,
    });
  }

  /** The target's id of a recorded escrow or order; an orphan (never created there) is noted for the exchange. */
  protected orphanOr(recordedId: string, bindings: Bindings): string {
    const orphanedAt = this.orphans.get(recordedId);
    if (orphanedAt !== undefined) this.orphansNamed.push(orphanedAt);
    return bindings.live(recordedId) ?? recordedId;
  }

  /** The target's id of a recorded one; one it never issued (its creation refused or not replayed) explains what follows. */
  protected boundOrNever(recordedId: string, what: string): string {
    const bound = this.bindings.live(recordedId);
    if (bound === undefined) this.orphanCause = `the ${what} ${recordedId} was never made on the target`;
    return bound ?? recordedId;
  }

  /** A recorded agent reference (id, address, referral code) → the recorded agent id. */
  protected recordedAgent(reference: string): string {
    // An address names its agent in any letter case, as the platform reads it (services/shared/agents.ts).
    return this.aliases.get(reference) ?? this.aliases.get(reference.toLowerCase()) ?? reference;
  }

  /** Identifiers as the target's `service` knows them: its own accounts' where it keeps its own. */
  protected idsFor(service: string): IdTranslation {
    const own = accountService(service);
    const bindings = own === null ? null : this.serviceAccounts.bindings(own);
    if (bindings === null) return this.ids;
    return {
      ...this.ids,
      agent: (reference) => bindings.live(this.recordedAgent(reference)) ?? this.ids.agent(reference),
      // The service's answers bind its own ids (an order's) in its own bindings.
      order: (orderId) => this.orphanOr(orderId, bindings),
    };
  }

  /**
   * Opens the accounts on a service of its own accounts that the exchange needs (its caller's, a
   * receiver's) before it is sent; returns why it cannot be replayed, or null.
   */
  protected async openAccounts(
    exchange: RecordedExchange,
    routeId: string,
    service: string,
    references: readonly string[],
  ): Promise<string | null> {
    const own = accountService(service);
    if (own === null || !this.serviceAccounts.separate(own)) return null;
    for (const reference of references) {
      const opened = await this.serviceAccounts.ensure(own, this.recordedAgent(reference));
      if (typeof opened === 'string') return opened;
      if (opened.opened)
        this.info(exchange, {
          id: `replay:account-opened:${own}`,
          kind: 'shape',
          title: `${own} keeps accounts of its own on ${this.options.session.target.name} (DEPLOYED.md §1.1): each recorded agent is given one on first use, funded the target's way, with bindings of its own`,
          evidence: `${routeId}: recorded ${this.recordedAgent(reference)} is ${opened.account.agentId} on ${own}`,
        });
    }
    return null;
  }

  /** What later exchanges must know: escrows the target did not create, agents whose money diverged. */
  protected follow(
    exchange: RecordedExchange,
    recorded: ReadOutcome<unknown>,
    live: ReadOutcome<unknown>,
    liveKey: string | null,
    differences: readonly ResultDifference[],
  ): void {
    const created = recorded.kind === 'ok' ? (recorded.value as { escrowId?: unknown; orderId?: unknown }) : {};
    const recordedId = created.escrowId ?? created.orderId;
    if (typeof recordedId === 'string' && live.kind !== 'ok' && this.bindings.live(recordedId) === undefined)
      this.orphans.set(recordedId, {
        seq: exchange.seq,
        receiver: this.recordedReceiver(exchange.request.body),
        id: recordedId,
        kind: created.escrowId === undefined ? 'order' : 'escrow',
      });
    const accepted = differences.find(
      (difference) => difference.field === 'accepted' || difference.field.endsWith('Micro'),
    );
    if (accepted !== undefined) this.divergence.leaveBalance(liveKey, `seq ${exchange.seq} (${accepted.note})`);
  }

  /** The recorded agent's key on a wallet that refused its platform key (walletKeyAfterRefusal), or null. */
  protected walletKeyOf(service: string, callerId: string | null): string | null {
    return service === 'wallet' && callerId !== null ? (this.walletKeys.get(callerId) ?? null) : null;
  }

  /**
   * The recorded agent's client address, announced (X-Forwarded-For) only to a target that says it
   * trusts it (an afp serve whose mounts say `forwarded_for: trusted`: Target.freshClientAddresses),
   * as docs/targets.md promises: a deployment would otherwise be told made-up addresses (the
   * record's 2001:db8:: ones), and a per-IP limit keyed on the header let a replay's 57
   * registrations through where one client's would meet it (prober 67c).
   */
  protected forwarded(exchange: RecordedExchange): { forwardedFor?: string } {
    return forwardedFrom(this.options.session, exchange);
  }

  /** A send the dialect could not express: not counted as sent. */
  protected unsend(op: OperationName): void {
    this.sent--;
    const count = (this.sentByOperation.get(op) ?? 1) - 1;
    if (count === 0) this.sentByOperation.delete(op);
    else this.sentByOperation.set(op, count);
  }

  /** What a live answer issued that later requests name: a registered domain's id (a deployed transfer names it). */
  protected learnLive(op: OperationName, input: OperationInput<OperationName>, live: ReadOutcome<unknown>): void {
    if (op !== 'domains.register' || live.kind !== 'ok') return;
    const domainId = (live.value as OperationResult<'domains.register'>).domainId;
    if (typeof domainId === 'string')
      this.serviceAccounts.learnDomain((input as OperationInput<'domains.register'>).domain, domainId);
  }

  protected send<O extends OperationName>(
    op: O,
    input: OperationInput<O>,
    apiKey: string | null,
    exchange: RecordedExchange,
  ): Promise<CallOutcome<OperationResult<O>>> {
    this.countSent(op);
    if (op === 'domains.dns-set' && this.options.session.row(op) === null)
      this.info(exchange, askedByRecords(exchange));
    return sendOperation(this.options.session, op, input, apiKey, this.forwarded(exchange));
  }

  /** One exchange sent as `op` (sent itself, or asked otherwise: replayByReads). */
  protected countSent(op: OperationName): void {
    this.sent++;
    this.sentByOperation.set(op, (this.sentByOperation.get(op) ?? 0) + 1);
  }

  /** The recorded agent an escrow creation's body pays (style B `receiver`, style A `seller`), or null. */
  protected recordedReceiver(body: unknown): string | null {
    if (body === null || typeof body !== 'object') return null;
    const fields = body as Record<string, unknown>;
    const named = fields['receiver'] ?? fields['seller'];
    return typeof named === 'string' ? this.recordedAgent(named) : null;
  }

  /** The recorded agent's balance on the target leaves the recording's (the first cause is kept). */
  protected divergeAgent(recordedAgentId: string, cause: string): void {
    const recordedKey = this.keyOfAgent.get(recordedAgentId);
    if (recordedKey === undefined) return;
    const liveKey = this.bindings.live(recordedKey) ?? recordedKey;
    this.divergence.leaveBalance(liveKey, cause);
  }

  /** A recorded registration's other names of the agent (address, referral code) and its key. */
  protected learnAliases(op: OperationName, recorded: ReadOutcome<OperationResult<OperationName>>): void {
    if (!isRegistration(op) || recorded.kind !== 'ok') return;
    const value = recorded.value as Partial<OperationResult<'faucet.register'>>;
    if (typeof value.agentId !== 'string' || typeof value.apiKey !== 'string') return;
    this.agentOfKey.set(value.apiKey, value.agentId);
    if (this.keyOfAgent.size < FOLLOWED_MAX.keysOfAgents) this.keyOfAgent.set(value.agentId, value.apiKey);
    for (const alias of [value.address?.toLowerCase(), value.referralCode])
      if (typeof alias === 'string') this.aliases.set(alias, value.agentId);
  }

  protected skip(exchange: RecordedExchange, skip: ReplayNote): null {
    this.skipped++;
    this.info(exchange, skip);
    return null;
  }

  protected info(exchange: RecordedExchange, note: ReplayNote): void {
    fileNote(this.options.findings, exchange, note);
  }

  protected file(
    exchange: RecordedExchange,
    routeId: string,
    op: OperationName,
    differences: readonly ResultDifference[],
    request: SentRequest | null,
  ): void {
    fileDifferences(this.options, exchange, { routeId, op, request }, differences);
  }
}
