/**
 * Whether each verified bet records the committed draw: its recorded draw field (the deployed
 * `roll`, FairnessScheme.drawFields) against the one its revealed seeds give, at the precision the
 * target writes it (one unit of the coarser figure's last place: a target that floors or shows
 * fewer places, or writes float noise past the draw's own places, is not called wrong).
 *
 * A target that plays a different but consistent rule moves every bet's draw off afp's replay (a
 * different roll function), or none (a moved threshold or payout changes outcomes, not rolls). A
 * bet whose recorded draw differs, in a game where MIN_AGREEING_DRAWS or more bets record the
 * recomputed draw exactly, fits no rule: its result is not the committed draw (the hashes verify,
 * the roll was replaced). That is the target contradicting itself: critical, with the bet, both
 * draws and the request that placed it (`fairness:<game>:draw`). A consistent rule difference
 * stays the rule finding it was (rule:<game>:scheme, rule:<game>:outcome).
 * A bet of several draws (a deployed parlay: FairnessScheme.legsOf) counts each leg as a draw of
 * its own under the bet's game (`fairness:parlay:draw`), its recorded `legs[i].roll` against the
 * committed roll of the leg's (client seed, nonce): the legs of a parlay agree with each other. A
 * leg whose seed is a guess it does not state (seedUnstated) counts only when it agrees.
 * Limits: examples ≤ MAX_EXAMPLES per game (the count covers the rest).
 */
import type { JsonValue } from '../../core/errors.ts';
import type { FairnessScheme, FieldDifference, SchemeBet, SchemeVerdict } from '../fairness/scheme.ts';
import type { FindingSink } from '../../live.ts';

/** Bets of a game recording the recomputed draw exactly, before another's differing draw is no rule but a replaced one. */
export const MIN_AGREEING_DRAWS = 5;
const MAX_EXAMPLES = 3;

/** A field difference of the scheme's (FieldDifference) whose two sides are both numbers. */
export type DrawDisagreement = FieldDifference & { readonly recorded: number; readonly recomputed: number };

/** One unit of a number's last written place (75 → 1, 35.44 → 0.01). */
function unitOf(value: number): number {
  const text = String(value);
  if (/e/i.test(text)) return 0;
  const places = text.split('.')[1]?.length ?? 0;
  return 10 ** -places;
}

/**
 * 'agrees' where every draw field the result records is the recomputed draw (to its precision),
 * the first disagreement otherwise; null where the scheme names no draw field for the game, the
 * outcome was not checked, or the result does not carry the field as a number.
 */
export function drawAgreement(
  scheme: FairnessScheme,
  bet: SchemeBet,
  verdict: SchemeVerdict,
): 'agrees' | DrawDisagreement | null {
  return drawAgreementOf(scheme, { game: bet.game, result: bet.result, path: '' }, verdict);
}

/** drawAgreement of one draw of a bet: the bet itself (path ''), or one of its legs (path `legs[1]`). */
function drawAgreementOf(
  scheme: FairnessScheme,
  draw: { readonly game: string; readonly result: JsonValue; readonly path: string },
  verdict: SchemeVerdict,
): 'agrees' | DrawDisagreement | null {
  const fields = scheme.drawFields?.(draw.game) ?? [];
  if (fields.length === 0 || verdict.outcome.status === 'not-checked') return null;
  const result = draw.result;
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return null;
  const differences = verdict.outcome.status === 'failed' ? (verdict.outcome.differences ?? []) : [];
  const prefix = draw.path === '' ? '' : `${draw.path}.`;
  for (const field of fields) {
    const recorded: JsonValue | undefined = result[field];
    if (typeof recorded !== 'number') return null;
    const difference = differences.find((candidate) => candidate.field === `${prefix}${field}`);
    if (difference === undefined) continue;
    const recomputed = difference.recomputed;
    if (typeof recomputed !== 'number') return null;
    // At the coarser of the two figures' written places: a roll written with float noise
    // (43.980000000000004, a 32-bit float's 60.09000015258789) is still the draw 43.98.
    const unit = Math.max(unitOf(recorded), unitOf(recomputed));
    if (Math.abs(recorded - recomputed) <= unit * (1 + 1e-9)) continue;
    return { field: `${prefix}${field}`, recorded, recomputed };
  }
  return 'agrees';
}

