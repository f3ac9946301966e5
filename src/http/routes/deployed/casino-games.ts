/**
 * The deployed casino's games (spec/DEPLOYED.md §2.1, §2.4, §2.5): the public game list (the 17 and
 * the parlay, whose row is casino-parlay.ts), one
 * `POST /api/v1/games/<path>` row per single-call game (afp's 16, their parameters as the
 * deployment names them: side, direction, threshold, target_multiplier, cash_out_at, bet_type,
 * bet_value, win_probability, pick, action, rows, risk, guess, picks, mines, reveals, bet_on), and
 * video poker's deal and draw. Each parses and checks as afp's style A row on the known keys
 * (deployed-row.ts); the deployment's engine plays it (DEPLOYED.md §2.3–§2.5, by the rules of
 * deployed-rules-of.ts: the published ones unless `afp serve --rules FILE` changed them).
 * Video poker as the deployment plays it: the deal `{client_seed?}` places no bet (a balance of the
 * minimum bet is needed) and the draw's amount is the bet. afp's committed form stays beside it: a
 * deal with an `amount` commits it until the draw, and a draw whose amount differs is refused
 * (`amount_mismatch`, with `committed_amount`). Holds may be the deployment's five booleans.
 */
import type { JsonObject, Outcome } from '../../../core/errors.ts';
import type { Micro } from '../../../core/money.ts';
import type { VideoPokerHolds } from '../../../services/casino/games/video-poker.ts';
import { dealHand, drawHand } from '../../../services/casino/video-poker-hands.ts';
import type { ParsedBet } from '../casino/casino-bet-fields.ts';
import { betCommand, casinoCaller } from '../casino/casino-games.ts';
import { deployedRulesOf, publishedRulesOf } from './deployed-rules-of.ts';
import type { DeployedCasinoRules } from '../../../services/casino/deployed/deployed-casino-rules.ts';
import type { BetRecord } from '../../../services/casino/bet-record.ts';
import type { GameModule } from '../../../services/casino/games/game.ts';
import { GAMES } from '../../../services/casino/games/index.ts';
import { formatDecimal } from '../../../core/money.ts';
import { PARLAY_LEG_GAMES, PARLAY_LEGS_MAX, PARLAY_LEGS_MIN } from '../../../services/casino/deployed/parlay-rule.ts';
import { PARLAY_MAX_MICRO } from '../../../services/casino/parlay-bet.ts';
import type { Dealt } from '../../../services/casino/video-poker-hands.ts';
import { renamed } from '../../deployed/deployed-errors.ts';
import { moneyA } from '../../render.ts';
import type { Route, RouteInput } from '../../route.ts';
import { betRefusal, cardObject, deployedBet } from './casino-bet-answer.ts';
import { adaptedRow } from './deployed-row.ts';

const BET_KEYS = ['amount', 'client_seed'];
/** Video poker's paytable rows, in order. */
const HAND_NAMES = [
  'royal_flush',
  'straight_flush',
  'four_of_a_kind',
  'full_house',
  'flush',
  'straight',
  'three_of_a_kind',
  'two_pair',
  'jacks_or_better',
];

type DealCommand = { readonly amountMicro: Micro | null; readonly clientSeed: string | null };
type DrawCommand = { readonly nonce: number; readonly holds: VideoPokerHolds; readonly amountMicro: Micro | null };

/** A game's entry: its `house_edge` and `payout` in the words the rules publish (DEPLOYED.md §2.1). */
function gameListEntry(game: GameModule, published: DeployedCasinoRules['published']): JsonObject {
  const endpoint = `POST /api/v1/games/${game.path}${game.id === 'video_poker' ? '/deal' : ''}`;
  const params: JsonObject = {};
  for (const field of game.paramFields) params[field] = 'required';
  params['amount'] = 'number';
  params['client_seed'] = 'string (optional)';
  const words = published[game.id];
  return {
    id: game.id,
    name: game.name,
    house_edge: words?.houseEdge ?? game.advertisedEdgeText,
    ...(words === undefined ? {} : { payout: words.payout }),
    endpoint,
    params,
  };
}

/**
 * The parlay's entry (DEPLOYED.md §2.13: the deployment lists `parlay` beside the 17, its only stated
 * limit the maximum of 10): its legs and its 10% share (the product of the legs' payouts × 0.90).
 */
const PARLAY_ENTRY: JsonObject = {
  id: 'parlay',
  name: 'Parlay',
  house_edge: '10% on top of the legs',
  payout: "the product of the legs' payouts × 0.90",
  endpoint: 'POST /api/v1/games/parlay',
  params: {
    amount: 'number (0.01-10)',
    bets: `array of ${PARLAY_LEGS_MIN}-${PARLAY_LEGS_MAX} { game, params } (${PARLAY_LEG_GAMES.join(', ')})`,
  },
  max_bet: Number(formatDecimal(PARLAY_MAX_MICRO)),
};

const games = adaptedRow('casino.A.games', {
  id: 'casino.deployed.games',
  summary: 'The games, their parameters and endpoints (public).',
  auth: 'none',
  bodyKeys: [],
  render: (_value, context) => ({
    games: [...GAMES.map((game) => gameListEntry(game, publishedRulesOf(context).published)), PARLAY_ENTRY],
    batch_endpoint: 'POST /api/v1/bets/batch',
    note: 'All bets enforce Kelly Criterion max sizing. Use GET /api/v1/kelly/limits to see your current limits.',
  }),
});

