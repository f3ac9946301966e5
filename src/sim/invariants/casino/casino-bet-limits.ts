/**
 * Invariant `casino-bet-limits`: no casino bet is accepted below its game's minimum, above its
 * game's maximum, or above the Kelly limit of the bankroll the agent had just before the bet
 * (NOTES.md "Kelly limit": bankroll = balance before the bet, the agent's risk factor).
 *
 * How: the balance before a bet is read off the ledger at the moment its stake leaves the agent
 * (the transfer's source balance plus the stake): 'casino.bet.stake' for an ordinary bet
 * (reference = bet id), 'casino.video-poker.commit' for a video-poker deal (the amount is
 * committed at the deal: reference = seed-hash prefix and nonce), 'casino.crash.stake' for a
 * crash-round bet. At the bet's event the limit is recomputed from the bet record (game,
 * parameters) with the casino's own Kelly rule (kelly-rule.ts) and that balance — an independent
 * reading of the same formula, so a bet path that skips its check (the
 * `casino-skip-balance-check` defect) is caught by the first bet above the limit.
 * Limits: the pending balances hold only stakes whose bet has not settled yet (crash rounds and
 * dealt hands); entries are removed at settlement.
 */
import { agentAccount } from '../../../core/ledger.ts';
import { formatDecimal } from '../../../core/money.ts';
import type { Outcome } from '../../../core/errors.ts';
import type { BetRecord } from '../../../services/casino/bet-record.ts';
import type { GameModule } from '../../../services/casino/games/game.ts';
import { gameById } from '../../../services/casino/games/index.ts';
import { OPTIMAL_PARAMS } from '../../../services/casino/games/video-poker.ts';
import { kellyMaxBetMicro } from '../../../services/casino/kelly-rule.ts';
import { jsonText } from '../../json-text.ts';
import { eventViolation, type InvariantDefinition, type Violation } from '../checker.ts';

const AGENT_PREFIX = agentAccount('');
const STAKE_REASONS = new Set(['casino.bet.stake', 'casino.crash.stake', 'casino.video-poker.commit']);
/** Crash rounds check the limit with the auto cash-out, 2.00x when none (crash-rounds.ts). */
const CRASH_DEFAULT_CENTS = 200;

/** The parameters the casino checked the bet's Kelly limit with. */
function checkedParams(bet: BetRecord, game: GameModule): Outcome<unknown> {
  if (bet.source === 'video-poker') return { ok: true, value: OPTIMAL_PARAMS };
  if (bet.variant === 'crash:round') {
    const auto = bet.params['auto_cash_out'];
    return {
      ok: true,
      value: { cashOutCents: typeof auto === 'number' ? Math.round(auto * 100) : CRASH_DEFAULT_CENTS },
    };
  }
  return game.parse(bet.params);
}

/** The key under which a bet's stake was seen leaving the agent. */
function stakeKey(bet: BetRecord): string {
  return bet.source === 'video-poker' ? `${bet.seedHash.slice(0, 16)}:${bet.nonce}` : bet.id;
}

export const casinoBetLimits: InvariantDefinition = {
  name: 'casino-bet-limits',
  description:
    'no accepted casino bet below the game minimum, above its maximum or above the Kelly limit of the balance before it',
  create({ platform }) {
    const casino = platform.casino;
    /** Stake key → the agent's balance just before the stake left it. */
    const balanceBefore = new Map<string, bigint>();
    const judge = (bet: BetRecord): Violation | null => {
      // A deployed parlay has its own limits (parlay-bet.ts: 0.01–10, no Kelly), checked where it is placed.
      if (bet.game === 'parlay') return null;
      const game = gameById(bet.game);
      const broken = (message: string): Violation => ({
        atMs: bet.atMs,
        event: jsonText({ bet }),
        message: `bet ${bet.id} of ${bet.agentId} (${bet.variant}): ${message}`,
      });
      if (bet.amountMicro < game.minBetMicro)
        return broken(
          `amount ${formatDecimal(bet.amountMicro)} is below the minimum ${formatDecimal(game.minBetMicro)}`,
        );
      if (bet.amountMicro > game.maxBetMicro)
        return broken(
          `amount ${formatDecimal(bet.amountMicro)} is above the maximum ${formatDecimal(game.maxBetMicro)}`,
        );
      const key = stakeKey(bet);
      const bankrollMicro = balanceBefore.get(key);
      balanceBefore.delete(key);
      if (bankrollMicro === undefined) return broken("no stake left the agent's balance for this bet");
      const params = checkedParams(bet, game);
      if (!params.ok) return broken(`recorded parameters do not parse: ${params.message}`);
      const limitMicro = kellyMaxBetMicro(casino.state, bet.agentId, game, params.value, bankrollMicro);
      if (bet.amountMicro <= limitMicro) return null;
      return broken(
        `amount ${formatDecimal(bet.amountMicro)} exceeds the Kelly limit ${formatDecimal(limitMicro)} of the balance ${formatDecimal(bankrollMicro)} before the bet`,
      );
    };
    return {
      onTransfer(transfer) {
        if (!STAKE_REASONS.has(transfer.reason) || !transfer.from.startsWith(AGENT_PREFIX)) return null;
        balanceBefore.set(transfer.reference, platform.ledger.balance(transfer.from) + transfer.amountMicro);
        return null;
      },
      onEvent(event) {
        if (event.type !== 'casino.bet') return null;
        const bet = casino.findBet(event.betId);
        if (bet === undefined) return eventViolation(event, `bet ${event.betId} has an event but no record`);
        return judge(bet);
      },
    };
  },
};
