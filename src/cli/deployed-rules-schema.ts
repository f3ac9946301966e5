/**
 * The `afp serve --dialect deployed --rules FILE` file's shape as one zod schema: the single source
 * of the strict validation in deployed-rules-file.ts and of the editor JSON Schema in
 * schemas/deployed-rules.schema.json (scripts/gen-schema.ts), as target-schema.ts is for target files.
 *
 * The file holds overrides of the published rules (src/services/casino/deployed/deployed-casino-rules.ts):
 * every key is optional and names what it changes, in snake_case like scenario and target files
 * (`casino.coin_flip.payout`, `casino.wheel.compare`, `bets.minimum`, `display.amount_won_places`,
 * `money.float_noise`). Invariants: every object is strict (an unknown key is an error at its path);
 * every number and list is bounded (STYLE rule 7); a multiplier is a plain decimal from 0 to
 * MULTIPLIER_MAX, as the deployment writes it; tables keep the published shapes (a plinko half-table
 * of rows/2 + 1 values, 6 scratch-card triples, 9 video-poker rows, keno catches ≤ spots).
 */
import * as z from 'zod';
import { renderFileJsonSchema } from '../scenario/scenario-schema.ts';
import { GAME_IDS } from '../services/casino/games/game.ts';

export const RULES_LIMITS = {
  multiplierMax: 1_000_000,
  wheelSectorsMax: 20,
  placesMax: 6,
  minimumBetMax: 1_000,
} as const;

const isPlainDecimal = (value: number): boolean => /^\d+(\.\d+)?$/.test(String(value));

const multiplier = z
  .number({ error: 'expected a multiplier (a number such as 1.97)' })
  .min(0, 'a multiplier is at least 0')
  .max(RULES_LIMITS.multiplierMax, `a multiplier is at most ${RULES_LIMITS.multiplierMax}`)
  .refine((value) => value < 0 || isPlainDecimal(value), 'a multiplier is a plain decimal such as 1.97');

const factor = z
  .number({ error: 'expected an edge factor (a number such as 0.995)' })
  .gt(0, 'an edge factor is above 0')
  .max(2, 'an edge factor is at most 2')
  .refine((value) => value <= 0 || isPlainDecimal(value), 'an edge factor is a plain decimal such as 0.995');

const probability = z
  .number({ error: 'expected a probability from 0 to 1' })
  .min(0, 'a probability is at least 0')
  .max(1, 'a probability is at most 1');
const places = z
  .number({ error: 'expected a whole number of decimal places' })
  .int('decimal places are a whole number')
  .min(0)
  .max(RULES_LIMITS.placesMax, `at most ${RULES_LIMITS.placesMax} decimal places (afp keeps micro-USDC)`);

/** The `house_edge_pct` a game's answers state, in percent (a word: no bet pays by it). */
const statedEdgePct = z
  .number({ error: 'expected a percentage such as 4' })
  .min(-1_000, 'a stated edge is at least -1000%')
  .max(100, 'a stated edge is at most 100%')
  .optional()
  .describe("the house_edge_pct the game's answers state (absent: the figure derived from the rule)");

const edgeOnly = (what: string) =>
  z.strictObject({ edge_factor: factor.optional().describe(`the factor of ${what} (published 0.995)`) }).optional();

const plinkoRisk = z
  .strictObject({
    '8': z.array(multiplier).length(5, '8 rows: 5 values, slot 0 to the centre').optional(),
    '12': z.array(multiplier).length(7, '12 rows: 7 values, slot 0 to the centre').optional(),
    '16': z.array(multiplier).length(9, '16 rows: 9 values, slot 0 to the centre').optional(),
  })
  .optional();

const kenoSpots = z
  .record(z.string().regex(/^(?:10|[0-9])$/, 'catches are 0 to 10'), multiplier)
  .describe('catches → total return');

const kenoPaytable = z
  .strictObject(Object.fromEntries(Array.from({ length: 10 }, (_, index) => [String(index + 1), kenoSpots.optional()])))
  .superRefine((table, context) => {
    for (const [spots, row] of Object.entries(table)) {
      for (const catches of Object.keys(row ?? {})) {
        if (Number(catches) > Number(spots))
          context.addIssue({
            code: 'custom',
            path: [spots, catches],
            message: `${spots} spots catch at most ${spots}`,
          });
      }
    }
  });

