// The Kelly limit a target states when it refuses a bet above it (src/live/stated-kelly-limit.ts):
// the body's `max_bet` (a number, float noise included, or a decimal string, rounded down to the
// micro), else afp's words "exceeds the Kelly limit 0.05". Only from a Kelly refusal, and only a
// limit below the stake sent; zero is a limit.
import { describe, expect, it } from 'vitest';
import type { Refusal } from '../../src/live/operations.ts';
import { statedKellyLimitMicro } from '../../src/live/stated-kelly-limit.ts';

const refusal = (name: string, message: string, extra: Record<string, unknown> = {}): Refusal => ({
  status: 400,
  name,
  message,
  body: { error: name, message, ...extra } as Refusal['body'],
});

describe('statedKellyLimitMicro', () => {
  it('reads max_bet of a Kelly refusal, as written, rounded down to the micro', () => {
    expect(
      statedKellyLimitMicro(refusal('kelly_limit_exceeded', 'Bet exceeds Kelly limit', { max_bet: 0.05 }), 60_000n),
    ).toBe(50_000n);
    expect(
      statedKellyLimitMicro(refusal('kelly_limit_exceeded', 'Over the limit', { max_bet: '0.0488989' }), 60_000n),
    ).toBe(48_898n);
    expect(statedKellyLimitMicro(refusal('kelly_limit_exceeded', 'x', { max_bet: 0.04889899999999999 }), 60_000n)).toBe(
      48_898n,
    );
    expect(statedKellyLimitMicro(refusal('kelly_limit_exceeded', 'x', { max_bet: 0 }), 10_000n)).toBe(0n);
  });

  it('reads afp’s words where the body has no max_bet', () => {
    expect(
      statedKellyLimitMicro(
        refusal('BAD_REQUEST', 'amount exceeds the Kelly limit 0.048898 for this bankroll'),
        50_000n,
      ),
    ).toBe(48_898n);
  });

  it('teaches nothing from another refusal, a limit not below the stake, or none stated', () => {
    expect(
      statedKellyLimitMicro(
        refusal('BAD_REQUEST', 'amount must be at most 100 for dice', { max_bet: 100 }),
        200_000_000n,
      ),
    ).toBeNull();
    expect(statedKellyLimitMicro(refusal('kelly_limit_exceeded', 'x', { max_bet: 0.05 }), 50_000n)).toBeNull();
    expect(statedKellyLimitMicro(refusal('kelly_limit_exceeded', 'Bet exceeds the Kelly limit'), 50_000n)).toBeNull();
    expect(statedKellyLimitMicro(refusal('kelly_limit_exceeded', 'x', { max_bet: -1 }), 50_000n)).toBeNull();
    expect(statedKellyLimitMicro(refusal('kelly_limit_exceeded', 'x', { max_bet: 'lots' }), 50_000n)).toBeNull();
  });
});

describe('statedKellyLimitMicro: a refusal named Kelly, in the target’s own words', () => {
  it('reads a field named as the limit, else the one number of its message', () => {
    const named = (message: string, extra: Record<string, unknown> = {}): Refusal =>
      refusal('kelly_limit_exceeded', message, extra);
    expect(statedKellyLimitMicro(named('Too much', { maximum_amount: '0.04' }), 60_000n)).toBe(40_000n);
    expect(statedKellyLimitMicro(named('Stake above 0.04 USDC refused'), 60_000n)).toBe(40_000n);
    expect(statedKellyLimitMicro(named('Stake refused: between 0.01 and 0.04 only'), 60_000n)).toBeNull();
    // DEPLOYED.md §2.4's refusal carries the bet response's kelly object: its max_bet_this_game, after the body's own fields.
    expect(
      statedKellyLimitMicro(
        named('Bet exceeds the Kelly criterion limit', { kelly: { bankroll: 2, max_bet_this_game: 0.02 } }),
        50_000n,
      ),
    ).toBe(20_000n);
    expect(statedKellyLimitMicro(named('x', { max_amount: 0.03, kelly: { max_bet_this_game: 0.02 } }), 50_000n)).toBe(
      30_000n,
    );
    expect(statedKellyLimitMicro(named('x', { kelly: { bankroll: 0.02 } }), 50_000n)).toBeNull();
    expect(
      statedKellyLimitMicro(refusal('BAD_REQUEST', 'Kelly', { kelly: { max_bet_this_game: 0.02 } }), 50_000n),
    ).toBeNull();
    // Only a refusal whose name says Kelly is read so: a message saying it keeps to max_bet and the words.
    expect(
      statedKellyLimitMicro(refusal('BAD_REQUEST', 'Kelly: stake above 0.04 refused', { maximum: 0.04 }), 60_000n),
    ).toBeNull();
  });
});