interface GameDraws {
  agreeing: number;
  readonly differing: { readonly text: string; readonly reproduce?: string; readonly endpoint?: string }[];
  differingCount: number;
}

/** Per game: bets recording the committed draw, and those recording another (with examples). */
export class DrawTally {
  private readonly games = new Map<string, GameDraws>();

  add(
    scheme: FairnessScheme,
    input: {
      readonly bet: SchemeBet;
      readonly verdict: SchemeVerdict;
      readonly seedHex: string;
      readonly request?: { readonly endpoint?: string; readonly reproduce?: string };
    },
  ): void {
    const { bet } = input;
    // A bet of several draws (a parlay's legs) counts each draw under the bet's game.
    const draws = scheme.legsOf?.(bet) ?? [
      { game: bet.game, result: bet.result, path: '', nonce: bet.nonce, clientSeed: bet.clientSeed },
    ];
    for (const draw of draws) {
      const agreement = drawAgreementOf(scheme, draw, input.verdict);
      // A leg drawn under a seed it does not state (a guess: deployed/parlay-legs.ts) agreeing
      // verifies it; differing proves nothing, so it is not counted against the game.
      if (draw.seedUnstated === true && agreement !== 'agrees') continue;
      this.addDraw(input, draw, agreement);
    }
  }

  private addDraw(
    input: {
      readonly bet: SchemeBet;
      readonly seedHex: string;
      readonly request?: { readonly endpoint?: string; readonly reproduce?: string };
    },
    draw: { readonly nonce: number; readonly clientSeed: string },
    agreement: 'agrees' | DrawDisagreement | null,
  ): void {
    const { bet } = input;
    if (agreement === null) return;
    let game = this.games.get(bet.game);
    if (game === undefined) {
      game = { agreeing: 0, differing: [], differingCount: 0 };
      this.games.set(bet.game, game);
    }
    if (agreement === 'agrees') {
      game.agreeing += 1;
      return;
    }
    game.differingCount += 1;
    if (game.differing.length < MAX_EXAMPLES)
      game.differing.push({
        text: `bet ${bet.betId}: recorded ${agreement.field} ${String(agreement.recorded)}, the committed draw ${String(agreement.recomputed)} (server seed ${input.seedHex}, client seed ${draw.clientSeed}, nonce ${String(draw.nonce)})`,
        ...(input.request?.endpoint === undefined ? {} : { endpoint: input.request.endpoint }),
        ...(input.request?.reproduce === undefined ? {} : { reproduce: input.request.reproduce }),
      });
  }

  /** The critical finding of each game where some bets record another draw while MIN_AGREEING_DRAWS or more record the committed one. */
  record(findings: FindingSink, schemeName: string): void {
    for (const [game, draws] of [...this.games].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const first = draws.differing[0];
      if (first === undefined || draws.agreeing < MIN_AGREEING_DRAWS) continue;
      findings.add(
        {
          id: `fairness:${game}:draw`,
          severity: 'critical',
          kind: 'fairness',
          title: `${game}: ${String(draws.differingCount)} bets record a draw other than the one their revealed seeds give, where ${String(draws.agreeing)} bets of the game record it exactly (the hashes verify: the result is not the committed draw)`,
          field: 'result',
          expected: `the ${schemeName} scheme's draw of (server seed, client seed, nonce), as the game's other bets record it`,
          seen: first.text,
          evidence: first.text,
          ...(draws.differing.length > 1 ? { examples: draws.differing.map((example) => example.text) } : {}),
          ...(first.endpoint === undefined ? {} : { endpoint: first.endpoint }),
          ...(first.reproduce === undefined ? {} : { reproduce: first.reproduce }),
        },
        draws.differingCount,
      );
    }
  }
}
