/**
 * What a live house-edge audit plays: every variant the fairness scheme has a rule for, of the
 * games asked, each at its minimum bet (the one the scheme's targets publish for every game, else
 * the game's own in afp's modules), with the edge the documents advertise for it (casino.md,
 * through afp's game modules: parsed by the documents' own parser, so a parameter the documents
 * do not know leaves the variant without an advertised edge rather than guessing one).
 * Client seeds come from the printed seed, so the auditor's side of every draw is reproducible.
 */
import { createHash } from 'node:crypto';
import type { JsonObject } from '../../core/errors.ts';
import { ratioToNumber } from '../../core/ratio.ts';
import { findGame } from '../../services/casino/games/index.ts';
import type { FairnessScheme } from '../fairness/scheme.ts';
import type { GameModule } from '../../services/casino/games/game.ts';
import { lawEdge, type AdvertisedEdge } from './edge-verdict.ts';

const DEFAULT_MIN_BET_MICRO = 10_000n;

export interface PlannedVariant {
  readonly game: string;
  readonly variant: string;
  readonly params: JsonObject;
  readonly amountMicro: bigint;
  readonly advertised: AdvertisedEdge | null;
  /** The exact edge of the documents' own rule for this variant (afp's game modules), or null. */
  readonly documentsEdge: number | null;
}

/** The documents' game module and parameters of a variant: parsed, or (video poker's strategy, no wire form) the variant of that name. */
function documentsVariant(
  game: string,
  params: JsonObject,
  variantName?: string,
): { module: GameModule; params: unknown } | null {
  const module = findGame(game);
  if (module === undefined) return null;
  const parsed = module.parse(params);
  const moduleParams = parsed.ok
    ? parsed.value
    : module.variants().find((variant) => variant.name === variantName)?.params;
  return moduleParams === undefined ? null : { module, params: moduleParams };
}

export function advertisedEdgeOf(game: string, params: JsonObject, variantName?: string): AdvertisedEdge | null {
  const found = documentsVariant(game, params, variantName);
  const edge = found === null ? null : found.module.advertisedEdge(found.params);
  return found === null || edge === null ? null : { edge: ratioToNumber(edge), text: found.module.advertisedEdgeText };
}

/** The exact edge of the documents' own rule (their payout table), for telling a target's defect from the documents' contradiction. */
export function documentsEdgeOf(game: string, params: JsonObject, variantName?: string): number | null {
  const found = documentsVariant(game, params, variantName);
  return found === null ? null : lawEdge(found.module.distribution(found.params));
}

/** The variants of `games` (all the scheme knows when empty), in the scheme's order. */
export function planVariants(scheme: FairnessScheme, games: readonly string[]): PlannedVariant[] {
  return scheme
    .games()
    .filter((entry) => games.length === 0 || games.includes(entry.game))
    .flatMap((entry) =>
      entry.variants.map((variant) => ({
        game: entry.game,
        variant: variant.name,
        params: variant.params,
        amountMicro: scheme.publishedMinimumMicro ?? findGame(entry.game)?.minBetMicro ?? DEFAULT_MIN_BET_MICRO,
        advertised: advertisedEdgeOf(entry.game, variant.params, variant.name),
        documentsEdge: documentsEdgeOf(entry.game, variant.params, variant.name),
      })),
    );
}

export function clientSeedOf(seed: string, index: number): string {
  return `afp-${createHash('sha256').update(seed).digest('hex').slice(0, 12)}-${index}`;
}
