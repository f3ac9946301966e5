// The deployed stand-in's video poker as DEPLOYED.md §2.5 writes it: the deal `{client_seed?}`
// places no bet (a balance of the minimum bet is needed) and the draw's amount is the bet. The
// stand-in used to commit the minimum at every deal, so a client written against the deployment
// that dealt and then drew 0.05 got 400 `amount_mismatch`. afp's committed form (a deal with an
// amount) keeps its rule.
import { describe, expect, test } from 'vitest';
import { usdc } from '../../../src/core/money.ts';
import { Dispatcher, type ApiResponse } from '../../../src/http/dispatcher.ts';
import { DEPLOYED_ROUTES } from '../../../src/http/routes/deployed/index.ts';
import { Platform } from '../../../src/platform/platform.ts';
import { addAgent } from '../../fixtures/agents.ts';

const START = Date.UTC(2026, 0, 1);

function deployedCasino(fundMicro: bigint) {
  const platform = new Platform({ seed: 'deployed-video-poker', startMs: START, defects: [] });
  const key = addAgent(
    platform,
    'alice',
    fundMicro === 0n ? { createdAtMs: START } : { fundMicro, createdAtMs: START },
  );
  const dispatcher = new Dispatcher(platform, DEPLOYED_ROUTES);
  let nowMs = START;
  const post = (path: string, body: unknown): ApiResponse =>
    dispatcher.handle(
      {
        mount: 'casino',
        method: 'POST',
        path: `/api/v1/games/video-poker/${path}`,
        query: {},
        headers: { authorization: `Bearer ${key}` },
        body,
        ip: '127.0.0.1',
      },
      (nowMs += 1_000),
    );
  return { platform, post, balance: () => platform.ledger.balance('agent:alice') };
}

describe('deployed stand-in: video poker deals free, the draw is the bet', () => {
  test('deal {client_seed} moves nothing; a draw at 0.05 is a bet of 0.05', () => {
    const casino = deployedCasino(usdc(10));
    const before = casino.balance();
    const deal = casino.post('deal', { client_seed: 'vp' });
    expect(deal.status, JSON.stringify(deal.body)).toBe(200);
    expect(casino.balance()).toBe(before);
    const nonce = (deal.body as { nonce: number }).nonce;
    const draw = casino.post('draw', {
      holds: [true, true, false, false, false],
      nonce,
      amount: 0.05,
      client_seed: 'vp',
    });
    expect(draw.status, JSON.stringify(draw.body)).toBe(200);
    const bet = draw.body as { amount_bet: number; payout_multiplier: number; game: string };
    expect(bet).toMatchObject({ game: 'video_poker', amount_bet: 0.05 });
    expect(casino.balance()).toBe(before - 50_000n + BigInt(Math.round(0.05 * bet.payout_multiplier * 1e6)));
    expect(casino.platform.ledger.auditSum()).toBe(0n);
  });

  test('a balance below the minimum bet is refused a deal, and nothing changes', () => {
    const casino = deployedCasino(0n);
    const refused = casino.post('deal', {});
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'insufficient_balance' });
    expect(casino.balance()).toBe(0n);
  });

  test('a deal with an amount still commits it, and a draw at another amount is refused', () => {
    const casino = deployedCasino(usdc(10));
    const deal = casino.post('deal', { amount: 0.1 });
    expect(casino.balance()).toBe(usdc(10) - 100_000n);
    const nonce = (deal.body as { nonce: number }).nonce;
    const other = casino.post('draw', { holds: [false, false, false, false, false], nonce, amount: 0.2 });
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({ error: 'amount_mismatch', committed_amount: 0.1 });
  });
});
