/**
 * The replay's answers to a target that differs from the recording (operation-replay.ts): a market
 * order's position kept apart and closed by id, an exchange naming what the target never created,
 * an operation the target offers otherwise (registration its way, an answer asked by reads) or
 * not at all, and a wallet that keeps keys of its own.
 */
import type { CallOutcome, OperationInput, OperationName, OperationResult, ReadOutcome } from '../live.ts';
import { formatDecimal } from '../core/money.ts';
import { compareOutcomes } from './operation-diff.ts';
import type { RecordedExchange } from './record-format.ts';
import type { HeldPosition } from './replay-positions.ts';
import { accountService } from './service-accounts-replay.ts';
import { bearerOf, isRegistration, liveOutcomeOf } from './replay-exchange-parts.ts';
import { READS_MAX, substituteReads, type Substitute } from './read-substitutes.ts';
import type { ServiceName } from '../platform/service-names.ts';
import { FOLLOWED_MAX, ReplayState, type Orphan } from './replay-state.ts';

/**
 * What the replay does where the target cannot be sent the recorded exchange as it is: it keeps
 * positions apart (apartOrder, replayClose), it never created what the exchange names (orphaned),
 * or it offers the operation otherwise or not at all (notOffered: registering its way, asking by
 * reads); and a wallet that refuses the agent's platform key (walletKeyAfterRefusal).
 */
export class ReplayTargetWay extends ReplayState {
  /**
   * A market order where the target keeps positions apart (replay-positions.ts): the documents'
   * close is the target's close; a reduce or flip is the close and an order for what remains; an
   * order it cannot ask is skipped. Returns the exchange's result, or undefined to send the order.
   */
  protected async apartOrder(
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
  protected orphaned(
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
  protected notOffered(
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

  /**
   * A wallet call the recording accepted with the agent's platform key (the documents' one key) and
   * the target refused 401: the target's wallet keeps keys of its own, as a deployment's does
   * (DEPLOYED.md §1.1). The agent is registered on the wallet once (wallet.register) and its calls
   * there carry that key from now on; returns it to send the call again, or null when this is no
   * such refusal (or the registration failed: the refusal stands, reported as it is).
   */
  protected async walletKeyAfterRefusal(
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
}
