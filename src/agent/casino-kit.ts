/**
 * Shared moves of the casino archetypes (agents/casino/fixed-bettor.ts and the others): which game and
 * parameters an agent plays (validated by the game itself when the scenario loads), placing a
 * style-A bet and reading the answer into one of a few outcomes, and the casino agent's memory.
 *
 * Every move goes through `context.client.casino`. An answer outside the documented ones is a
 * broken rule the agent reports (context.report): a bet answered 200 without its fields, a
 * refusal with a status or code the casino never gives for it. Expected refusals are outcomes:
 * over the Kelly limit (400 with max_bet), GAME_CLOSED (409), INSUFFICIENT_BALANCE (422), a rate
 * limit (429) or a scheduled outage (5xx).
 * Money: bets are sent in style A (JSON numbers, exact through money.ts), answers read exactly.
 */
import { z } from 'zod';
import type { ApiResult } from '../client/client.ts';
import type { CasinoBody } from '../client/casino-client.ts';
import type { JsonObject } from '../core/errors.ts';
import type { Micro } from '../core/money.ts';
import { GAME_IDS, type GameId } from '../services/casino/games/game.ts';
import { findGame } from '../services/casino/games/index.ts';
import type { AgentContext } from './agent.ts';
import {
  expectedRefusal,
  freshFaucetMemory,
  moneyIn,
  moneyOut,
  reportUnexpected,
  RETRY_MS,
  type FaucetMemory,
} from './agent-kit.ts';

/** Games one call plays (video poker has two phases). */
export const SINGLE_CALL_GAMES = GAME_IDS.filter((game) => game !== 'video_poker') as readonly GameId[];

/** A game and its parameters as a scenario writes them: `{ game: dice, params: { direction: over, threshold: 50 } }`. */
export interface GameChoice {
  readonly game: GameId;
  readonly params: JsonObject;
}

const gameIdSchema = z.enum(SINGLE_CALL_GAMES as [GameId, ...GameId[]]);
const paramsSchema = z.record(z.string(), z.json());

/** The parameters of `choice.game`: only its own fields, refused with the game's own message when it rejects them. */
export function checkGameChoice(
  choice: { game: GameId; params: JsonObject },
  context: { addIssue(issue: { code: 'custom'; message: string; path: PropertyKey[] }): void },
  path: PropertyKey[] = ['params'],
): void {
  const game = findGame(choice.game);
  if (game === undefined) return;
  const unknown = Object.keys(choice.params).filter((key) => !game.paramFields.includes(key));
  if (unknown.length > 0) {
    context.addIssue({
      code: 'custom',
      message: `${choice.game}: unknown parameter ${unknown.sort().join(', ')} (it takes ${game.paramFields.join(', ') || 'none'})`,
      path,
    });
    return;
  }
  const parsed = game.parse(choice.params);
  if (!parsed.ok) context.addIssue({ code: 'custom', message: `${choice.game}: ${parsed.message}`, path });
}

/** An amount a population bets on `game` must lie within the game's minimum and maximum bet. */
export function checkAmount(
  gameId: GameId,
  amountMicro: Micro,
  context: { addIssue(issue: { code: 'custom'; message: string; path: PropertyKey[] }): void },
  path: PropertyKey[],
): void {
  const game = findGame(gameId);
  if (game === undefined || (amountMicro >= game.minBetMicro && amountMicro <= game.maxBetMicro)) return;
  context.addIssue({
    code: 'custom',
    message: `${gameId} takes bets of ${moneyOut('B', game.minBetMicro)} to ${moneyOut('B', game.maxBetMicro)}, not ${moneyOut('B', amountMicro)}`,
    path,
  });
}

/** zod: `{ game, params }` — one entry of a batch bettor's mix. */
export function gameChoice() {
  return z
    .strictObject({
      game: gameIdSchema.describe('game id (any single-call game)'),
      params: paramsSchema.prefault({}).describe("the game's parameters as its style-A body names them"),
    })
    .superRefine((choice, context) => checkGameChoice(choice as GameChoice, context));
}

/** Parameters a population gets when it names a game but no `params` (games with required fields). */
export const DEFAULT_GAME_PARAMS: Readonly<Partial<Record<GameId, JsonObject>>> = {
  coin_flip: { side: 'heads' },
  dice: { direction: 'over', threshold: 50 },
  multiplier: { target_multiplier: 2 },
  roulette: { bet_type: 'red' },
  custom: { win_probability: 50 },
  crash: { cash_out_at: 2 },
};

/**
 * zod fields `game` and `params` for an archetype that plays one game; `params` defaults to the
 * game's DEFAULT_GAME_PARAMS (none for games without required fields). Use with `withGameParams`.
 */
export const GAME_FIELDS = {
  game: gameIdSchema.prefault('coin_flip').describe('game id (any single-call game)'),
  params: paramsSchema
    .optional()
    .describe("the game's parameters as its style-A body names them (default: a common bet of the game)"),
} as const;

/**
 * Fills the default parameters in and checks them against the game (an object schema's
 * `.transform`); `amountKey` names the field holding the bet amount, checked against the game's
 * minimum and maximum.
 */
export function withGameParams(amountKey: string | null) {
  return <T extends { game: GameId; params?: JsonObject | undefined }>(
    value: T,
    context: z.RefinementCtx,
  ): T & GameChoice => {
    const choice = { ...value, params: value.params ?? DEFAULT_GAME_PARAMS[value.game] ?? {} };
    checkGameChoice(choice, context);
    const amount = amountKey === null ? undefined : (value as Record<string, unknown>)[amountKey];
    if (typeof amount === 'bigint' && amountKey !== null) checkAmount(value.game, amount, context, [amountKey]);
    return choice;
  };
}

