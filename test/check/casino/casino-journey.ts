// A scripted casino journey through the check's own commands (the ModelCommand frame: each answer
// compared with the model, every balance read back): challenges accepted and declined, both
// seeds rotated so the draws replay, a tournament created, entered, played and ended on the clock
// with its prizes, a large deposit, a withdrawal under review completed on the clock, verifications.
// Shared by the in-process and the live tests; `deposits` false leaves out what needs a deposit.
import type { CheckRun } from '../../../src/check/check-target.ts';
import {
  casinoBalanceCommand,
  depositCommand,
  withdrawalsCommand,
  withdrawCommand,
} from '../../../src/check/casino/command-casino-account.ts';
import { batchCommand, betACommand, betBCommand } from '../../../src/check/casino/command-casino-bets.ts';
import { challengeActionCommand, createChallengeCommand } from '../../../src/check/casino/command-casino-challenges.ts';
import {
  riskFactorCommand,
  rotateCommand,
  seedHashCommand,
  verifyCommand,
} from '../../../src/check/casino/command-casino-fairness.ts';
import {
  createTournamentCommand,
  enterTournamentCommand,
  playTournamentCommand,
  tournamentDetailsCommand,
} from '../../../src/check/casino/command-casino-tournaments.ts';
import { registerCommand } from '../../../src/check/faucet/command-faucet.ts';
import { advanceTimeCommand } from '../../../src/check/command-time.ts';
import { ModelCommand, type CommandSpec } from '../../../src/check/model-command.ts';

export function casinoJourney(options: { deposits: boolean }): CommandSpec[] {
  const money: CommandSpec[] = options.deposits
    ? [
        depositCommand(2, 1_500_000_000n),
        advanceTimeCommand({ kind: 'boundary', pick: 0, offsetMs: -1 }),
        casinoBalanceCommand(2),
        advanceTimeCommand({ kind: 'boundary', pick: 0, offsetMs: 0 }),
        withdrawCommand(2, 'review'),
        casinoBalanceCommand(2),
        advanceTimeCommand({ kind: 'by', ms: 86_400_000 }),
        withdrawalsCommand(2),
      ]
    : [withdrawCommand(2, 'review'), withdrawCommand(2, 'min'), withdrawalsCommand(2)];
  return [
    registerCommand({ style: 'B', again: null, referrer: null }),
    registerCommand({ style: 'B', again: null, referrer: { slot: 0, via: 'id' } }),
    registerCommand({ style: 'B', again: null, referrer: { slot: 1, via: 'code' } }),
    betACommand({ slot: 0, choice: { game: 'keno', picks: [5, 17, 33] }, amount: 'kelly', ownSeed: true }),
    betACommand({ slot: 0, choice: { game: 'plinko', rows: 16, risk: 'high' }, amount: 'kelly+1', ownSeed: true }),
    betBCommand({
      slot: 0,
      choice: { game: 'roulette', betType: 'number', betValue: 17 },
      amount: 'min',
      ownSeed: true,
      amountAs: 'string',
    }),
    batchCommand(0, [
      { kind: 'bet', choice: { game: 'dice', direction: 'over', threshold: 50 }, amount: 'half-kelly' },
      { kind: 'game', game: 'video_poker' },
      { kind: 'bet', choice: { game: 'coin_flip', side: 'tails' }, amount: 'balance+1' },
      { kind: 'bet', choice: { game: 'plinko', rows: 8, risk: 'low' }, amount: 'min' },
    ]),
    verifyCommand({ slot: 0, ref: { own: 0 }, style: 'A' }),
    createChallengeCommand({
      slot: 0,
      challenged: { slot: 1, via: 'address' },
      game: 'coin_flip',
      stake: 'half',
      message: 'best of one?',
    }),
    challengeActionCommand({ action: 'accept', actor: 'outsider', ref: { index: 0 } }),
    challengeActionCommand({ action: 'accept', actor: 'challenged', ref: { index: 0 } }),
    createChallengeCommand({ slot: 1, challenged: { slot: 0, via: 'id' }, game: 'dice', stake: 'two', message: null }),
    challengeActionCommand({ action: 'accept', actor: 'challenged', ref: { index: 1 } }),
    createChallengeCommand({
      slot: 2,
      challenged: { slot: 0, via: 'code' },
      game: 'coin_flip',
      stake: 'min',
      message: null,
    }),
    challengeActionCommand({ action: 'decline', actor: 'challenged', ref: { index: 2 } }),
    rotateCommand(0),
    rotateCommand(1),
    verifyCommand({ slot: 0, ref: { own: 0 }, style: 'A' }),
    verifyCommand({ slot: 0, ref: { own: 2 }, style: 'B' }),
    verifyCommand({ slot: 1, ref: 'other', style: 'A' }),
    seedHashCommand(0),
    riskFactorCommand(1, 0.5),
    riskFactorCommand(1, 0.125),
    createTournamentCommand({
      slot: 0,
      game: 'coin_flip',
      pool: 'one',
      entryFeeMicro: 500_000n,
      maxAgents: 3,
      startsInMs: 0,
      durationMs: 3_600_000,
    }),
    enterTournamentCommand(1, { index: 0 }),
    enterTournamentCommand(2, { index: 0 }),
    enterTournamentCommand(0, { index: 0 }),
    playTournamentCommand({ player: { entrant: 0 }, ref: { index: 0 }, amount: 'kelly', pick: 'first' }),
    playTournamentCommand({ player: { entrant: 1 }, ref: { index: 0 }, amount: 'half-kelly', pick: 'second' }),
    playTournamentCommand({ player: { outsider: 0 }, ref: { index: 0 }, amount: 'small', pick: 'second' }),
    tournamentDetailsCommand(2, { index: 0 }),
    advanceTimeCommand({ kind: 'boundary', pick: 0, offsetMs: 0 }),
    tournamentDetailsCommand(0, { index: 0 }),
    playTournamentCommand({ player: { entrant: 0 }, ref: { index: 0 }, amount: 'small', pick: 'first' }),
    ...money,
  ];
}

/** Runs the specs in order; returns the labels of those whose precondition did not hold. */
export async function runJourney(run: CheckRun, specs: readonly CommandSpec[]): Promise<string[]> {
  const skipped: string[] = [];
  for (const spec of specs) {
    const command = new ModelCommand(spec);
    if (!command.check(run.model)) {
      skipped.push(spec.label);
      continue;
    }
    await command.run(run.model, run.real);
  }
  return skipped;
}
