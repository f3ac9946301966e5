/**
 * Funding a target the target's way for what the recording was credited otherwise: a credit the
 * recording's style gave and the target's rule did not (a style B grant or daily claim), and the
 * casino starting deposit the harness made outside HTTP (the record's `deposits`). What arrived is
 * checked by the balance before and after; what did not is a deficit (a minor finding), and the
 * agent's later want-of-funds differences are its consequences (replay-divergence.ts). Why a file
 * of its own: funding is the replay's own set-up, apart from sending and comparing exchanges.
 */
import type { Deadline } from '../core/deadline.ts';
import type { WaitClock } from '../core/clock.ts';
import { formatDecimal, parseDecimal, type Micro } from '../core/money.ts';
import {
  fundLiveAccount,
  type LiveSession,
  type OperationInput,
  type OperationName,
  type OperationResult,
  type ReadOutcome,
} from '../live.ts';
import type { FindingsCollector } from '../report/findings/finding.ts';
import type { RecordedDeposit, RecordedExchange } from './record-format.ts';
import type { ReplayDivergence } from './replay-divergence.ts';

export interface FundingOptions {
  readonly session: LiveSession;
  readonly clock: WaitClock;
  readonly deadline: Deadline;
  readonly findings: FindingsCollector;
  readonly deposits?: Readonly<Record<string, RecordedDeposit>>;
}

/** The recorded caller's address, forwarded where the target file asks for fresh client addresses. */
export function forwardedFrom(session: LiveSession, exchange: RecordedExchange): { forwardedFor?: string } {
  if (session.target.freshClientAddresses !== true) return {};
  const forwardedFor = exchange.request.headers['x-forwarded-for'];
  return forwardedFor === undefined ? {} : { forwardedFor };
}

export class ReplayFunding {
  private readonly options: FundingOptions;
  private readonly divergence: ReplayDivergence;

  constructor(options: FundingOptions, divergence: ReplayDivergence) {
    this.options = options;
    this.divergence = divergence;
  }

  /**
   * Across dialects, a credit the recording got by its style's rule (a B grant, a B daily claim)
   * and the target's rule did not give is funded the target's way, so the agent's later amounts
   * stay comparable.
   */
  async creditDifference(
    exchange: RecordedExchange,
    routeId: string,
    call: { op: OperationName; input: OperationInput<OperationName>; liveKey: string | null },
    recorded: ReadOutcome<unknown>,
    live: ReadOutcome<unknown>,
  ): Promise<void> {
    const creditOf = (outcome: ReadOutcome<unknown>): Micro =>
      outcome.kind === 'ok' ? ((outcome.value as { creditedMicro?: Micro | null }).creditedMicro ?? 0n) : 0n;
    const missingMicro = creditOf(recorded) - creditOf(live);
    if (missingMicro <= 0n) return;
    const registered =
      call.op === 'faucet.register' && live.kind === 'ok' ? (live.value as OperationResult<'faucet.register'>) : null;
    const agentId = registered?.agentId ?? (call.input as { agentId?: string }).agentId ?? null;
    const apiKey = registered?.apiKey ?? call.liveKey;
    if (agentId === null || apiKey === null) return;
    await this.fund(exchange, routeId, { agentId, apiKey }, missingMicro);
  }

  /**
   * The casino starting deposit the harness made outside HTTP right after the agent registered
   * (the record's header `deposits`, as the documents-dialect replay applies it), funded the
   * target's way; what could not be is a deficit, as any funding's.
   */
  async startingDeposit(
    exchange: RecordedExchange,
    routeId: string,
    recordedAgentId: string,
    live: { agentId: string; apiKey: string },
  ): Promise<void> {
    const deposit = this.options.deposits?.[recordedAgentId];
    const amountMicro = deposit === undefined ? null : parseDecimal(deposit.amount);
    if (typeof amountMicro !== 'bigint' || amountMicro <= 0n) return;
    await this.fund(
      exchange,
      routeId,
      live,
      amountMicro,
      `the harness deposited ${deposit?.amount} USDC (${deposit?.chain}) outside HTTP after the recorded registration (the record's deposits)`,
    );
    // The recording holds a deposit pending until its confirmations (casino.md); another dialect's way credits it at once.
    if ((this.options.session.target.services.casino?.dialect ?? 'A') === 'A') return;
    this.divergence.leaveBalance(
      live.apiKey,
      `seq ${exchange.seq} (the starting deposit: pending in the recording until confirmed, credited at once on the target)`,
    );
  }

  /**
   * Funds `amountMicro` the target's way and checks what arrived (the balance before and after: a
   * deployed faucet gives 1.00 whatever was asked). What did not arrive is a deficit: the agent's
   * later want-of-funds differences are its consequences.
   */
  async fund(
    exchange: RecordedExchange,
    routeId: string,
    account: { agentId: string; apiKey: string },
    amountMicro: Micro,
    what = `the recording was credited ${formatDecimal(amountMicro)} USDC more than the target credits`,
  ): Promise<void> {
    const { session, clock, deadline } = this.options;
    const callOptions = forwardedFrom(session, exchange);
    const balance = async (): Promise<Micro | null> => {
      const read = await session.call('casino.balance', {}, account.apiKey, callOptions);
      return read.kind === 'ok' ? read.value.balanceMicro : null;
    };
    const before = await balance();
    const funded = await fundLiveAccount(
      { session, key: null, fundMicro: amountMicro, clock, deadline, callOptions },
      account.agentId,
      account.apiKey,
    );
    const after = await balance();
    const arrivedMicro = before === null || after === null ? (funded.ok ? amountMicro : 0n) : after - before;
    const method = session.target.funding.method;
    const asked = formatDecimal(amountMicro);
    if (arrivedMicro >= amountMicro) {
      this.options.findings.add({
        id: `replay:funded:${routeId}`,
        severity: 'info',
        kind: 'money',
        title: `${routeId}: ${what}; funded by ${method}`,
        expected: asked,
        seen: funded.ok ? funded.value : funded.message,
        evidence: `seq ${exchange.seq}: ${funded.ok ? funded.value : funded.message}`,
      });
      return;
    }
    const why = funded.ok ? `${funded.value}: ${formatDecimal(arrivedMicro)} USDC arrived` : funded.message;
    this.divergence.leaveBalance(
      account.apiKey,
      `seq ${exchange.seq} (${formatDecimal(amountMicro - arrivedMicro)} of the ${asked} USDC the recording was credited could not be funded)`,
    );
    this.options.findings.add({
      id: `replay:unfunded:${routeId}`,
      severity: 'minor',
      kind: 'money',
      title: `${routeId}: ${asked} USDC the recording was credited could not all be funded by ${method}; later amounts of this agent may differ`,
      expected: asked,
      seen: formatDecimal(arrivedMicro),
      evidence: `seq ${exchange.seq}: ${why}`,
    });
  }
}
