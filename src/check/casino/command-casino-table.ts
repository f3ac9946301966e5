/**
 * The casino rows of the command table of `afp check` (command-table.ts adds them to its own):
 * one weighted arbitrary per command family. Inputs draw from small sets on purpose: the games'
 * interesting parameters (dice near certainty and near impossibility, a roulette number, keno of
 * 1, 3 and 10 picks, plinko's three sizes) plus a few invalid ones; amounts relative to what the
 * model knows (the minimum and just below it, the Kelly limit and one micro above it, more than
 * the balance, above the game's maximum); few tournaments and challenges, named by index so
 * commands meet them; time is moved by the shared advance-time row, which lands on the casino's
 * instants too (model-casino-time.ts).
 */
import fc from 'fast-check';
import { SLOT_COUNT, type AgentRef, type ReferenceVia } from '../check-model.ts';
import { batchCommand, betACommand, betBCommand, type BatchElement } from './command-casino-bets.ts';
import {
  casinoBalanceCommand,
  depositCommand,
  withdrawalsCommand,
  withdrawCommand,
  type WithdrawKind,
} from './command-casino-account.ts';
import {
  challengeActionCommand,
  createChallengeCommand,
  type ChallengeActor,
  type StakeKind,
} from './command-casino-challenges.ts';
import {
  RISK_FACTORS,
  riskFactorCommand,
  rotateCommand,
  seedHashCommand,
  verifyCommand,
} from './command-casino-fairness.ts';
import {
  createTournamentCommand,
  enterTournamentCommand,
  playTournamentCommand,
  tournamentDetailsCommand,
  type PoolKind,
} from './command-casino-tournaments.ts';
import type { AmountKind } from './model-casino-bets.ts';
import type { BetRef } from './model-casino-fairness.ts';
import type { ModelGameChoice } from './model-casino-games.ts';
import type { CommandSpec } from '../model-command.ts';

const HOUR_MS = 3_600_000;

/** a0 and a1 act most (they are registered first, and often funded); a2, a3 now and then. */
const slot = fc.constantFrom(0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3);

/** Mostly amounts that settle; the refusals (below the minimum, above Kelly, the balance, the maximum) less often. */
const amount: fc.Arbitrary<AmountKind> = fc.constantFrom<AmountKind>(
  'min',
  'small',
  'small',
  'half-kelly',
  'half-kelly',
  'kelly',
  'kelly',
  'kelly+1',
  'below-min',
  'balance+1',
  'over-max',
);

export const VALID_CHOICES: readonly ModelGameChoice[] = [
  { game: 'coin_flip', side: 'heads' },
  { game: 'coin_flip', side: 'tails' },
  { game: 'dice', direction: 'over', threshold: 50 },
  { game: 'dice', direction: 'over', threshold: 90 },
  { game: 'dice', direction: 'under', threshold: 10 },
  { game: 'dice', direction: 'over', threshold: 98 },
  { game: 'dice', direction: 'over', threshold: 1 },
  { game: 'dice', direction: 'under', threshold: 99 },
  { game: 'roulette', betType: 'red', betValue: null },
  { game: 'roulette', betType: 'dozen_2', betValue: null },
  { game: 'roulette', betType: 'column_3', betValue: null },
  { game: 'roulette', betType: 'number', betValue: 17 },
  { game: 'roulette', betType: 'number', betValue: 0 },
  { game: 'keno', picks: [7] },
  { game: 'keno', picks: [5, 17, 33] },
  { game: 'keno', picks: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] },
  { game: 'plinko', rows: 8, risk: 'low' },
  { game: 'plinko', rows: 12, risk: 'medium' },
  { game: 'plinko', rows: 16, risk: 'high' },
];

export const INVALID_CHOICES: readonly ModelGameChoice[] = [
  { game: 'dice', direction: 'under', threshold: 1 },
  { game: 'dice', direction: 'over', threshold: 100 },
  { game: 'roulette', betType: 'number', betValue: null },
  { game: 'roulette', betType: 'red', betValue: 3 },
  { game: 'keno', picks: [4, 4] },
  { game: 'keno', picks: [] },
  { game: 'plinko', rows: 10, risk: 'low' },
];

const choice = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...VALID_CHOICES) },
  { weight: 1, arbitrary: fc.constantFrom(...INVALID_CHOICES) },
);
/** Style B has coinflip, dice and roulette; a roulette number needs a value there. */
const choiceB = fc.constantFrom(
  ...[...VALID_CHOICES, ...INVALID_CHOICES.slice(0, 2)].filter(
    (candidate) =>
      (candidate.game === 'coin_flip' || candidate.game === 'dice' || candidate.game === 'roulette') &&
      !(candidate.game === 'roulette' && candidate.betValue === null && candidate.betType === 'number'),
  ),
);

const batchElement: fc.Arbitrary<BatchElement> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('bet' as const), choice, amount }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('game' as const),
      game: fc.constantFrom<'craps' | 'video_poker'>('craps', 'video_poker'),
    }),
  },
);

