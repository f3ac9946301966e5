/**
 * Invariant `trading-liquidation-solvent`: a liquidation never touches an agent's balance — its
 * transfers (`trading.liquidation*`, and insurance paying a shortfall) move money only between
 * margin, house and insurance — so no balance goes negative through one; after each liquidation
 * the position holds no margin, is out of the open book, and the agent's balance is not negative.
 * The shortfall an event reports is exactly what insurance paid the house for it (at most).
 */
import { agentAccount } from '../../../core/ledger.ts';
import { TRADING_HOUSE, TRADING_INSURANCE } from '../../../services/trading/trading-record.ts';
import { jsonText } from '../../json-text.ts';
import { eventViolation, type InvariantDefinition, type Violation } from '../checker.ts';

const AGENT_PREFIX = agentAccount('');

export const tradingLiquidationSolvent: InvariantDefinition = {
  name: 'trading-liquidation-solvent',
  description: 'liquidations move money only between margin, house and insurance; no balance negative after one',
  create({ platform, nowMs }) {
    const ledger = platform.ledger;
    /** Insurance paid to the house, by position id (reference), since the last liquidation event. */
    const insurancePaid = new Map<string, bigint>();
    return {
      onTransfer(transfer) {
        const liquidation =
          transfer.reason.startsWith('trading.liquidation') || transfer.reason === 'trading.insurance';
        if (!liquidation) return null;
        if (transfer.from.startsWith(AGENT_PREFIX) || transfer.to.startsWith(AGENT_PREFIX)) {
          return {
            atMs: nowMs(),
            event: jsonText(transfer),
            message: `a ${transfer.reason} transfer touched the agent balance ${transfer.from.startsWith(AGENT_PREFIX) ? transfer.from : transfer.to}`,
          };
        }
        if (transfer.from === TRADING_INSURANCE && transfer.to === TRADING_HOUSE)
          insurancePaid.set(transfer.reference, (insurancePaid.get(transfer.reference) ?? 0n) + transfer.amountMicro);
        return null;
      },
      onEvent(event) {
        if (event.type !== 'trading.liquidated') return null;
        const paid = insurancePaid.get(event.positionId) ?? 0n;
        insurancePaid.delete(event.positionId);
        const position = platform.trading.book.position(event.positionId);
        const fail = (message: string): Violation => eventViolation(event, message);
        if (position === undefined || position.status !== 'liquidated' || position.marginMicro !== 0n)
          return fail(`position ${event.positionId} is not liquidated with an empty margin after its liquidation`);
        if (platform.trading.book.openPosition(event.agentId, event.symbol) === position)
          return fail(`position ${event.positionId} is still in the open book`);
        if (ledger.balance(agentAccount(event.agentId)) < 0n)
          return fail(`agent ${event.agentId} is negative after a liquidation`);
        if (paid > event.shortfallMicro)
          return fail(`insurance paid ${paid} micro-USDC for a shortfall of ${event.shortfallMicro}`);
        return null;
      },
    };
  },
};
