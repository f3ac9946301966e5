/**
 * Turns a finished (or stopped) Simulation into the RunRecord the report writers consume: plain
 * data in a fixed order (agents in population order, endpoints by id, escrows in creation order,
 * events as emitted). No wall-clock time anywhere. The casino part is present only when the run
 * placed casino bets, so runs without them keep exactly the record (and reports) they had.
 */
import { FAUCET_POOL, FEE_INCOME, agentAccount } from '../core/ledger.ts';
import { referralRowsOf } from '../report/referrals-csv.ts';
import type { AgentRow, EscrowRow, RunRecord, TradingRunData } from '../report/run-record.ts';
import type { Platform } from '../platform/platform.ts';
import { moneyHolders } from './money-holders.ts';
import type { Simulation } from './simulation.ts';
import { StreamedEvents } from './streamed-events.ts';

export function buildRunRecord(
  sim: Simulation,
  options: { endMs: number; outcome: RunRecord['outcome']; reproduce: string },
): RunRecord {
  const ledger = sim.platform.ledger;
  const agents: AgentRow[] = sim.agents.map((agent) => ({
    agentId: agent.agentId,
    archetype: agent.archetype,
    displayName: agent.displayName,
    tier: agent.tier,
    balanceMicro: ledger.balance(agentAccount(agent.agentId)),
    requests: agent.counts.requests,
    errors: agent.counts.errors,
    rateLimited: agent.counts.rateLimited,
  }));
  const escrows = escrowRowsOf(sim.platform);
  let agentBalancesMicro = 0n;
  for (const agent of sim.platform.agents.all()) agentBalancesMicro += ledger.balance(agentAccount(agent.id));
  const casino = sim.casinoLog.data(options.endMs);
  const domains = sim.domainRows.rows();
  if (sim.events instanceof StreamedEvents) sim.events.finish();
  const referrals = referralRowsOf(sim.platform.referrals);
  const wallet = sim.walletRows.rows();
  return {
    scenario: sim.scenario.name,
    seed: sim.seed,
    startMs: sim.scenario.startMs,
    endMs: options.endMs,
    reproduce: options.reproduce,
    outcome: options.outcome,
    agents,
    endpoints: sim.endpoints.rows(),
    escrows,
    events: sim.events,
    invariants: sim.monitor.results(),
    totals: {
      requests: sim.endpoints.requests,
      agents: sim.platform.agents.size,
      escrows: sim.platform.escrow.size,
      ledgerSumMicro: ledger.auditSum(),
      feeIncomeMicro: ledger.balance(FEE_INCOME),
      faucetPoolMicro: ledger.balance(FAUCET_POOL),
      agentBalancesMicro,
      ...moneyHolders(ledger.accounts()),
    },
    ...(casino === undefined ? {} : { casino }),
    ...tradingPart(sim.platform),
    ...(domains === undefined ? {} : { domains }),
    ...(referrals === undefined ? {} : { referrals }),
    ...(wallet === undefined ? {} : { wallet }),
    trace: { requests: sim.trace.rows(), dropped: sim.trace.dropped },
    probes: sim.probes.counts(),
    faults: sim.scenario.faults.map((fault) => ({
      service: fault.service,
      fromMs: sim.scenario.startMs + fault.fromMs,
      untilMs: sim.scenario.startMs + fault.fromMs + fault.forMs,
      answer: fault.answer,
    })),
  };
}

/** Every escrow of the run as its report row, in the service's order. */
function escrowRowsOf(platform: Platform): EscrowRow[] {
  const escrows: EscrowRow[] = [];
  for (const escrow of platform.escrow.all()) {
    escrows.push({
      escrowId: escrow.id,
      senderId: escrow.senderId,
      receiverId: escrow.receiverId,
      amountMicro: escrow.amountMicro,
      feeMicro: escrow.feeMicro,
      status: escrow.status,
      createdAtMs: escrow.createdAtMs,
      expiresAtMs: escrow.expiresAtMs,
      settledAtMs: escrow.settledAtMs,
    });
  }
  return escrows;
}

/** Every order and position of the run, in the book's order; nothing when no order was placed. */
function tradingPart(platform: Platform): { trading?: TradingRunData } {
  const book = platform.trading.book;
  if (book.orderCount === 0) return {};
  const orders = [...book.allOrders()].map((order) => ({
    orderId: order.id,
    agentId: order.agentId,
    symbol: order.symbol,
    kind: order.kind,
    side: order.side,
    type: order.type,
    amountMicro: order.amountMicro,
    leverage: order.leverage,
    limitPrice: order.limitPrice,
    status: order.status,
    fillPrice: order.fillPrice,
    fillQty: order.fillQty,
    feeMicro: order.feeMicro,
    liquidity: order.liquidity,
    realizedPnlMicro: order.realizedPnlMicro,
    createdAtMs: order.createdAtMs,
    filledAtMs: order.filledAtMs,
    cancelledAtMs: order.cancelledAtMs,
  }));
  const positions = [...book.allPositions()].map((position) => ({
    positionId: position.id,
    agentId: position.agentId,
    symbol: position.symbol,
    side: position.side,
    status: position.status,
    entryPrice: position.entryPrice,
    qty: position.qty,
    marginMicro: position.marginMicro,
    leverage: position.leverage,
    fundingPaidMicro: position.fundingPaidMicro,
    realizedPnlMicro: position.realizedPnlMicro,
    liquidationMark: position.liquidationMark,
    openedAtMs: position.openedAtMs,
    closedAtMs: position.closedAtMs,
  }));
  return { trading: { orders, positions } };
}
