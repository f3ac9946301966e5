/**
 * afp's own fairness scheme (docs/fairness.md) as a FairnessScheme: an adapter over the client-side
 * recomputation the audits already use (src/audit/fairness/verify-wire-bet.ts: the commitment, HMAC block 0,
 * the game replayed through afp's game modules and a DrawStream, the payout floor(amount ×
 * multiplier)) and over the game modules' exact distributions (the same laws the simulated
 * house-edge audit reports). A bet verifies here exactly when `verifyWireBet` finds no problem.
 *
 * The outcome check compares the whole recorded `result` with the replayed one (afp writes no
 * field it does not recompute) and the recorded `payout_multiplier` with the recomputed one at the
 * wire's six decimals. A payout the dialect shows rounded (paidPlaces) is checked within that
 * rounding against the unrounded credit (shown-payout.ts). Variants: the documents' (document-variants.ts). A crash-round bet of the
 * short style (its parameters name a `round_id`) replays as its round: the crash point of the
 * round's draw, and the cash-out it reached (verify-wire-bet.ts).
 * Parameters read back from a result (`paramsOf`, for a wire without them: afp serve --dialect
 * deployed): afp's results echo every parameter field of the game (`paramFields`), video poker's
 * holds as `held_positions`; they must parse as the game's parameters, else null.
 */
import { isDeepStrictEqual } from 'node:util';
import { createHash } from 'node:crypto';
import type { JsonObject, JsonValue } from '../../core/errors.ts';
import { applyToMicro } from '../../core/ratio.ts';
import { checkWireBet, CRASH_ROUND_VARIANT } from './verify-wire-bet.ts';
import { findGame } from '../../services/casino/games/index.ts';
import type { Chance } from '../../services/casino/games/game.ts';
import { fixedNumber } from '../../services/casino/kelly/kelly-numbers.ts';
import { documentVariants } from './document-variants.ts';
import { compareResult } from './field-differences.ts';
import { shownPayoutCheck } from './shown-payout.ts';
import { notChecked, OK, unreadableSeedVerdict } from './scheme-checks.ts';
import type { Check, FairnessScheme, FieldDifference, SchemeBet, SchemeVerdict } from './scheme.ts';

/** Every field where the recorded result differs from the replayed one, extra recorded fields included. */
function resultDifferences(recorded: JsonValue, replayed: JsonValue): FieldDifference[] {
  if (typeof replayed !== 'object' || replayed === null || Array.isArray(replayed))
    return [{ field: 'result', recorded, recomputed: replayed }];
  const comparison = compareResult(recorded, replayed);
  const differences = [
    ...comparison.differences,
    ...comparison.missing.map((field) => ({ field, recorded: null, recomputed: replayed[field] ?? null })),
  ];
  const fields = typeof recorded === 'object' && recorded !== null && !Array.isArray(recorded) ? recorded : {};
  for (const field of Object.keys(fields).sort())
    if (!(field in replayed)) differences.push({ field, recorded: fields[field] ?? null, recomputed: null });
  return differences.length > 0 ? differences : [{ field: 'result', recorded, recomputed: replayed }];
}

/** A short-style crash-round bet names its round in its parameters. */
function roundOf(bet: SchemeBet): string | null {
  const round = bet.params['round_id'];
  return bet.game === 'crash' && typeof round === 'string' ? round : null;
}

function verify(bet: SchemeBet, serverSeedHex: string): SchemeVerdict {
  const unreadable = unreadableSeedVerdict(serverSeedHex);
  if (unreadable !== null) return unreadable;
  const variant = roundOf(bet) === null ? null : CRASH_ROUND_VARIANT;
  const checks = checkWireBet(
    {
      game: bet.game,
      variant,
      params: bet.params,
      detail: bet.result,
      clientSeed: bet.clientSeed,
      nonce: bet.nonce,
      seedHash: bet.seedHash,
    },
    serverSeedHex,
  );
  const commitment: Check = checks.commitmentOk
    ? OK
    : { status: 'failed', detail: createHash('sha256').update(serverSeedHex).digest('hex') };
  const resultHash: Check =
    checks.expectedResultHash === bet.resultHash ? OK : { status: 'failed', detail: checks.expectedResultHash };
  const replayed = checks.replayed;
  if ('problem' in replayed)
    return {
      commitment,
      resultHash,
      outcome: notChecked(replayed.problem),
      payout: notChecked(replayed.problem),
      multiplier: null,
    };
  const { multiplier, detail } = replayed;
  // A crash round's replay compares its crash point itself and has no result of its own (null).
  const differences =
    detail === null || isDeepStrictEqual(detail, bet.result) ? [] : resultDifferences(bet.result, detail);
  const wireMultiplier = fixedNumber(multiplier);
  if (bet.multiplier !== null && bet.multiplier !== wireMultiplier)
    differences.push({ field: 'payout_multiplier', recorded: bet.multiplier, recomputed: wireMultiplier });
  const outcome =
    differences.length === 0
      ? OK
      : {
          status: 'failed' as const,
          detail: `${differences.length} field(s) differ from the replayed game`,
          differences,
        };
  const dueMicro = applyToMicro(bet.amountMicro, multiplier);
  const places = bet.paidPlaces ?? null;
  const payout =
    places !== null
      ? shownPayoutCheck(bet, multiplier, places)
      : bet.paidMicro === null
        ? notChecked('the answer does not say the amount paid')
        : bet.paidMicro === dueMicro
          ? { status: 'ok' as const, dueMicro }
          : {
              status: 'failed' as const,
              detail: `paid ${bet.paidMicro} micro, due ${dueMicro} (amount × recomputed multiplier, rounded down)`,
              dueMicro,
            };
  return { commitment, resultHash, outcome, payout, multiplier };
}

/** The module's law for a listed variant (by its wire form) or for parameters its parser accepts. */
function law(game: string, params: JsonObject): readonly Chance[] | null {
  const module = findGame(game);
  if (module === undefined) return null;
  const listed = documentVariants()
    .find((entry) => entry.game === game)
    ?.variants.find((variant) => isDeepStrictEqual(variant.params, params));
  const variant =
    listed === undefined ? undefined : module.variants().find((candidate) => candidate.name === listed.name);
  if (variant !== undefined) return module.distribution(variant.params);
  const parsed = module.parse(params);
  return parsed.ok ? module.distribution(parsed.value) : null;
}

/** Result fields that echo a parameter under another name. */
const ECHO_NAMES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  video_poker: { holds: 'held_positions' },
};

function paramsOf(game: string, result: JsonValue): JsonObject | null {
  const module = findGame(game);
  if (module === undefined || typeof result !== 'object' || result === null || Array.isArray(result)) return null;
  const params: JsonObject = {};
  for (const field of module.paramFields) {
    const value = result[ECHO_NAMES[game]?.[field] ?? field];
    if (value !== undefined && value !== null) params[field] = value;
  }
  return module.parse(params).ok ? params : null;
}

/** Result fields of afp's games that state a payout (hilo's `win_multiplier`), per game. */
const PAYOUT_FIELDS: Readonly<Record<string, readonly string[]>> = { hilo: ['win_multiplier'] };

export const AFP_SCHEME: FairnessScheme = {
  name: 'afp',
  games: documentVariants,
  verify,
  law,
  paramsOf,
  roundOf,
  payoutFields: (game) => PAYOUT_FIELDS[game] ?? [],
  // afp's platform is the documents': casino.md's figures are its own advertisement.
  documentsAdvertise: true,
};
