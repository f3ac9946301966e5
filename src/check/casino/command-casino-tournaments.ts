/**
 * Tournament commands of `afp check`: create (prize pool from the creator's balance), enter,
 * play (a bet on the tournament's game that moves the entrant's score) and details with the live
 * leaderboard; the end and its 60/30/10 prizes happen on the clock (advance-time lands on
 * starts_at and ends_at). Tournaments are named by creation index, so drawn commands meet them.
 * Only with an exact clock: starts_at must be "now or later" on the target's clock.
 */
import { toNumber } from '../../core/money.ts';
import type { CheckModel } from '../check-model.ts';
import { eq } from '../expectation.ts';
import { expectBetAnswer } from './command-casino-bets.ts';
import { refusedAmountMicro, resolveAmount, type AmountKind } from './model-casino-bets.ts';
import { newClientSeed } from './model-casino.ts';
import { isoAt } from './model-casino-expect.ts';
import type { ModelGameChoice } from './model-casino-games.ts';
import {
  playRefusal,
  predictCreateTournament,
  predictDetails,
  predictEnter,
  resolveTournament,
  UNKNOWN_TOURNAMENT_ID,
  type TournamentRef,
} from './model-casino-tournaments.ts';
import { agentStyleACommand, expectAnswer, keyed, type CommandSpec } from '../model-command.ts';
import { SCOPES } from '../model-limits.ts';

const ready = (model: Readonly<CheckModel>, slot: number): boolean =>
  model.capabilities.casino &&
  model.capabilities.exactTime &&
  model.capabilities.tournaments !== false &&
  model.agents[slot] !== undefined;
const refText = (ref: TournamentRef): string => (ref === 'unknown' ? 'unknown tournament' : `tournament#${ref.index}`);

/** Pool kinds: the minimum 0.01, 1.00, 5.00, just below the minimum (400), one micro above the balance (422). */
export type PoolKind = 'min' | 'one' | 'five' | 'below-min' | 'balance+1';

export interface CreateTournamentInput {
  readonly slot: number;
  readonly game: 'coin_flip' | 'dice';
  readonly pool: PoolKind;
  readonly entryFeeMicro: bigint;
  readonly maxAgents: number;
  readonly startsInMs: number;
  readonly durationMs: number;
}

const POOLS_MICRO = { min: 10_000n, one: 1_000_000n, five: 5_000_000n } as const;

function poolMicro(model: Readonly<CheckModel>, slot: number, kind: PoolKind): bigint {
  return kind === 'below-min' || kind === 'balance+1' ? refusedAmountMicro(model, slot, kind) : POOLS_MICRO[kind];
}

export function createTournamentCommand(input: CreateTournamentInput): CommandSpec {
  const { slot } = input;
  const label = `createTournament(a${slot}, ${input.game}, pool ${input.pool}, fee ${toNumber(input.entryFeeMicro)}, max ${input.maxAgents}, starts +${input.startsInMs / 60_000} min, lasts ${input.durationMs / 60_000} min)`;
  return agentStyleACommand(
    slot,
    label,
    (model) => ready(model, slot),
    async (model, client) => {
      const startsAtMs = model.nowMs + input.startsInMs;
      const command = {
        creatorSlot: slot,
        name: `check cup ${model.casino.tournaments.length}`,
        game: input.game,
        entryFeeMicro: input.entryFeeMicro,
        poolMicro: poolMicro(model, slot, input.pool),
        maxAgents: input.maxAgents,
        startsAtMs,
        endsAtMs: startsAtMs + input.durationMs,
      };
      const prediction = predictCreateTournament(model, command);
      const body = {
        name: command.name,
        game: command.game,
        entry_fee: toNumber(command.entryFeeMicro),
        prize_pool: toNumber(command.poolMicro),
        max_agents: command.maxAgents,
        starts_at: isoAt(command.startsAtMs),
        ends_at: isoAt(command.endsAtMs),
      };
      return { prediction, answer: await client.casino.call('casino.A.tournaments.create', { body }) };
    },
  );
}

/** Tournament commands by reference: `unknown` always applies, an index once a tournament exists. */
const tournamentMet = (model: Readonly<CheckModel>, slot: number, ref: TournamentRef): boolean =>
  ready(model, slot) && (ref === 'unknown' || model.casino.tournaments.length > 0);

