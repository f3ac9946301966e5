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
 * This file is the replay loop: one exchange's steps, from gate to followAnswer. The state it keeps is
 * replay-state.ts's; what it does where the target differs from the recording, replay-target-way.ts's.
 */
import { ALL_ROUTES } from '../http/routes/index.ts';
import type { Mount } from '../http/route.ts';
import { Router } from '../http/router.ts';
import { rowOf, type OperationInput, type OperationName, type OperationResult, type ReadOutcome } from '../live.ts';
import { DIALECT_CREDITS, type ResultDifference } from './operation-diff.ts';
import type { RecordedExchange } from './record-format.ts';
import { routeOperationOf } from './route-operations.ts';
import type { RecordedCall, RouteOperation } from './route-operations-types.ts';
import { accountService } from './service-accounts-replay.ts';
import type { Answered, Finished, Gate, Prepared, Sent } from './replay-steps.ts';
import {
  bearerOf,
  clip,
  isRegistration,
  liveOutcomeOf,
  recordedOutcome,
  recordingDialect,
} from './replay-exchange-parts.ts';
import { compareDrawn, DRAWN_OPERATIONS } from './drawn-outcomes.ts';
import { offersOperation } from './dns-set-calls.ts';
import { compareResults } from './set-compare.ts';
import { ReplayTargetWay } from './replay-target-way.ts';
import type { OperationReplayStop, OperationReplayTotals } from './replay-state.ts';

export type { OperationReplayOptions, OperationReplayStop, OperationReplayTotals } from './replay-state.ts';

let router: Router | null = null;

export class OperationReplay extends ReplayTargetWay {
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
}