function gameRow(game: GameModule): Route {
  const row = adaptedRow(`casino.A.game.${game.id}`, {
    id: `casino.deployed.game.${game.id}`,
    summary: `Play ${game.name} (${[...game.paramFields, ...BET_KEYS].join(', ')}).`,
    bodyKeys: [...BET_KEYS, ...game.paramFields],
    refusal: betRefusal,
    render: (bet, context) => deployedBet(bet as BetRecord, context),
  });
  // afp's parse and checks; the deployment's engine plays the bet.
  return {
    ...row,
    run: (context, parsed) =>
      refusedAs(
        context.platform.casino.bet(
          { ...betCommand(context, parsed as ParsedBet, 'A'), deployedRules: deployedRulesOf(context) },
          context.nowMs,
        ),
      ),
  };
}

function refusedAs<T>(outcome: Outcome<T>): Outcome<T> {
  return outcome.ok ? outcome : betRefusal(outcome);
}

const deal = adaptedRow('casino.A.video-poker.deal', {
  id: 'casino.deployed.video-poker.deal',
  summary:
    'Deal five cards ({ client_seed?, amount? }): no bet, the draw places it; an amount is committed for the draw.',
  bodyKeys: BET_KEYS,
  refusal: betRefusal,
  render: (value) => {
    const dealt = value as Dealt;
    return {
      phase: 'deal',
      cards: dealt.hand.cards.map(cardObject),
      nonce: dealt.hand.nonce,
      message:
        dealt.amountMicro === null
          ? 'Cards dealt; the draw places the bet.'
          : `Cards dealt; your stake of ${moneyA(dealt.amountMicro)} is committed until the draw.`,
      instruction: 'POST /api/v1/games/video-poker/draw { holds: [5 booleans], nonce, amount }',
    };
  },
});

/** Five booleans (the deployment's holds) as afp's positions; anything else is passed on as is. */
function holdsAsPositions(input: RouteInput): RouteInput {
  const body = input.body as Record<string, unknown> | null | undefined;
  const holds = typeof body === 'object' && body !== null ? body['holds'] : undefined;
  if (!Array.isArray(holds) || holds.length !== 5 || !holds.every((hold) => typeof hold === 'boolean')) return input;
  const positions = holds.flatMap((hold, position) => (hold ? [position] : []));
  return { ...input, body: { ...body, holds: positions } };
}

const drawBase = adaptedRow('casino.A.video-poker.draw', {
  id: 'casino.deployed.video-poker.draw',
  summary: 'Draw ({ holds: 5 booleans, nonce, amount? }): the committed bet, evaluated on Jacks or Better.',
  bodyKeys: ['holds', 'nonce', 'amount'],
  refusal: (failure) =>
    failure.extra?.['committed_amount'] !== undefined
      ? renamed(failure, 'amount_mismatch', 400)
      : failure.code === 'NOT_FOUND'
        ? renamed(failure, 'hand_not_found', 400)
        : betRefusal(failure),
  render: (value, context) => {
    const bet = value as BetRecord;
    const answer = deployedBet(bet, context);
    // `result` is the deployed rule's ("Q♠" cards, five booleans); the deployment's top-level extras beside it.
    const detail = bet.detail as { initial_cards?: string[]; final_cards?: string[]; holds?: boolean[] };
    const paytable = deployedRulesOf(context).casino.video_poker.paytable;
    const row = bet.multiplier.num === 0n ? -1 : paytable.findIndex((payout) => payout === answer['payout_multiplier']);
    const pokerHand = HAND_NAMES[row] ?? 'nothing';
    return {
      ...answer,
      poker_hand: pokerHand,
      initial_cards: (detail.initial_cards ?? []).map(cardObject),
      final_cards: (detail.final_cards ?? []).map(cardObject),
      holds: detail.holds ?? [],
    };
  },
});

const dealRow: Route = {
  ...deal,
  run: (context, command) =>
    refusedAs(
      dealHand(
        context.platform.casino.state,
        { agentId: casinoCaller(context), ...(command as DealCommand), deployedRules: deployedRulesOf(context) },
        context.nowMs,
      ),
    ),
};
const drawRow: Route = {
  ...drawBase,
  parse: (input, context) => drawBase.parse(holdsAsPositions(input), context),
  run: (context, command) => {
    const outcome = drawHand(
      context.platform.casino.state,
      { agentId: casinoCaller(context), ...(command as DrawCommand), deployedRules: deployedRulesOf(context) },
      context.nowMs,
    );
    return outcome.ok
      ? outcome
      : outcome.extra?.['committed_amount'] !== undefined
        ? renamed(outcome, 'amount_mismatch', 400)
        : outcome.code === 'NOT_FOUND'
          ? renamed(outcome, 'hand_not_found', 400)
          : betRefusal(outcome);
  },
};

export const deployedGameRoutes: readonly Route[] = [
  games,
  ...GAMES.filter((game) => game.id !== 'video_poker').map(gameRow),
  dealRow,
  drawRow,
];
