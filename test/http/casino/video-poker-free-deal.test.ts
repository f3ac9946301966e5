// Video poker as casino.md writes it (§71, §101): the deal is free ("5 cards and nonce returned; no
// bet") and the draw's amount places the bet. A client written from the documents deals with `{}`:
// it used to get 400 "amount is required", afp having made the deal commit the stake (its agents
// still do: docs/decisions/casino.md). Here: a free deal moves no money; a draw without an amount
// is refused and changes nothing; a draw with one is the bet, checked as any bet; a free hand dealt
// over is dropped (no bet); a committed deal keeps its rule; money stays conserved.
import { describe, expect, test } from 'vitest';
import { usdc } from '../../../src/core/money.ts';
import { casinoWorld } from './casino-world.ts';

describe('video poker: a free deal, the bet at the draw', () => {
  test('deal {} moves nothing; the draw needs the amount and places the bet', () => {
    const world = casinoWorld();
    const before = world.balance('alice');
    const dealt = world.a('POST', '/games/video-poker/deal', { body: {} });
    expect(dealt.status).toBe(200);
    const deal = dealt.body as { nonce: number; cards: string[]; amount: unknown };
    expect(deal.cards).toHaveLength(5);
    expect(deal.amount).toBeNull();
    expect(world.balance('alice')).toBe(before);
    const unpriced = world.a('POST', '/games/video-poker/draw', { body: { nonce: deal.nonce, holds: [] } });
    expect(unpriced.status).toBe(400);
    expect(JSON.stringify(unpriced.body)).toContain('the deal was free, and the draw places the bet');
    expect(world.balance('alice')).toBe(before);
    const tooBig = world.a('POST', '/games/video-poker/draw', {
      body: { nonce: deal.nonce, holds: [], amount: 5_000 },
    });
    expect(tooBig.status).toBe(400);
    expect(world.balance('alice')).toBe(before);
    const drawn = world.a('POST', '/games/video-poker/draw', { body: { nonce: deal.nonce, holds: [], amount: 2 } });
    expect(drawn.status, JSON.stringify(drawn.body)).toBe(200);
    const bet = drawn.body as { amount_bet: number; amount_won: number; game: string };
    expect(bet).toMatchObject({ game: 'video_poker', amount_bet: 2 });
    expect(world.balance('alice')).toBe(before - usdc(2) + BigInt(Math.round(bet.amount_won * 1e6)));
    expect(world.platform.ledger.auditSum()).toBe(0n);
  });

  test('a free hand dealt over is dropped (no bet); a committed deal still holds its stake until the draw', () => {
    const world = casinoWorld();
    const before = world.balance('alice');
    const first = world.a('POST', '/games/video-poker/deal', { body: {} }).body as { nonce: number };
    const second = world.a('POST', '/games/video-poker/deal', { body: {} });
    expect(second.status).toBe(200);
    expect((second.body as { auto_drawn_previous_hand: unknown }).auto_drawn_previous_hand).toBeNull();
    expect(world.balance('alice')).toBe(before);
    expect(
      world.a('POST', '/games/video-poker/draw', { body: { nonce: first.nonce, holds: [], amount: 1 } }).status,
    ).toBe(404);
    const committed = world.a('POST', '/games/video-poker/deal', { body: { amount: 1 } });
    expect((committed.body as { amount: number }).amount).toBe(1);
    expect(world.balance('alice')).toBe(before - usdc(1));
  });
});
