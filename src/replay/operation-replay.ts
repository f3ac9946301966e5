/**
 * OperationReplay: a recording replayed through a target's dialect. Each recorded exchange is
 * recognised by its route (route-operations.ts) and sent as the afp operation it performed, through
 * the LiveSession (the target's layout, dialect, pacing and 429 waits); the recorded answer is read
 * through the recording's own dialect (the route's style) and the live one through the target's,
 * and the two operation results are compared (operation-diff.ts). So the documented differences of
 * two dialects are shape findings (the live reader's deviations, deviation-findings.ts) and only
 * differences of meaning — an amount, a state, a refusal where the recording was accepted — are
 * semantic findings, each with its seq, route, both answers and a curl line.
 *
 * Identifiers: what the target issued replaces what the recording holds. Registration results bind
 * the recorded agent id and key to the live ones, creation results the escrow ids (bindings.ts,
 * one to one); the recording's other names of an agent (its address, its referral code) are known
 * from its recorded registration, so an escrow for an address goes to the live agent.
 * Registration the target's way: where the target's dialect has no registration of the recorded
 * kind (a deployed faucet has none; agents register on the casino), the agent registers where the
 * target file says (`register`), and whatever the recorded registration credited is funded the
 * target's way (`funding`, live-account.ts). Where the target's registration credits less than the
 * recorded one (a style B grant replayed on style A), the difference is funded the same way.
 * Trading and domains with accounts of their own on the target (a deployment's): each recorded
 * agent gets its own account there on first use, and its own bindings per service
 * (service-accounts-replay.ts); the exchange is sent with that account's key.
 * The wallet (issue 21, wallet-replay.ts): the recorded agent registers on the target's wallet (its
 * key bound), its created wallet's addresses are bound, its sends re-signed with the live wallet's
 * key (in memory only; reproduce lines redact it), its balances funded on an afp serve. An agent
 * that called the wallet with its platform key (the documents' one key), where the target's wallet
 * refuses that key 401, is registered on the wallet once and calls it with that key from then on.
 * What a target's dialect cannot ask is not replayed, with why: a recorded request the documents
 * refused for a field the operation does not carry (an escrow for another buyer), and, where the
 * target keeps positions apart and closes them by id, a recorded reduce or flip of a netted
 * position (replay-positions.ts; that agent's market is not followed after it).
 * Skips, never failures: an exchange no route matches, a route with no operation, bad input, and an
 * operation the target cannot be asked (dns-set-calls.ts) are skipped, each an info finding saying why.
 * Stops (returned, exit 4 in the CLI): the target unreachable, or its 429s outlasting the deadline.
 * No timers here: `beforeSend` (pacing, clock sync) is injected, and the LiveSession holds the clock.
 */
import { ALL_ROUTES } from '../http/routes/index.ts';
import type { Mount } from '../http/route.ts';
import { Router } from '../http/router.ts';
import type { Deadline } from '../live/deadline.ts';
import type { WaitClock } from '../core/clock.ts';
import { rowOf } from '../live.ts';
import type { FindingsCollector, CallOutcome, LiveSession, SentRequest, OperationInput } from '../live.ts';
import type { OperationName, OperationResult, ReadOutcome } from '../live.ts';
import { formatDecimal } from '../core/money.ts';
import { Bindings } from './bindings.ts';
import { compareOutcomes, DIALECT_CREDITS, type ResultDifference } from './operation-diff.ts';
import type { RecordedDeposit, RecordedExchange } from './record-format.ts';
import { routeOperationOf } from './route-operations.ts';
import type { IdTranslation, RecordedCall, RouteOperation } from './route-operations-types.ts';
import { ReplayPositions, type HeldPosition } from './replay-positions.ts';
import { accountService, ReplayServiceAccounts } from './service-accounts-replay.ts';
import { ReplayWallets } from './wallet-replay.ts';
import { ReplayDivergence } from './replay-divergence.ts';
import { ReplayLeftovers } from './replay-leftovers.ts';
import type { Answered, Finished, Gate, Prepared, Sent } from './replay-steps.ts';
import { fileDifferences, fileNote, type ReplayNote } from './replay-findings.ts';
import { ReplayConsequences } from './replay-consequences.ts';
import { forwardedFrom, ReplayFunding } from './replay-funding.ts';
import {
  bearerOf,
  clip,
  isRegistration,
  liveOutcomeOf,
  recordedOutcome,
  recordingDialect,
  secretFreeCurl,
} from './replay-exchange-parts.ts';
import { compareDrawn, DRAWN_OPERATIONS } from './drawn-outcomes.ts';
import { ReplaySettlements } from './replay-settlements.ts';
import { READS_MAX, substituteReads, type Substitute } from './read-substitutes.ts';
import { askedByRecords, offersOperation, sendOperation } from './dns-set-calls.ts';
import { compareResults } from './set-compare.ts';
import type { ServiceName } from '../platform/service-names.ts';

/** What the replay keeps per recorded agent or escrow, at most (beyond, what it would name is not). */
const FOLLOWED_MAX = {
  /** Recorded agents given a wallet key of their own on the target (beyond, a 401 stands as it is). */
  walletKeys: 10_000,
  /** Recorded agents' keys, to name a receiver's balance as left (beyond, it is not). */
  keysOfAgents: 1_000_000,
} as const;