const wheelSectors = z
  .array(z.tuple([multiplier, probability]), { error: 'sectors are [multiplier, probability] pairs' })
  .min(1, 'the wheel has at least one sector')
  .max(RULES_LIMITS.wheelSectorsMax, `the wheel has at most ${RULES_LIMITS.wheelSectorsMax} sectors`)
  .refine(
    (sectors) => sectors.reduce((sum, [, chance]) => sum + chance, 0) <= 1 + 1e-9,
    "the sectors' probabilities add up to at most 1 (the rest is BUST)",
  );

const SLOT_SYMBOLS = ['7', 'BAR', 'BELL', 'CHERRY', 'LEMON', 'ORANGE', 'GRAPE'] as const;

const casinoSchema = z
  .strictObject({
    coin_flip: z
      .strictObject({
        payout: multiplier.optional().describe("a win's total return (published 1.99)"),
        heads_below: z
          .number({ error: 'expected a roll from 0 to 100' })
          .min(0, 'heads_below is a roll from 0 to 100')
          .max(100, 'heads_below is a roll from 0 to 100')
          .optional()
          .describe('heads iff the roll is below this (published 50)'),
      })
      .optional(),
    dice: edgeOnly('round4((1/p) × edge_factor)'),
    multiplier: edgeOnly('the crash point round2(edge_factor / (1 − r/100))'),
    crash: edgeOnly('the crash point round2(edge_factor / (1 − r/100))'),
    custom: edgeOnly('round4((100/pct) × edge_factor)'),
    mines: z
      .strictObject({ edge_factor: factor.optional().describe('round4((1/P) × edge_factor) (published 0.975)') })
      .optional(),
    roulette: z
      .strictObject({
        number: multiplier.optional().describe('published 34.825'),
        even_money: multiplier.optional().describe('published 1.99'),
        dozen_column: multiplier.optional().describe('published 2.985'),
      })
      .optional(),
    simple_dice: z
      .strictObject({ payout: multiplier.optional().describe('published 5.5'), stated_edge_pct: statedEdgePct })
      .optional(),
    blackjack: z
      .strictObject({
        natural: multiplier.optional(),
        win: multiplier.optional(),
        double_win: multiplier.optional(),
        push: multiplier.optional(),
      })
      .optional()
      .describe('published natural 1.5, win 1, double_win 2, push 1'),
    baccarat: z
      .strictObject({ player: multiplier.optional(), banker: multiplier.optional(), tie: multiplier.optional() })
      .optional()
      .describe('published player 1.98, banker 1.9, tie 8'),
    plinko: z
      .strictObject({
        tables: z
          .strictObject({ low: plinkoRisk, medium: plinkoRisk, high: plinkoRisk })
          .optional()
          .describe('risk → rows → the half-table from slot 0 to the centre (mirrored)'),
      })
      .optional(),
    slots: z
      .strictObject({
        triples: z
          .strictObject(Object.fromEntries(SLOT_SYMBOLS.map((symbol) => [symbol, multiplier.optional()])))
          .optional(),
        bar_bar: multiplier.optional(),
        two_cherries: multiplier.optional(),
        cherry_first: multiplier.optional(),
      })
      .optional(),
    hilo: z
      .strictObject({
        edge_factor: factor.optional().describe('(1/wp) × edge_factor (published 0.96)'),
        payout_min: multiplier.optional(),
        payout_max: multiplier.optional(),
        stated_edge_pct: statedEdgePct,
      })
      .optional(),
    keno: z
      .strictObject({
        paytable: kenoPaytable.optional().describe('spots picked → catches → total return'),
        numbers: z
          .number({ error: 'expected how many numbers the board has' })
          .int('a whole number of numbers')
          .min(20, 'at least 20 numbers (20 are drawn)')
          .max(80, 'at most 80 numbers (picks are 1 to 80)')
          .optional()
          .describe('numbers are drawn from 1 to this (published 80)'),
        draw: z
          .enum(['deployed', 'uniform'])
          .optional()
          .describe(
            'deployed: (floor(roll × 10000) % 80) + 1, 5–8 numbers drawn (the deployment); uniform: 20 distinct numbers as a fair keno draws',
          ),
      })
      .optional(),
    scratch_card: z
      .strictObject({
        triples: z.array(multiplier).length(6, 'six triples, in symbol order').optional(),
        pair: multiplier.optional(),
      })
      .optional(),
    wheel: z
      .strictObject({
        sectors: wheelSectors.optional(),
        compare: z
          .enum(['percent', 'fraction'])
          .optional()
          .describe(
            'percent: r (0.00–99.99) against the cumulative probabilities (the deployment: almost always BUST); fraction: r/100 (as advertised)',
          ),
        stated_edge_pct: statedEdgePct,
      })
      .optional(),
    video_poker: z
      .strictObject({ paytable: z.array(multiplier).length(9, 'nine rows, royal flush to jacks or better').optional() })
      .optional(),
  })
  .describe('per game: overrides of the published payouts, tables and draw mappings');