const betRef: fc.Arbitrary<BetRef> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ own: fc.integer({ min: 0, max: 7 }) }) },
  { weight: 1, arbitrary: fc.constantFrom<BetRef>('other', 'unknown') },
);
const indexRef = fc.oneof(
  { weight: 9, arbitrary: fc.record({ index: fc.integer({ min: 0, max: 3 }) }) },
  { weight: 1, arbitrary: fc.constant('unknown' as const) },
);
const via = fc.constantFrom<ReferenceVia>('id', 'id', 'address', 'code');
const otherAgent = (actor: number): fc.Arbitrary<AgentRef> =>
  fc.record({
    slot: fc.constantFrom((actor + 1) % SLOT_COUNT, (actor + 1) % SLOT_COUNT, (actor + 2) % SLOT_COUNT, actor),
    via,
  });

/**
 * About the weight of the faucet and escrow rows together (32 against 34; MAX_COMMANDS grew to
 * match). Rotation is drawn often but applies only once the agent's seed has drawn something, so
 * a rotation nearly always has draws to replay.
 */
export const CASINO_SPECS: readonly { weight: number; arbitrary: fc.Arbitrary<CommandSpec> }[] = [
  { weight: 5, arbitrary: fc.record({ slot, choice, amount, ownSeed: fc.boolean() }).map(betACommand) },
  {
    weight: 1,
    arbitrary: fc
      .record({
        slot,
        choice: choiceB,
        amount,
        ownSeed: fc.constant(true),
        amountAs: fc.constantFrom<'number' | 'string'>('number', 'string'),
      })
      .map(betBCommand),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(slot, fc.array(batchElement, { minLength: 0, maxLength: 4 }))
      .map(([actor, elements]) => batchCommand(actor, elements)),
  },
  { weight: 5, arbitrary: slot.map(rotateCommand) },
  { weight: 1, arbitrary: slot.map(seedHashCommand) },
  {
    weight: 2,
    arbitrary: fc.record({ slot, ref: betRef, style: fc.constantFrom<'A' | 'B'>('A', 'A', 'B') }).map(verifyCommand),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(slot, fc.constantFrom(...RISK_FACTORS))
      .map(([actor, value]) => riskFactorCommand(actor, value)),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({
        slot,
        game: fc.constantFrom<'coin_flip' | 'dice'>('coin_flip', 'dice'),
        pool: fc.constantFrom<PoolKind>('min', 'one', 'one', 'five', 'below-min', 'balance+1'),
        entryFeeMicro: fc.constantFrom(0n, 500_000n, 2_000_000n),
        maxAgents: fc.constantFrom(2, 3, 4),
        startsInMs: fc.constantFrom(0, 0, 0, HOUR_MS),
        durationMs: fc.constantFrom(HOUR_MS, 24 * HOUR_MS, 24 * HOUR_MS),
      })
      .map(createTournamentCommand),
  },
  { weight: 3, arbitrary: fc.tuple(slot, indexRef).map(([actor, ref]) => enterTournamentCommand(actor, ref)) },
  {
    weight: 3,
    arbitrary: fc
      .record({
        player: fc.oneof(
          { weight: 5, arbitrary: fc.record({ entrant: fc.integer({ min: 0, max: 3 }) }) },
          { weight: 1, arbitrary: fc.record({ outsider: slot }) },
        ),
        ref: indexRef,
        amount,
        pick: fc.constantFrom<'first' | 'second'>('first', 'second'),
      })
      .map(playTournamentCommand),
  },
  { weight: 1, arbitrary: fc.tuple(slot, indexRef).map(([actor, ref]) => tournamentDetailsCommand(actor, ref)) },
  {
    weight: 1,
    arbitrary: slot
      .chain((actor) =>
        fc.record({
          slot: fc.constant(actor),
          challenged: otherAgent(actor),
          game: fc.constantFrom<'coin_flip' | 'dice' | 'roulette'>('coin_flip', 'coin_flip', 'dice', 'roulette'),
          stake: fc.constantFrom<StakeKind>('min', 'half', 'half', 'two', 'below-min', 'balance+1'),
          message: fc.constantFrom<string | null>(null, 'best of one?'),
        }),
      )
      .map(createChallengeCommand),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({
        action: fc.constantFrom<'accept' | 'decline'>('accept', 'accept', 'decline'),
        actor: fc.constantFrom<ChallengeActor>('challenged', 'challenged', 'challenged', 'challenger', 'outsider'),
        ref: indexRef,
      })
      .map(challengeActionCommand),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        slot,
        fc.constantFrom<WithdrawKind>('min', 'min', 'all', 'all+1', 'review', 'below-min', 'bad-address', 'ethereum'),
      )
      .map(([actor, kind]) => withdrawCommand(actor, kind)),
  },
  { weight: 1, arbitrary: slot.map(withdrawalsCommand) },
  { weight: 1, arbitrary: slot.map(casinoBalanceCommand) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(slot, fc.constantFrom(50_000_000n, 1_500_000_000n))
      .map(([actor, amountMicro]) => depositCommand(actor, amountMicro)),
  },
];