/** An escrow the recording created and the target did not: the seq that tried, and the recorded agent it pays. */
interface Orphan {
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

type Skip = ReplayNote;

let router: Router | null = null;

export class OperationReplay {
  private readonly options: OperationReplayOptions;
  readonly bindings = new Bindings();
  /** Recorded agent address or referral code → recorded agent id (from recorded registrations). */
  private readonly aliases = new Map<string, string>();
  /** Recorded api key → recorded agent id. */
  private readonly agentOfKey = new Map<string, string>();
  /** Recorded agent id → its recorded api key (at most FOLLOWED_MAX.keysOfAgents). */
  private readonly keyOfAgent = new Map<string, string>();
  private readonly sentByOperation = new Map<string, number>();
  private exchanges = 0;
  private sent = 0;
  private skipped = 0;
  /** Recorded ids the recording created and the target did not (escrows), with the seq that tried. */
  private readonly orphans = new Map<string, Orphan>();
  /** Orphans the current exchange's input named. */
  private orphansNamed: Orphan[] = [];
  /** Why the current exchange's differences follow from an orphan it names (orphaned), or null. */
  private orphanCause: string | null = null;
  /** Balances, escrows and wallet addresses whose state on the target left the recording's (replay-divergence.ts). */
  private readonly divergence = new ReplayDivergence();
  /** Funding the target's way what the recording was credited otherwise (replay-funding.ts). */
  private readonly funding: ReplayFunding;
  /** Which differences an earlier cause explains (replay-consequences.ts). */
  private readonly explained = new ReplayConsequences(this.divergence);
  /** What an exchange not sent, or answered otherwise, leaves the recording's view of (replay-leftovers.ts). */
  private readonly leftovers = new ReplayLeftovers(this.divergence, this.bindings);
  private readonly settlements: ReplaySettlements;
  /** Recorded agent → its own key on a wallet that refused its platform key (at most FOLLOWED_MAX.walletKeys). */
  private readonly walletKeys = new Map<string, string>();
  private readonly ids: IdTranslation = {
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
  private current: { readonly exchange: RecordedExchange; readonly liveKey: string | null } | null = null;
  private readonly wallets: ReplayWallets;
  private readonly serviceAccounts: ReplayServiceAccounts;
  /** The recorded agents' positions, to replay the documents' closing order as a close (replay-positions.ts). */
  private readonly positions = new ReplayPositions();

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
  private orphanOr(recordedId: string, bindings: Bindings): string {
    const orphanedAt = this.orphans.get(recordedId);
    if (orphanedAt !== undefined) this.orphansNamed.push(orphanedAt);
    return bindings.live(recordedId) ?? recordedId;
  }

  /** The target's id of a recorded one; one it never issued (its creation refused or not replayed) explains what follows. */
  private boundOrNever(recordedId: string, what: string): string {
    const bound = this.bindings.live(recordedId);
    if (bound === undefined) this.orphanCause = `the ${what} ${recordedId} was never made on the target`;
    return bound ?? recordedId;
  }

  /** A recorded agent reference (id, address, referral code) → the recorded agent id. */
  private recordedAgent(reference: string): string {
    // An address names its agent in any letter case, as the platform reads it (services/shared/agents.ts).
    return this.aliases.get(reference) ?? this.aliases.get(reference.toLowerCase()) ?? reference;
  }

  /** Identifiers as the target's `service` knows them: its own accounts' where it keeps its own. */
  private idsFor(service: string): IdTranslation {
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
  private async openAccounts(
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

  async run(exchanges: AsyncIterable<RecordedExchange> | Iterable<RecordedExchange>): Promise<OperationReplayStop> {
    for await (const exchange of exchanges) {
      this.exchanges++;
      try {
        await this.options.beforeSend?.(exchange);
      } catch (error) {
        return { seq: exchange.seq, reason: error instanceof Error ? error.message : String(error) };
      }
      const stop = await this.replay(exchange);
      if (stop !== null) return { seq: exchange.seq, reason: stop };
    }
    return null;
  }

  totals(): OperationReplayTotals {
    const byOperation = [...this.sentByOperation.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([op, count]) => ({ op, count }));
    const { exchanges, sent, skipped } = this;
    return { exchanges, sent, skipped, byOperation, bindings: this.bindings.size };
  }

  /**
   * What an exchange is before its input is read: its route, operation row, recording dialect and
   * call, or why it is skipped (a skip's result: null, or why the replay must stop).
   */
  private async gate(exchange: RecordedExchange): Promise<Gate | string | null> {
    const { request } = exchange;
    router ??= new Router(ALL_ROUTES);
    const match = router.match(request.mount as Mount, request.method, request.path);
    if (match.kind !== 'found')
      return this.skip(exchange, {
        id: 'replay:skipped:no-route',
        kind: 'rule',
        title: 'recorded requests no route matches (probes of unknown paths) are not replayed',
        evidence: `${request.method} ${request.path} answered ${exchange.response.status}`,
      });
    const routeId = match.route.id;
    const recordedKey = bearerOf(exchange);
    const call: RecordedCall = {
      params: match.params,
      query: request.query,
      body: request.body,
      answer: exchange.response.body,
      callerId: (recordedKey === null ? null : this.agentOfKey.get(recordedKey)) ?? exchange.agent,
    };
    const row = routeOperationOf(routeId, call) as RouteOperation<OperationName> | null;
    const dialect = recordingDialect(match.route.style, match.route.service);
    if (row === null || dialect === null)
      return this.skip(exchange, {
        id: `replay:skipped:${routeId}`,
        kind: 'rule',
        title: `${routeId} has no afp operation: not replayed through the target's dialect`,
        evidence: `${request.method} ${request.path}`,
      });
    const service = match.route.service;
    const notReplayed = row.notReplayed?.(call, this.idsFor(service)) ?? null;
    if (notReplayed !== null) {
      this.leftovers.bySkip(exchange, routeId, row.op, null, notReplayed);
      if (exchange.response.status < 300)
        this.explained.nameDiverges(row.op, call.body, `seq ${exchange.seq} (${routeId} not replayed: ${notReplayed})`);
      return this.skip(exchange, {
        id: `replay:skipped:not-offered:${routeId}`,
        kind: 'shape',
        title: `${routeId}: ${notReplayed}; not replayed`,
        evidence: `${request.method} ${request.path} answered ${exchange.response.status}`,
      });
    }
    if (accountService(service) !== null && rowOf(dialect, row.op) === null)
      return this.skip(exchange, {
        id: `replay:skipped:unread:${routeId}`,
        kind: 'rule',
        title: `${routeId}: afp reads no recorded ${row.op} answer in style ${dialect.name} yet: not replayed`,
        evidence: `${request.method} ${request.path}`,
      });
    if (offersOperation(this.options.session, row.op) === null) {
      const cannot = await this.openAccounts(exchange, routeId, service, [
        ...(call.callerId === null ? [] : [call.callerId]),
        ...(row.agents?.(call) ?? []),
      ]);
      if (cannot !== null)
        return this.skip(exchange, {
          id: `replay:skipped:no-account:${service}`,
          kind: 'money',
          title: `${routeId}: the agent has no funded ${service} account on the target (${cannot}); not replayed`,
          evidence: `${request.method} ${request.path}`,
        });
    }
    return { routeId, row, dialect, call, service, recordedKey };
  }

  /** One exchange; returns why the replay must stop, or null. */
  /**
   * One exchange, in four steps: read what was recorded (prepare), decide the key and what the
   * target's way asks first (beforeSending), send it (sendWithKey), and compare and file the
   * answers (compareAndFile). A step that ends the exchange returns `{ finished }`.
   */
  private async replay(exchange: RecordedExchange): Promise<string | null> {
    const gate = await this.gate(exchange);
    if (gate === null || typeof gate === 'string') return gate;
    const prepared = this.prepare(exchange, gate);
    if ('finished' in prepared) return prepared.finished;
    const before = await this.beforeSending(exchange, gate, prepared);
    if ('finished' in before) return before.finished;
    const sent = await this.sendWithKey(exchange, gate, prepared, before.liveKey);
    if ('finished' in sent) return sent.finished;
    await this.compareAndFile(exchange, gate, prepared, sent);
    return null;
  }

  /** The recorded exchange read: its input and outcome, or the skip that ends it. */
  private prepare(exchange: RecordedExchange, gate: Gate): Prepared | Finished {
    const { request } = exchange;
    const { routeId, row, dialect, call, service, recordedKey } = gate;
    this.orphansNamed = [];
    this.orphanCause = null;
    this.current = {
      exchange,
      liveKey:
        this.walletKeyOf(service, call.callerId) ??
        (recordedKey === null ? null : (this.bindings.live(recordedKey) ?? recordedKey)),
    };
    const input = row.input(call, this.idsFor(service));
    const orphan = this.orphansNamed[0];
    if (input !== null && orphan !== undefined) {
      const skip = this.orphaned(exchange, { routeId, op: row.op, service }, orphan);
      if (skip !== undefined) return { finished: skip };
    }
    if (input === null)
      return {
        finished: this.skip(exchange, {
          id: `replay:skipped:bad-input:${routeId}`,
          kind: 'rule',
          title: `${routeId}: recorded requests that do not express ${row.op} (bad input) are not replayed`,
          evidence: `${request.method} ${request.path} answered ${exchange.response.status}`,
        }),
      };
    const recorded = recordedOutcome(exchange, row, dialect, input);
    this.learnAliases(row.op, recorded);
    const own = accountService(service);
    const ownAccounts = own !== null && this.serviceAccounts.separate(own);
    if (
      ownAccounts &&
      recorded.kind === 'refused' &&
      /insufficient/i.test(`${recorded.refusal.name} ${recorded.refusal.message}`)
    ) {
      return {
        finished: this.skip(exchange, {
          id: `replay:skipped:funds:${row.op}`,
          kind: 'money',
          title: `${row.op}: the recording refused it for want of the agent's one platform balance; the agent's ${service} account on the target is the replay's own, funded by it, so that refusal cannot be reproduced: not replayed`,
          evidence: `${routeId} answered ${exchange.response.status} ${clip(exchange.response.body)}`,
        }),
      };
    }
    const ownBindings = ownAccounts ? this.serviceAccounts.bindings(own) : null;
    return { input, recorded, own, ownAccounts, ownBindings };
  }

  /** The key to send with, once what the target's way asks before sending is done (or the exchange is). */
  private async beforeSending(
    exchange: RecordedExchange,
    gate: Gate,
    prepared: Prepared,
  ): Promise<{ readonly liveKey: string | null } | Finished> {
    const { request } = exchange;
    const { routeId, row, dialect, call, service, recordedKey } = gate;
    const { input, recorded, own, ownBindings } = prepared;
    const notOffered = offersOperation(this.options.session, row.op);
    if (notOffered !== null)
      return {
        finished: await this.notOffered(exchange, { routeId, op: row.op, service, input }, recorded, notOffered),
      };
    const serviceAccount =
      own === null || call.callerId === null ? null : this.serviceAccounts.account(own, call.callerId);
    const liveKey =
      serviceAccount?.apiKey ??
      this.walletKeyOf(service, call.callerId) ??
      (recordedKey === null ? null : (this.bindings.live(recordedKey) ?? recordedKey));
    // A target that closes positions by id (trading.close) keeps them apart, not netted.
    if (row.op === 'trading.order' && this.options.session.offers('trading.close') === null) {
      const compare = {
        bindings: ownBindings ?? this.bindings,
        recordingDialect: dialect.name,
        liveDialect: this.options.session.target.services[service]?.dialect ?? dialect.name,
      };
      const sent = { routeId, order: input as OperationInput<'trading.order'>, agent: call.callerId, liveKey };
      const apart = await this.apartOrder(exchange, sent, recorded, compare);
      if (apart !== undefined) return { finished: apart };
    }
    const unfunded = await this.wallets.fundsFor(exchange, { op: row.op, input, liveKey }, recorded, this.bindings);
    if (unfunded !== null)
      return {
        finished: this.skip(exchange, {
          id: `replay:skipped:unfunded:${row.op}`,
          kind: 'money',
          title: `${routeId}: ${unfunded}; not replayed (a record carries no mint: the harness funds wallets outside HTTP)`,
          evidence: `${request.method} ${request.path} answered ${exchange.response.status}`,
        }),
      };
    return { liveKey };
  }

  /** The exchange sent (again with the agent's wallet key where the target refused the platform one), read as an outcome. */
  private async sendWithKey(
    exchange: RecordedExchange,
    gate: Gate,
    prepared: Prepared,
    keyFirst: string | null,
  ): Promise<Sent | Finished> {
    const { request } = exchange;
    const { routeId, row, call, service } = gate;
    const { input, recorded } = prepared;
    let liveKey = keyFirst;
    let outcome = await this.send(row.op, input, liveKey, exchange);
    const walletKey = await this.walletKeyAfterRefusal(
      exchange,
      { service, op: row.op, callerId: call.callerId },
      {
        recorded,
        outcome,
      },
    );
    if (walletKey !== null) {
      this.unsend(row.op);
      liveKey = walletKey;
      this.current = { exchange, liveKey };
      outcome = await this.send(row.op, input, liveKey, exchange);
    }
    if (outcome.kind === 'unreachable') return { finished: outcome.message };
    if (outcome.kind === 'deadline') return { finished: `${row.op} was rate limited past the time budget` };
    if (outcome.kind === 'unsupported') {
      this.unsend(row.op);
      this.explained.nameDiverges(row.op, input, `seq ${exchange.seq} (${routeId} not replayed: ${outcome.reason})`);
      this.leftovers.bySkip(exchange, routeId, row.op, input, outcome.reason);
      return {
        finished: this.skip(exchange, {
          id: `replay:skipped:unsupported:${row.op}`,
          kind: 'shape',
          title: `${row.op}: ${outcome.reason}; such recorded ${routeId} exchanges are not replayed`,
          evidence: `${request.method} ${request.path} answered ${exchange.response.status}`,
        }),
      };
    }
    const live = liveOutcomeOf(outcome);
    if (live === null) return { finished: null };
    return { liveKey, live, request: 'request' in outcome ? outcome.request : null };
  }

  /** The recorded and live answers compared, the differences filed, and what they leave followed. */
  private async compareAndFile(exchange: RecordedExchange, gate: Gate, prepared: Prepared, sent: Sent): Promise<void> {
    const { routeId, row, dialect, call, service } = gate;
    const { input, recorded, ownAccounts, ownBindings } = prepared;
    const { liveKey, live } = sent;
    this.learnLive(row.op, input, live);
    if (row.op === 'trading.order')
      this.positions.ordered(
        call.callerId,
        input as OperationInput<'trading.order'>,
        { outcome: recorded, body: exchange.response.body },
        live as ReadOutcome<OperationResult<'trading.order'>>,
      );
    const liveDialect = this.options.session.target.services[service]?.dialect ?? dialect.name;
    const sameDialect = dialect.name === liveDialect;
    const bindings = ownBindings ?? this.bindings;
    const [recordedCompared, liveCompared] =
      row.op === 'wallet.create'
        ? this.wallets.created(
            recorded as ReadOutcome<OperationResult<'wallet.create'>>,
            live as ReadOutcome<OperationResult<'wallet.create'>>,
            liveKey,
            this.bindings,
          )
        : [recorded, live];
    const drawn = !sameDialect && DRAWN_OPERATIONS.has(row.op);
    const differences =
      drawn && recordedCompared.kind === 'ok' && liveCompared.kind === 'ok'
        ? compareDrawn(row.op, recordedCompared.value, liveCompared.value, bindings)
        : compareResults(row.op, recordedCompared, liveCompared, {
            bindings,
            recordingDialect: dialect.name,
            liveDialect,
            input,
          });
    if (drawn) this.leftovers.drawnBy(exchange, routeId, liveKey);
    const explained = this.explained.explain(exchange, differences, {
      op: row.op,
      input,
      liveKey,
      ownAccount: ownAccounts,
      orphanCause: this.orphanCause,
    });
    this.file(exchange, routeId, row.op, explained, sent.request);
    await this.followAnswer(exchange, gate, { op: row.op, input, recorded, live, liveKey, sameDialect }, differences);
  }

  /** What an answer leaves behind: names left, settlements, divergences, bindings, credits and deposits. */
  private async followAnswer(
    exchange: RecordedExchange,
    gate: Gate,
    answer: Answered,
    differences: readonly ResultDifference[],
  ): Promise<void> {
    const { routeId } = gate;
    const { op, input, recorded, live, liveKey, sameDialect } = answer;
    this.leftovers.byAnswer(exchange, routeId, { op, input, recorded, live }, differences);
    if (!sameDialect) this.settlements.settledByRule(exchange, { op, input, recorded, live }, liveKey);
    const moved = differences.find((difference) => difference.field === 'accepted' || difference.field === 'owner');
    if (moved !== undefined) this.explained.nameDiverges(op, input, `seq ${exchange.seq} (${routeId}: ${moved.note})`);
    this.follow(exchange, recorded, live, liveKey, differences);
    if (!sameDialect && DIALECT_CREDITS[op] !== undefined)
      await this.funding.creditDifference(exchange, routeId, { op, input, liveKey }, recorded, live);
    if (isRegistration(op) && recorded.kind === 'ok' && live.kind === 'ok') {
      const registered = live.value as OperationResult<'casino.register'>;
      const recordedId = (recorded.value as Partial<OperationResult<'casino.register'>>).agentId;
      if (typeof recordedId === 'string') await this.funding.startingDeposit(exchange, routeId, recordedId, registered);
    }
  }

  /**
   * A market order where the target keeps positions apart (replay-positions.ts): the documents'
   * close is the target's close; a reduce or flip is the close and an order for what remains; an
   * order it cannot ask is skipped. Returns the exchange's result, or undefined to send the order.
   */
  private async apartOrder(
    exchange: RecordedExchange,
    sent: { routeId: string; order: OperationInput<'trading.order'>; agent: string | null; liveKey: string | null },
    recorded: ReadOutcome<unknown>,
    compare: Parameters<typeof compareOutcomes>[3],
  ): Promise<string | null | undefined> {
    const { routeId, order, agent, liveKey } = sent;
    const closing = this.positions.closing(agent, order, exchange.response.body);
    if (closing !== null) return this.replayClose(exchange, routeId, closing, recorded, liveKey, compare);
    const resize = this.positions.resizing(agent, order, exchange.response.body, exchange.seq);
    if (resize === null) return undefined;
    if (typeof resize === 'string') {
      this.divergence.leaveBalance(liveKey, `seq ${exchange.seq} (${routeId} not replayed: ${resize})`);
      return this.skip(exchange, {
        id: 'replay:skipped:netted:trading.order',
        kind: 'shape',
        title: `trading.order: ${resize}; not replayed`,
        evidence: `${exchange.request.method} ${exchange.request.path} answered ${exchange.response.status}`,
      });
    }
    const closed = await this.replayClose(exchange, routeId, resize.held, recorded, liveKey, compare);
    if (closed !== null) return closed;
    const rest = { ...order, side: resize.rest.side, sizeMicro: resize.rest.sizeMicro };
    const outcome = await this.send('trading.order', rest, liveKey, exchange);
    if (outcome.kind === 'unreachable') return outcome.message;
    if (outcome.kind === 'deadline') return 'trading.order was rate limited past the time budget';
    // One exchange, sent as the close and this order: counted once, as the close.
    this.unsend('trading.order');
    const live = liveOutcomeOf(outcome);
    if (live === null) return null;
    this.positions.reopened(agent, rest, resize.rest.qty, live);
    const why = `a reduce or flip sent as the close and a ${rest.side} order of ${formatDecimal(rest.sizeMicro)} USDC for what remains, at the target's price`;
    this.divergence.leaveBalance(liveKey, `seq ${exchange.seq} (${routeId}: ${why})`);
    this.info(exchange, {
      id: 'replay:trading.order:resized',
      kind: 'shape',
      title: `a reduce or flip of a netted position (the documents' way) is replayed as the target's close of the live position and an order for what remains (${this.options.session.target.name} has no order that reduces or flips one)`,
      evidence: `${routeId}: ${why}`,
    });
    const acceptance = (outcome: ReadOutcome<unknown>): ReadOutcome<unknown> =>
      outcome.kind === 'ok' ? { kind: 'ok', value: {} } : outcome;
    const differences = compareOutcomes('trading.order', acceptance(recorded), acceptance(live), compare);
    const request = 'request' in outcome ? outcome.request : null;
    this.file(exchange, routeId, 'trading.order', this.explained.consequences(differences, liveKey, false), request);
    return null;
  }

  /**
   * A recorded order that closes the agent's position the documents' way, sent as the target's
   * close of the live position. Only acceptance is compared: the recorded answer is an order's,
   * and its PnL is of the quantity it closed at its own fill, the close's of the whole position.
   */
  private async replayClose(
    exchange: RecordedExchange,
    routeId: string,
    held: HeldPosition,
    recorded: ReadOutcome<unknown>,
    liveKey: string | null,
    compare: Parameters<typeof compareOutcomes>[3],
  ): Promise<string | null> {
    const outcome = await this.send('trading.close', { positionId: held.livePositionId ?? '' }, liveKey, exchange);
    if (outcome.kind === 'unreachable') return outcome.message;
    if (outcome.kind === 'deadline') return 'trading.close was rate limited past the time budget';
    const live = liveOutcomeOf(outcome);
    if (live === null) return null;
    if (live.kind === 'ok') this.positions.closed(held);
    this.info(exchange, {
      id: 'replay:trading.close:opposite-order',
      kind: 'shape',
      title: `an order on the other side of the agent's whole position (the documents' close) is replayed as the target's close of the live position (${this.options.session.target.name} refuses an open against a held position)`,
      evidence: `${routeId}: the ${held.symbol} ${held.side} position closed as ${held.livePositionId ?? ''}`,
    });
    const recordedClose: ReadOutcome<OperationResult<'trading.close'>> =
      recorded.kind === 'ok'
        ? { kind: 'ok', value: { status: null, pnlMicro: null, feeMicro: null } }
        : (recorded as ReadOutcome<OperationResult<'trading.close'>>);
    const differences = compareOutcomes('trading.close', recordedClose, live, compare);
    this.file(
      exchange,
      routeId,
      'trading.close',
      this.explained.consequences(differences, liveKey, false),
      'request' in outcome ? outcome.request : null,
    );
    this.follow(exchange, recorded, live, liveKey, differences);
    return null;
  }

  /**
   * An exchange naming an escrow or an order the target did not create (its creation was refused
   * there): sent all the same with the recorded id, which the target never issued, so its answer
   * (a refusal) is that refusal's consequence (info, `orphanCause`). Skipped only where the recorded
   * id is one the target issued for another object (a serve that numbers ids as the recording did):
   * sending it would act on that object. Returns the skip's result, or undefined to send.
   */
  private orphaned(
    exchange: RecordedExchange,
    sent: { routeId: string; op: OperationName; service: ServiceName },
    orphan: Orphan,
  ): null | undefined {
    const { routeId, op, service } = sent;
    const cause = `it names the ${orphan.kind} of seq ${orphan.seq}, which the target did not create`;
    // The release the recording paid its receiver with: from here the receiver's balance is not the recording's.
    if (op === 'escrow.release' && exchange.response.status < 300 && orphan.receiver !== null)
      this.divergeAgent(orphan.receiver, `seq ${exchange.seq} (${routeId}: ${cause})`);
    const own = accountService(service);
    const bindings = (own === null ? null : this.serviceAccounts.bindings(own)) ?? this.bindings;
    if (bindings.recorded(orphan.id) === undefined) {
      this.orphanCause = `seq ${exchange.seq} ${routeId}: ${cause}`;
      return undefined;
    }
    return this.skip(exchange, {
      id: `replay:skipped:not-created:${op}`,
      kind: 'rule',
      title: `${op}: exchanges naming an escrow or an order the target did not create, by an id the target issued for another, are not replayed (the exchange that created it in the recording was refused; its finding says why)`,
      evidence: `${routeId} names the ${orphan.kind} of seq ${orphan.seq}`,
    });
  }

  /**
   * An operation the target's dialect does not offer: a registration is made the target's way,
   * what its escrow reads can ask is asked so (read-substitutes.ts), the rest is skipped with why.
   */
  private notOffered(
    exchange: RecordedExchange,
    sent: { routeId: string; op: OperationName; service: ServiceName; input: OperationInput<OperationName> },
    recorded: ReadOutcome<OperationResult<OperationName>>,
    notOffered: string,
  ): Promise<string | null> | null {
    const { routeId, op, input } = sent;
    if (isRegistration(op)) return this.registerTargetWay(exchange, routeId, recorded, notOffered);
    const substitute = this.options.session.offers('escrow.get') === null ? substituteReads(op, input, recorded) : null;
    if (substitute !== null) return this.replayByReads(exchange, sent, substitute);
    this.leftovers.bySkip(exchange, routeId, op, input, notOffered);
    return this.skip(exchange, {
      id: `replay:skipped:not-offered:${op}`,
      kind: 'shape',
      title: `${op}: ${notOffered}; recorded ${routeId} exchanges are not replayed`,
      evidence: `${exchange.request.method} ${exchange.request.path}`,
    });
  }

  /**
   * An operation the target lacks, asked as the target's escrow reads (read-substitutes.ts): the
   * exchange counts as sent once; each read is compared as an escrow read with the recording's
   * view of that escrow, and its differences filed under the exchange.
   */
  private async replayByReads(
    exchange: RecordedExchange,
    sent: { routeId: string; op: OperationName; service: ServiceName; input: OperationInput<OperationName> },
    substitute: Substitute,
  ): Promise<string | null> {
    const { routeId, op, service } = sent;
    const recordedKey = bearerOf(exchange);
    const liveKey = recordedKey === null ? null : (this.bindings.live(recordedKey) ?? recordedKey);
    this.countSent(op);
    this.info(exchange, {
      id: `replay:by-reads:${op}`,
      kind: 'shape',
      title: `${op}: ${substitute.why}`,
      evidence: `${routeId}: ${substitute.reads.length} read${substitute.unread === 0 ? '' : `, ${substitute.unread} more not read (at most ${READS_MAX})`}`,
    });
    const liveDialect = this.options.session.target.services[service]?.dialect ?? 'deployed';
    for (const read of substitute.reads) {
      this.orphansNamed = [];
      const escrowId = read.live ? read.escrowId : this.ids.escrow(read.escrowId);
      if (this.orphansNamed.length > 0) continue;
      const outcome = await this.options.session.call('escrow.get', { escrowId }, liveKey, this.forwarded(exchange));
      if (outcome.kind === 'unreachable') return outcome.message;
      const live = liveOutcomeOf(outcome);
      if (live === null) continue;
      const input = { escrowId };
      const differences = compareOutcomes('escrow.get', { kind: 'ok', value: read.expected }, live, {
        bindings: this.bindings,
        recordingDialect: 'A',
        liveDialect,
        input,
      });
      const explained = this.explained.explain(exchange, differences, {
        op: 'escrow.get',
        input,
        liveKey,
        ownAccount: false,
        orphanCause: this.orphanCause ?? substitute.explains,
      });
      this.file(exchange, routeId, 'escrow.get', explained, 'request' in outcome ? outcome.request : null);
    }
    // What the target could not do (a refund) leaves the escrow and its sender's balance, as a skip would.
    if (substitute.explains !== null) this.leftovers.bySkip(exchange, routeId, op, sent.input, substitute.explains);
    return null;
  }

  /** What later exchanges must know: escrows the target did not create, agents whose money diverged. */
  private follow(
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
  private walletKeyOf(service: string, callerId: string | null): string | null {
    return service === 'wallet' && callerId !== null ? (this.walletKeys.get(callerId) ?? null) : null;
  }

  /**
   * A wallet call the recording accepted with the agent's platform key (the documents' one key) and
   * the target refused 401: the target's wallet keeps keys of its own, as a deployment's does
   * (DEPLOYED.md §1.1). The agent is registered on the wallet once (wallet.register) and its calls
   * there carry that key from now on; returns it to send the call again, or null when this is no
   * such refusal (or the registration failed: the refusal stands, reported as it is).
   */
  private async walletKeyAfterRefusal(
    exchange: RecordedExchange,
    call: { service: string; op: OperationName; callerId: string | null },
    answers: { recorded: ReadOutcome<unknown>; outcome: CallOutcome<unknown> },
  ): Promise<string | null> {
    const { outcome, recorded } = answers;
    if (
      call.service !== 'wallet' ||
      call.op === 'wallet.register' ||
      call.callerId === null ||
      this.walletKeys.has(call.callerId) ||
      this.walletKeys.size >= FOLLOWED_MAX.walletKeys ||
      recorded.kind !== 'ok' ||
      outcome.kind !== 'refused' ||
      outcome.refusal.status !== 401 ||
      this.options.session.offers('wallet.register') !== null
    )
      return null;
    const registered = await this.options.session.call('wallet.register', {}, null, this.forwarded(exchange));
    if (registered.kind !== 'ok') return null;
    this.walletKeys.set(call.callerId, registered.value.apiKey);
    this.info(exchange, {
      id: 'replay:account-opened:wallet',
      kind: 'shape',
      title: `the wallet on ${this.options.session.target.name} refused the agent's platform key (401) and keeps keys of its own (as a deployment's does, DEPLOYED.md §1.1): each recorded agent that used its platform key there is registered on it once, and its wallet calls carry that key`,
      evidence: `${call.op}: recorded ${call.callerId} is ${registered.value.agentId} on wallet`,
    });
    return registered.value.apiKey;
  }

  /**
   * The recorded agent's client address, announced (X-Forwarded-For) only to a target that says it
   * trusts it (an afp serve whose mounts say `forwarded_for: trusted`: Target.freshClientAddresses),
   * as docs/targets.md promises: a deployment would otherwise be told made-up addresses (the
   * record's 2001:db8:: ones), and a per-IP limit keyed on the header let a replay's 57
   * registrations through where one client's would meet it (prober 67c).
   */
  private forwarded(exchange: RecordedExchange): { forwardedFor?: string } {
    return forwardedFrom(this.options.session, exchange);
  }

  /** A send the dialect could not express: not counted as sent. */
  private unsend(op: OperationName): void {
    this.sent--;
    const count = (this.sentByOperation.get(op) ?? 1) - 1;
    if (count === 0) this.sentByOperation.delete(op);
    else this.sentByOperation.set(op, count);
  }

  /** What a live answer issued that later requests name: a registered domain's id (a deployed transfer names it). */
  private learnLive(op: OperationName, input: OperationInput<OperationName>, live: ReadOutcome<unknown>): void {
    if (op !== 'domains.register' || live.kind !== 'ok') return;
    const domainId = (live.value as OperationResult<'domains.register'>).domainId;
    if (typeof domainId === 'string')
      this.serviceAccounts.learnDomain((input as OperationInput<'domains.register'>).domain, domainId);
  }

  private send<O extends OperationName>(
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
  private countSent(op: OperationName): void {
    this.sent++;
    this.sentByOperation.set(op, (this.sentByOperation.get(op) ?? 0) + 1);
  }

  /** The recorded agent an escrow creation's body pays (style B `receiver`, style A `seller`), or null. */
  private recordedReceiver(body: unknown): string | null {
    if (body === null || typeof body !== 'object') return null;
    const fields = body as Record<string, unknown>;
    const named = fields['receiver'] ?? fields['seller'];
    return typeof named === 'string' ? this.recordedAgent(named) : null;
  }

  /** The recorded agent's balance on the target leaves the recording's (the first cause is kept). */
  private divergeAgent(recordedAgentId: string, cause: string): void {
    const recordedKey = this.keyOfAgent.get(recordedAgentId);
    if (recordedKey === undefined) return;
    const liveKey = this.bindings.live(recordedKey) ?? recordedKey;
    this.divergence.leaveBalance(liveKey, cause);
  }

  /** A recorded registration's other names of the agent (address, referral code) and its key. */
  private learnAliases(op: OperationName, recorded: ReadOutcome<OperationResult<OperationName>>): void {
    if (!isRegistration(op) || recorded.kind !== 'ok') return;
    const value = recorded.value as Partial<OperationResult<'faucet.register'>>;
    if (typeof value.agentId !== 'string' || typeof value.apiKey !== 'string') return;
    this.agentOfKey.set(value.apiKey, value.agentId);
    if (this.keyOfAgent.size < FOLLOWED_MAX.keysOfAgents) this.keyOfAgent.set(value.agentId, value.apiKey);
    for (const alias of [value.address?.toLowerCase(), value.referralCode])
      if (typeof alias === 'string') this.aliases.set(alias, value.agentId);
  }

  /** The target registers agents elsewhere (or otherwise): register there, bind, fund what the recording credited. */
  private async registerTargetWay(
    exchange: RecordedExchange,
    routeId: string,
    recorded: ReadOutcome<OperationResult<OperationName>>,
    notOffered: string,
  ): Promise<string | null> {
    const { session } = this.options;
    if (recorded.kind !== 'ok')
      return this.skip(exchange, {
        id: `replay:skipped:refused-registration:${routeId}`,
        kind: 'shape',
        title: `${routeId}: ${notOffered}; a registration the recording refused is not replayed`,
        evidence: `${routeId} answered ${exchange.response.status}`,
      });
    const value = recorded.value as Partial<OperationResult<'faucet.register'>>;
    if (session.target.register === null || session.offers('casino.register') !== null) {
      return this.skip(exchange, {
        id: `replay:skipped:no-registration:${routeId}`,
        kind: 'shape',
        title: `${routeId}: ${notOffered}, and ${session.target.name} offers no registration of its own: the agent's later requests carry its recorded key`,
        evidence: `${routeId}`,
      });
    }
    this.info(exchange, {
      id: `replay:registered-elsewhere:${routeId}`,
      kind: 'shape',
      title: `${routeId}: ${notOffered}; the agent registers on the target's ${session.target.register.service} instead (casino.register) and is funded the target's way`,
      evidence: `seq ${exchange.seq}: recorded ${routeId} answered ${exchange.response.status}`,
    });
    const outcome = await this.send('casino.register', {}, null, exchange);
    if (outcome.kind === 'unreachable') return outcome.message;
    if (outcome.kind === 'deadline') return 'casino.register was rate limited past the time budget';
    if (outcome.kind !== 'ok') {
      this.file(
        exchange,
        routeId,
        'casino.register',
        [
          {
            kind: 'rule',
            field: 'accepted',
            expected: 'accepted',
            seen: outcome.kind === 'refused' ? `${outcome.refusal.status} ${outcome.refusal.name}` : outcome.kind,
            note: 'the target refused the registration that stands for the recorded one',
          },
        ],
        'request' in outcome ? outcome.request : null,
      );
      return null;
    }
    const live = outcome.value;
    if (typeof value.agentId === 'string') this.bindings.bind(value.agentId, live.agentId);
    if (typeof value.apiKey === 'string') this.bindings.bind(value.apiKey, live.apiKey);
    const credited = value.creditedMicro ?? 0n;
    if (credited > 0n) await this.funding.fund(exchange, routeId, live, credited);
    if (typeof value.agentId === 'string') await this.funding.startingDeposit(exchange, routeId, value.agentId, live);
    return null;
  }

  private skip(exchange: RecordedExchange, skip: Skip): null {
    this.skipped++;
    this.info(exchange, skip);
    return null;
  }

  private info(exchange: RecordedExchange, note: Skip): void {
    fileNote(this.options.findings, exchange, note);
  }

  private file(
    exchange: RecordedExchange,
    routeId: string,
    op: OperationName,
    differences: readonly ResultDifference[],
    request: SentRequest | null,
  ): void {
    fileDifferences(this.options, exchange, { routeId, op, request }, differences);
  }
}

/** A reproduce line with every secret of the body (a re-signed send's key) redacted, as the record has it. */