export function enterTournamentCommand(slot: number, ref: TournamentRef): CommandSpec {
  return agentStyleACommand(
    slot,
    `enterTournament(a${slot}, ${refText(ref)})`,
    (model) => tournamentMet(model, slot, ref),
    async (model, client) => {
      const tournament = resolveTournament(model, ref);
      const prediction = predictEnter(model, slot, tournament);
      return {
        prediction,
        answer: await client.casino.call('casino.A.tournaments.enter', {
          params: { id: tournament?.id ?? UNKNOWN_TOURNAMENT_ID },
        }),
      };
    },
  );
}

export function tournamentDetailsCommand(slot: number, ref: TournamentRef): CommandSpec {
  return agentStyleACommand(
    slot,
    `tournamentDetails(a${slot}, ${refText(ref)})`,
    (model) => tournamentMet(model, slot, ref),
    async (model, client) => {
      const tournament = resolveTournament(model, ref);
      const prediction = predictDetails(model, tournament);
      return {
        prediction,
        answer: await client.casino.call('casino.A.tournaments.get', {
          params: { id: tournament?.id ?? UNKNOWN_TOURNAMENT_ID },
        }),
      };
    },
  );
}

/** Who plays: the k-th entrant of the tournament (modulo their count), or an agent by slot (403 unless entered). */
export type Player = { readonly entrant: number } | { readonly outsider: number };

function playerSlot(model: Readonly<CheckModel>, player: Player, ref: TournamentRef): number | undefined {
  if ('outsider' in player) return player.outsider;
  const entrants = resolveTournament(model, ref)?.entrants ?? [];
  return entrants[player.entrant % Math.max(1, entrants.length)]?.slot;
}

export interface PlayInput {
  readonly player: Player;
  readonly ref: TournamentRef;
  readonly amount: AmountKind;
  /** heads/tails for a coin-flip tournament, over/under 50 for a dice one. */
  readonly pick: 'first' | 'second';
}

function playChoice(game: 'coin_flip' | 'dice', pick: 'first' | 'second'): ModelGameChoice {
  if (game === 'coin_flip') return { game, side: pick === 'first' ? 'heads' : 'tails' };
  return { game, direction: pick === 'first' ? 'over' : 'under', threshold: 50 };
}

export function playTournamentCommand(input: PlayInput): CommandSpec {
  const { player, ref } = input;
  const who = 'outsider' in player ? `a${player.outsider}` : `entrant#${player.entrant}`;
  const label = `playTournament(${who}, ${refText(ref)}, ${input.pick}, ${input.amount})`;
  const slotOf = (model: Readonly<CheckModel>): number => playerSlot(model, player, ref) ?? 0;
  return {
    label,
    applicable: (model) => {
      const slot = playerSlot(model, player, ref);
      return slot !== undefined && ready(model, slot) && (ref === 'unknown' || model.casino.tournaments.length > 0);
    },
    charges: (model) => [{ slot: slotOf(model), scopes: SCOPES.styleA }],
    parties: (model) => [slotOf(model)],
    execute: async (model, system) => {
      const slot = slotOf(model);
      const tournament = resolveTournament(model, ref);
      const choice = playChoice(tournament?.game ?? 'coin_flip', input.pick);
      const amountMicro = resolveAmount(model, slot, choice, input.amount);
      const clientSeed = newClientSeed(model, slot);
      const params =
        choice.game === 'coin_flip'
          ? { side: choice.side }
          : choice.game === 'dice'
            ? { direction: choice.direction, threshold: choice.threshold }
            : {};
      const body = { amount: toNumber(amountMicro), ...params, client_seed: clientSeed };
      const answer = await keyed(model, system, slot).casino.call('casino.A.tournaments.play', {
        params: { id: tournament?.id ?? UNKNOWN_TOURNAMENT_ID },
        body,
      });
      const refused = playRefusal(model, slot, tournament, amountMicro);
      if (refused !== null || tournament === undefined) {
        expectAnswer(label, model, answer, refused ?? { expected: { status: 404, code: 'NOT_FOUND' } });
        return;
      }
      expectBetAnswer(label, model, { slot, choice, amountMicro, clientSeed, style: 'A' }, answer, {
        body: { tournament_id: eq(tournament.id) },
        onSettled: (settled) => {
          const entrant = tournament.entrants.find((candidate) => candidate.slot === slot);
          if (entrant === undefined) return;
          entrant.plays += 1;
          entrant.wageredMicro += settled.amountMicro;
          entrant.returnedMicro += settled.payoutMicro;
          entrant.scoreMicro += settled.payoutMicro - settled.amountMicro;
        },
      });
    },
  };
}
