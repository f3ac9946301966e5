/**
 * The zod definitions of each casino game's own bet parameters (the fields `GameModule.parse`
 * reads: games/params.ts readers, same ranges), for the OpenAPI documents: the single-game rows,
 * batch elements, tournament play and the Kelly calculators all take them. A test requires the
 * fields here to be exactly each game's `paramFields`.
 * Non-goals: cross-field rules (a roulette `bet_value` only with `bet_type: number`; at most
 * 25 − mines reveals): descriptions say them, the row answers 400.
 */
import * as z from 'zod';
import { BACCARAT_SIDES } from '../services/casino/games/baccarat.ts';
import { BLACKJACK_ACTIONS } from '../services/casino/games/blackjack-rules.ts';
import { COIN_SIDES } from '../services/casino/games/coin-flip.ts';
import { CRASH_CASH_OUT_MAX_CENTS, CRASH_CASH_OUT_MIN_CENTS } from '../services/casino/games/crash.ts';
import { DICE_DIRECTIONS } from '../services/casino/games/dice.ts';
import type { GameId } from '../services/casino/games/game.ts';
import { HILO_GUESSES } from '../services/casino/games/hilo.ts';
import { KENO_NUMBERS, KENO_SPOTS_MAX } from '../services/casino/games/keno.ts';
import { MINES_CELLS, MINES_MAX } from '../services/casino/games/mines.ts';
import { PLINKO_RISKS, PLINKO_ROWS } from '../services/casino/games/plinko-tables.ts';
import { ROULETTE_BET_TYPES } from '../services/casino/games/roulette.ts';

/** games/params.ts `decimalParam`: a JSON number in [min, max] with at most `decimals` places. */
const decimal = (min: number, max: number, decimals: number): z.ZodNumber =>
  z.number().min(min).max(max).describe(`From ${min} to ${max}, at most ${decimals} decimals`);

/** `client_seed` (place-bet.ts isClientSeed): 1 to 64 printable ASCII characters, no ':'. */
export const clientSeed = (): z.ZodType =>
  z
    .string()
    .regex(/^[!-9;-~]{1,64}$/)
    .nullable()
    .optional()
    .describe("Your seed for this bet: 1 to 64 printable characters without ':' (default: one the casino draws)");

/** An array of distinct items (JSON Schema `uniqueItems`). */
const distinct = <T extends z.ZodArray>(schema: T): T =>
  schema.refine((items) => new Set(items).size === items.length).meta({ uniqueItems: true }) as unknown as T;

/** A card code of a dealt hand ("AS", "TH", "10h") or a position 0..4. */
const hold = z.union([z.string().regex(/^(?:10|[2-9TJQKAtjqka])[SHDCshdc]$/), z.int().min(0).max(4)]);

/** Each single-call game's own fields (video poker: the draw's). */
export const GAME_PARAMS: Readonly<Record<GameId, z.ZodRawShape>> = {
  coin_flip: { side: z.enum(COIN_SIDES) },
  dice: {
    direction: z.enum(DICE_DIRECTIONS),
    threshold: z.int().min(1).max(99).describe('Wins on a roll (0..99) over or under it'),
  },
  simple_dice: { pick: z.int().min(1).max(6) },
  multiplier: { target_multiplier: decimal(1.01, 1000, 2) },
  roulette: {
    bet_type: z.enum(ROULETTE_BET_TYPES),
    bet_value: z.int().min(0).max(36).optional().describe('The pocket, with bet_type number only'),
  },
  custom: { win_probability: z.int().min(1).max(99).describe('Percent') },
  blackjack: { action: z.enum(BLACKJACK_ACTIONS as [string, ...string[]]) },
  crash: { cash_out_at: decimal(CRASH_CASH_OUT_MIN_CENTS / 100, CRASH_CASH_OUT_MAX_CENTS / 100, 2) },
  plinko: { rows: z.union(PLINKO_ROWS.map((rows) => z.literal(rows))), risk: z.enum(PLINKO_RISKS) },
  slots: {},
  hilo: { guess: z.enum(HILO_GUESSES as [string, ...string[]]) },
  keno: {
    picks: distinct(z.array(z.int().min(1).max(KENO_NUMBERS)).min(1).max(KENO_SPOTS_MAX)).describe(
      `1 to ${KENO_SPOTS_MAX} distinct numbers from 1 to ${KENO_NUMBERS}`,
    ),
  },
  scratch_card: {},
  wheel: {},
  mines: {
    mines: z.int().min(1).max(MINES_MAX),
    reveals: z
      .int()
      .min(1)
      .max(MINES_CELLS - 1)
      .describe(`1 to ${MINES_CELLS} − mines`),
  },
  baccarat: { bet_on: z.enum(BACCARAT_SIDES as [string, ...string[]]) },
  video_poker: {
    holds: distinct(z.array(hold).max(5))
      .nullable()
      .optional()
      .describe('Up to 5 distinct card codes of the dealt hand or positions 0 to 4 (default: none held)'),
    nonce: z.int().min(0).max(Number.MAX_SAFE_INTEGER).describe('The nonce of the deal'),
  },
};