export interface CasinoMemory extends FaucetMemory {
  bets: number;
  /** GAME_CLOSED answers seen. */
  closed: number;
  /** Consecutive INSUFFICIENT_BALANCE answers (an agent stops after BROKE_MAX). */
  broke: number;
}

export function freshCasinoMemory(): CasinoMemory {
  return { ...freshFaucetMemory(), bets: 0, closed: 0, broke: 0 };
}

/** A casino agent gives up after this many INSUFFICIENT_BALANCE answers in a row. */
export const BROKE_MAX = 24;

/** What a bet answer means to the agent. */
export type BetOutcome =
  | {
      readonly kind: 'placed';
      readonly betId: string;
      readonly won: boolean;
      readonly balanceMicro: Micro;
      readonly maxBetMicro: Micro | null;
      readonly suggestedMicro: Micro | null;
    }
  | { readonly kind: 'over-limit'; readonly maxBetMicro: Micro | null }
  | { readonly kind: 'closed' }
  | { readonly kind: 'broke' }
  | { readonly kind: 'not-answered' };

/** A style-A bet answer (single game, tournament play, batch element) as an outcome, or null when malformed. */
export function placedOutcome(body: CasinoBody): BetOutcome | null {
  const betId = body['bet_id'];
  const balanceMicro = moneyIn(body['new_balance']);
  if (typeof betId !== 'string' || balanceMicro === null || typeof body['won'] !== 'boolean') return null;
  const kelly = body['kelly'];
  const fields = typeof kelly === 'object' && kelly !== null ? (kelly as Record<string, unknown>) : {};
  return {
    kind: 'placed',
    betId,
    won: body['won'],
    balanceMicro,
    maxBetMicro: moneyIn(fields['max_bet_this_game']),
    suggestedMicro: moneyIn(fields['suggested_bet']),
  };
}

/** A refused bet (its error body's code and fields) as an outcome, or null when the casino never refuses a bet so. */
export function refusedOutcome(status: number, body: Record<string, unknown>): BetOutcome | null {
  const code = body['code'];
  if (status === 400 && code === 'BAD_REQUEST' && body['max_bet'] !== undefined)
    return { kind: 'over-limit', maxBetMicro: moneyIn(body['max_bet']) };
  if (status === 409 && code === 'GAME_CLOSED') return { kind: 'closed' };
  if (status === 422 && code === 'INSUFFICIENT_BALANCE') return { kind: 'broke' };
  return null;
}

/** Reads one bet answer; reports any answer a bet cannot get. */
export function judgeBet(context: AgentContext<unknown>, what: string, result: ApiResult<CasinoBody>): BetOutcome {
  if (result.ok) {
    const placed = placedOutcome(result.body);
    if (placed === null)
      reportUnexpected(context, `${what}: a bet answer without bet_id, won and new_balance`, result, 'a bet');
    return placed ?? { kind: 'not-answered' };
  }
  if (expectedRefusal(context, result, 'casino')) return { kind: 'not-answered' };
  const refused = refusedOutcome(result.status, result.body as Record<string, unknown>);
  if (refused === null)
    reportUnexpected(context, what, result, '200, 400 with max_bet, 409 GAME_CLOSED or 422 INSUFFICIENT_BALANCE');
  return refused ?? { kind: 'not-answered' };
}

/** One style-A bet of `amountMicro` on `choice`. */
export async function playA(
  context: AgentContext<unknown>,
  choice: GameChoice,
  amountMicro: Micro,
): Promise<BetOutcome> {
  const game = findGame(choice.game);
  const path = game?.path ?? choice.game;
  const result = await context.client.casino.play(path, { ...choice.params, amount: moneyOut('A', amountMicro) });
  return judgeBet(context, `a ${choice.game} bet of ${moneyOut('B', amountMicro)}`, result);
}

/** Counts the outcome in the agent's memory; true when the agent should stop (broke too long). */
export function tallyOutcome(memory: CasinoMemory, outcome: BetOutcome): boolean {
  if (outcome.kind === 'placed') {
    memory.bets += 1;
    memory.broke = 0;
  } else if (outcome.kind === 'closed') {
    memory.closed += 1;
  } else if (outcome.kind === 'broke') {
    memory.broke += 1;
  }
  return memory.broke >= BROKE_MAX;
}

/**
 * When an agent betting every `every` ms plays next after `outcome`: on schedule after a bet or a
 * Kelly refusal, after `closed_wait` when the game is closed, and no sooner than RETRY_MS when
 * broke or unanswered (the fixed bettor's and the fairness checker's rule).
 */
export function nextPlayAfter(
  outcome: BetOutcome,
  timing: { readonly every: number; readonly closed_wait: number },
): { wakeInMs: number } {
  switch (outcome.kind) {
    case 'placed':
    case 'over-limit':
      return { wakeInMs: timing.every };
    case 'closed':
      return { wakeInMs: timing.closed_wait };
    case 'broke':
    case 'not-answered':
      return { wakeInMs: Math.max(RETRY_MS, timing.every) };
  }
}

/** The agent's balance as GET /auth/balance says (null when not answered). */
export async function readBalance(context: AgentContext<unknown>): Promise<Micro | null> {
  const result = await context.client.casino.balance();
  if (!result.ok) {
    if (!expectedRefusal(context, result, 'casino')) reportUnexpected(context, 'GET /auth/balance', result, '200');
    return null;
  }
  const balance = moneyIn(result.body['balance']);
  if (balance === null) reportUnexpected(context, 'GET /auth/balance without a balance', result, 'a balance');
  return balance;
}