/** A bet amount in USDC: above 0, at most 6 decimals, at most RULES_LIMITS.minimumBetMax. */
const betAmount = z
  .number({ error: 'expected an amount in USDC (a number such as 0.05)' })
  .gt(0, 'an amount is above 0')
  .max(RULES_LIMITS.minimumBetMax, `an amount is at most ${RULES_LIMITS.minimumBetMax}`)
  .refine((value) => value <= 0 || /^\d+(\.\d{1,6})?$/.test(String(value)), 'an amount has at most 6 decimals');

/** The longest game list text a rules file may give (the live audit reads at most this much prose). */
const PROSE_MAX = 400;

const prose = z
  .string({ error: 'expected the text the game list shows' })
  .min(1, 'an empty text: leave the key out to keep the published one')
  .max(PROSE_MAX, `at most ${PROSE_MAX} characters`);

const publishedSchema = z
  .strictObject(
    Object.fromEntries(
      GAME_IDS.map((game) => [
        game,
        z
          .strictObject({
            house_edge: prose.optional().describe('the house_edge text ("~4%", "Player 1.24% | Banker 1.06%")'),
            payout: prose.optional().describe('the payout text ("1.96x", "Variable (e.g. over 50 = 1.96x)")'),
          })
          .optional(),
      ]),
    ),
  )
  .describe(
    "per game: the words GET /api/v1/games publishes (the deployment's prose unless changed); words only, no game plays by them",
  );

export const deployedRulesFileSchema = z.strictObject({
  casino: casinoSchema.optional(),
  bets: z
    .strictObject({
      minimum: betAmount.optional().describe('the smallest bet of every game, in USDC (published 0.01)'),
    })
    .optional()
    .describe('the bet limits every game shares (published: minimum 0.01; no maximum but the Kelly limit)'),
  display: z
    .strictObject({
      amount_won_places: places.optional(),
      new_balance_places: places.optional(),
      multiplier_on_loss: z
        .boolean({ error: 'expected true or false' })
        .optional()
        .describe("a lost bet's payout_multiplier: the bet's multiplier as placed (published true), or 0 (false)"),
    })
    .optional()
    .describe(
      "the bet answer's display: decimal places of amount_won and new_balance (published 2), and a lost bet's payout_multiplier",
    ),
  money: z
    .strictObject({
      float_noise: z.boolean({ error: 'expected true or false' }).optional(),
      skim: z
        .number({ error: 'expected a share such as 0.01' })
        .min(0, 'a skim is at least 0')
        .max(0.5, 'a skim is at most 0.5')
        .refine((value) => value <= 0 || /^\d+(\.\d{1,6})?$/.test(String(value)), 'a skim has at most 6 decimals')
        .optional()
        .describe(
          "a defect: the share of each win's credit kept back while the answer shows the whole win (published 0)",
        ),
    })
    .optional()
    .describe(
      'float_noise: balances as JS doubles with rounding noise, as the deployment stores them; skim: a silent short credit',
    ),
  published: publishedSchema.optional(),
});

export type DeployedRulesFile = z.output<typeof deployedRulesFileSchema>;

export function renderDeployedRulesJsonSchema(): string {
  return renderFileJsonSchema(
    deployedRulesFileSchema,
    'afp deployed rules',
    "An afp serve --dialect deployed --rules file: overrides of the deployed casino's published rules (spec/DEPLOYED.md §2.5). Generated by scripts/gen-schema.ts; do not edit.",
  );
}
