/**
 * Video poker's two rows, style A: POST /games/video-poker/deal ({ amount?, client_seed? }: five
 * cards and the nonce; free as casino.md writes it, or with an amount committed, no bet yet) and
 * POST /games/video-poker/draw ({ nonce, holds, amount }: the bet, evaluated on the Jacks or Better
 * table; the amount is required after a free deal and must match a committed one). Why afp's
 * agents commit the amount at the deal: src/services/casino/video-poker-hands.ts.
 */
import { fail, isFailure, type Failure } from '../../../core/errors.ts';
import type { Micro } from '../../../core/money.ts';
import type { BetRecord } from '../../../services/casino/bet-record.ts';
import { videoPoker, type VideoPokerHolds } from '../../../services/casino/games/video-poker.ts';
import { dealHand, drawHand, type Dealt } from '../../../services/casino/video-poker-hands.ts';
import { moneyA } from '../../render.ts';
import { defineRoute, type Route } from '../../route.ts';
import { bodyOnly, requiredAmount } from '../../validate.ts';
import { clientSeedField } from './casino-bet-fields.ts';
import { casinoCaller } from './casino-games.ts';
import { betA } from './casino-render.ts';

const DEAL_KEYS = ['amount', 'client_seed'];
const DRAW_KEYS = ['nonce', 'holds', 'amount'];

const dealRow = defineRoute<{ amountMicro: Micro | null; clientSeed: string | null }, Dealt>({
  id: 'casino.A.video-poker.deal',
  service: 'casino',
  style: 'A',
  mount: 'casino',
  method: 'POST',
  path: '/api/v1/games/video-poker/deal',
  auth: 'bearer',
  summary:
    'Deal five cards ({ amount?, client_seed? }): free, the draw placing the bet; with an amount, it is committed for the draw (no bet yet).',
  parse: (input) => {
    const fields = bodyOnly(input, DEAL_KEYS);
    if (isFailure(fields)) return fields;
    const amountMicro = fields['amount'] === undefined ? null : requiredAmount(fields['amount'], 'amount', 'number');
    if (isFailure(amountMicro)) return amountMicro;
    const clientSeed = clientSeedField(fields);
    return isFailure(clientSeed) ? clientSeed : { amountMicro, clientSeed };
  },
  run: (context, command) =>
    dealHand(context.platform.casino.state, { agentId: casinoCaller(context), ...command }, context.nowMs),
  successStatus: 200,
  render: (dealt, context) => ({
    nonce: dealt.hand.nonce,
    cards: [...dealt.hand.cards],
    amount: dealt.amountMicro === null ? null : moneyA(dealt.amountMicro),
    server_seed_hash: dealt.hand.seedHash,
    client_seed: dealt.hand.clientSeed,
    pay_table: {
      royal_flush: 800,
      straight_flush: 50,
      four_of_a_kind: 25,
      full_house: 9,
      flush: 6,
      straight: 4,
      three_of_a_kind: 3,
      two_pair: 2,
      jacks_or_better: 1,
    },
    auto_drawn_previous_hand: dealt.autoDrawn === null ? null : betA(dealt.autoDrawn, context.platform.casino.state),
    balance: moneyA(context.platform.casino.balanceMicro(dealt.hand.agentId)),
  }),
});

const drawRow = defineRoute<{ nonce: number; holds: VideoPokerHolds; amountMicro: Micro | null }, BetRecord>({
  id: 'casino.A.video-poker.draw',
  service: 'casino',
  style: 'A',
  mount: 'casino',
  method: 'POST',
  path: '/api/v1/games/video-poker/draw',
  auth: 'bearer',
  summary: 'Draw ({ nonce, holds: cards or positions, amount? }): places the committed bet and evaluates the hand.',
  parse: (input): { nonce: number; holds: VideoPokerHolds; amountMicro: Micro | null } | Failure => {
    const fields = bodyOnly(input, DRAW_KEYS);
    if (isFailure(fields)) return fields;
    const parsed = videoPoker.parse({ holds: fields['holds'] ?? [], nonce: fields['nonce'] });
    if (!parsed.ok) return parsed;
    if (parsed.value.nonce === null) return fail('BAD_REQUEST', 'nonce is required: the nonce of the deal');
    const amountMicro = fields['amount'] === undefined ? null : requiredAmount(fields['amount'], 'amount', 'number');
    if (isFailure(amountMicro)) return amountMicro;
    return { nonce: parsed.value.nonce, holds: parsed.value.holds, amountMicro };
  },
  run: (context, command) =>
    drawHand(context.platform.casino.state, { agentId: casinoCaller(context), ...command }, context.nowMs),
  successStatus: 200,
  render: (bet, context) => betA(bet, context.platform.casino.state),
});

export const casinoVideoPokerRoutes: readonly Route[] = [dealRow, drawRow];
