/**
 * Validation of a tournament's create command: every field in range before anything is looked
 * up or moved (400 BAD_REQUEST naming the field). Bounds are TOURNAMENT_LIMITS; the choices are
 * in docs/decisions/casino.md ("Casino service").
 */
import { fail, type Failure } from '../../../core/errors.ts';
import { formatDecimal } from '../../../core/money.ts';
import { GAME_IDS, type GameId } from '../games/game.ts';
import { TOURNAMENT_LIMITS as LIMITS, type CreateTournamentCommand } from './tournament-record.ts';

export function isGameId(value: string): value is GameId {
  return (GAME_IDS as readonly string[]).includes(value);
}

/** The command's game id when every field is in range, else the first failure. */
export function checkCreateTournament(command: CreateTournamentCommand, nowMs: number): GameId | Failure {
  const { name, entryFeeMicro, prizePoolMicro, maxAgents, startsAtMs, endsAtMs } = command;
  if (name.trim() === '' || name.length > LIMITS.nameLengthMax)
    return fail('BAD_REQUEST', `name must be 1 to ${LIMITS.nameLengthMax} characters and not blank`);
  if (!isGameId(command.game)) return fail('BAD_REQUEST', `game must be one of: ${GAME_IDS.join(', ')}`);
  if (command.game === 'video_poker')
    return fail('BAD_REQUEST', 'video_poker is two-phase (deal, then draw) and cannot be a tournament game');
  if (entryFeeMicro < 0n || entryFeeMicro > LIMITS.entryFeeMaxMicro)
    return fail('BAD_REQUEST', `entry_fee must be from 0 to ${formatDecimal(LIMITS.entryFeeMaxMicro)}`);
  if (prizePoolMicro < LIMITS.prizePoolMinMicro || prizePoolMicro > LIMITS.prizePoolMaxMicro) {
    return fail(
      'BAD_REQUEST',
      `prize_pool must be from ${formatDecimal(LIMITS.prizePoolMinMicro)} to ${formatDecimal(LIMITS.prizePoolMaxMicro)}`,
    );
  }
  if (!Number.isSafeInteger(maxAgents) || maxAgents < LIMITS.maxAgentsMin || maxAgents > LIMITS.maxAgentsMax) {
    return fail('BAD_REQUEST', `max_agents must be an integer from ${LIMITS.maxAgentsMin} to ${LIMITS.maxAgentsMax}`);
  }
  if (!Number.isSafeInteger(startsAtMs) || startsAtMs < nowMs || startsAtMs - nowMs > LIMITS.startsWithinMs) {
    return fail('BAD_REQUEST', 'starts_at must be now or later, at most 30 days ahead');
  }
  if (!Number.isSafeInteger(endsAtMs) || endsAtMs <= startsAtMs || endsAtMs - startsAtMs > LIMITS.durationMaxMs) {
    return fail('BAD_REQUEST', 'ends_at must be after starts_at, at most 30 days later');
  }
  return command.game;
}
