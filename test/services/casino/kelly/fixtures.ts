/**
 * GameModule fixtures for the Kelly tests: small, exact games whose Kelly numbers are easy to
 * compute by hand, so the tests do not depend on the real modules' payout tables. One helper
 * builds any game from an exact distribution; `lookupOf` stands in for the registry's gameById.
 */
import { succeed } from '../../../../src/core/errors.ts';
import { ONE, ZERO, ratio, ratioFromDecimal, sub, type Ratio } from '../../../../src/core/ratio.ts';
import type { Chance, GameId, GameModule } from '../../../../src/services/casino/games/game.ts';
import type { GameLookup } from '../../../../src/services/casino/kelly/kelly-fields.ts';

interface FixtureOptions {
  readonly id: GameId;
  readonly variant: string;
  readonly distribution: readonly Chance[];
  readonly paramFields?: readonly string[];
  readonly minBetMicro?: bigint;
  readonly maxBetMicro?: bigint;
}

export function fixtureGame(options: FixtureOptions): GameModule<Record<string, never>> {
  return {
    id: options.id,
    name: options.variant,
    path: options.id,
    advertisedEdgeText: 'fixture',
    advertisedEdge: () => null,
    minBetMicro: options.minBetMicro ?? 10_000n,
    maxBetMicro: options.maxBetMicro ?? 10_000_000_000n,
    paramFields: options.paramFields ?? [],
    parse: () => succeed({}),
    play: () => ({ multiplier: ZERO, detail: {} }),
    distribution: () => options.distribution,
    variants: () => [{ name: options.variant, params: {} }],
    variantName: () => options.variant,
  };
}

/** Win `payout` with probability p, else 0. */
export function binary(p: Ratio, payout: Ratio): readonly Chance[] {
  return [
    [p, payout],
    [sub(ONE, p), ZERO],
  ];
}

const HALF = ratio(1n, 2n);

/** 1.96x at 1/2: the coin flip of casino.md. */
export const coin196 = fixtureGame({
  id: 'coin_flip',
  variant: 'coin_flip:heads',
  distribution: binary(HALF, ratioFromDecimal('1.96')),
});
/** 9.8x at 1/10: dice over 90. */
export const dice98 = fixtureGame({
  id: 'dice',
  variant: 'dice:over:90',
  distribution: binary(ratio(1n, 10n), ratioFromDecimal('9.8')),
});
/** 2.2x at 1/2: a player-edge bet, the f* > 0 branch. */
export const playerEdge = fixtureGame({
  id: 'custom',
  variant: 'custom:player-edge',
  distribution: binary(HALF, ratioFromDecimal('2.2')),
});
/** casino.md's wheel: 0x 35%, 0.5x 25%, 1x 15%, 1.5x 10%, 2x 8%, 3x 4%, 5x 2%, 10x 1% (partial returns). */
export const wheel = fixtureGame({
  id: 'wheel',
  variant: 'wheel',
  distribution: [
    [ratio(35n, 100n), ZERO],
    [ratio(25n, 100n), ratioFromDecimal('0.5')],
    [ratio(15n, 100n), ONE],
    [ratio(10n, 100n), ratioFromDecimal('1.5')],
    [ratio(8n, 100n), ratio(2n)],
    [ratio(4n, 100n), ratio(3n)],
    [ratio(2n, 100n), ratio(5n)],
    [ratio(1n, 100n), ratio(10n)],
  ],
});
/** 1x at 98%, else 0: no outcome beats the stake (p = 0), like dice under 99. */
export const pushOrLose = fixtureGame({
  id: 'simple_dice',
  variant: 'simple_dice:push',
  distribution: binary(ratio(98n, 100n), ONE),
});
/** Always 0: every bet is lost. */
export const sureLoss = fixtureGame({ id: 'slots', variant: 'slots:lose', distribution: [[ONE, ZERO]] });
/** Always 1x: the bankroll never moves. */
export const surePush = fixtureGame({ id: 'scratch_card', variant: 'scratch_card:push', distribution: [[ONE, ONE]] });

export function lookupOf(games: readonly GameModule[]): GameLookup {
  return (id) => games.find((game) => game.id === id);
}
