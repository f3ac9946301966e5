/**
 * Answers that contradict themselves (FairnessScheme.answerContradiction), judged per game against
 * the answers that do not. Why a tally and not a verdict per bet: afp reads a game's facts (cards,
 * cells, slots, hands) in the encodings it knows, and a deployment may write them in another (cards
 * as deck indexes, a plinko slot counted from the centre). Such an encoding makes nearly every
 * answer of the game read as contradicting itself, while a target that cheats on some bets leaves
 * the rest consistent under the very reading that catches it.
 *
 * So a game's contradictions are critical (`fairness:<game>:contradiction`) only where afp's reading
 * is shown to be the target's own, in either of two ways: at least MIN_CONSISTENT_ANSWERS of the
 * game's answers, and at least as many as contradict, read consistent; or at least
 * MIN_CONSISTENT_ANSWERS of them, and a quarter or more, are the committed draw to the field (the
 * scheme's replay of their seeds, so written in afp's encoding) — a target that lies on every lost
 * bet still shows its encoding in its wins. Otherwise they are a minor finding that says the answers
 * do not read under afp's encodings (a likely encoding difference, with the examples to look at),
 * never a verdict of cheating: a different encoding can coincide with afp's now and then (a plinko
 * slot counted from the centre equals afp's on one slot in nine), never on a quarter of the bets.
 * A game whose facts no encoding changes (FairnessScheme.encodingFreeGames: a roulette number's
 * colour) needs no such showing: each of its contradictions is critical, a colour swapped on every
 * answer too.
 * Limits: examples ≤ MAX_EXAMPLES per game (the count covers the rest).
 */
import type { FairnessScheme, SchemeBet } from '../fairness/scheme.ts';
import type { FindingSink } from '../../live.ts';

/** Consistent answers of a game before its contradicting ones are taken as lies under the target's own encoding. */
export const MIN_CONSISTENT_ANSWERS = 5;
const MAX_EXAMPLES = 3;

interface GameAnswers {
  consistent: number;
  contradicting: number;
  /** Answers that are the committed draw to the field (consistent or not). */
  exact: number;
  /** Whether the scheme reads this game's facts in no encoding of the target's (FairnessScheme.encodingFreeGames). */
  readonly encodingFree: boolean;
  /** The first contradicting bet, with the sink that adds its request's evidence. */
  first: { readonly sink: FindingSink; readonly bet: SchemeBet } | null;
  readonly examples: string[];
}

export class AnswerTally {
  private readonly games = new Map<string, GameAnswers>();

  /**
   * One bet: consistent, or contradicting itself (kept, with `sink` for its evidence); `exact` where
   * its result is the scheme's replay of its seeds to the field.
   */
  add(sink: FindingSink, scheme: FairnessScheme, bet: SchemeBet, variant: string, exact: boolean): void {
    if (scheme.answerContradiction === undefined) return;
    const contradiction = scheme.answerContradiction(bet);
    let game = this.games.get(bet.game);
    if (game === undefined) {
      game = {
        consistent: 0,
        contradicting: 0,
        exact: 0,
        encodingFree: scheme.encodingFreeGames?.has(bet.game) === true,
        first: null,
        examples: [],
      };
      this.games.set(bet.game, game);
    }
    if (exact) game.exact += 1;
    if (contradiction === null) {
      game.consistent += 1;
      return;
    }
    game.contradicting += 1;
    game.first ??= { sink, bet };
    if (game.examples.length < MAX_EXAMPLES) game.examples.push(`bet ${bet.betId} (${variant}): ${contradiction}`);
  }

  /** One finding per game with contradicting answers: critical where its other answers read consistent, minor otherwise. */
  record(): void {
    for (const [game, answers] of [...this.games].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const { first, examples } = answers;
      const evidence = examples[0];
      if (first === null || evidence === undefined) continue;
      const total = answers.contradicting + answers.consistent;
      const lies =
        answers.encodingFree ||
        (answers.consistent >= MIN_CONSISTENT_ANSWERS && answers.consistent >= answers.contradicting) ||
        (answers.exact >= MIN_CONSISTENT_ANSWERS && answers.exact * 4 >= total);
      const counted = `${String(answers.contradicting)} of ${String(total)} answers`;
      first.sink.add(
        {
          id: `fairness:${game}:contradiction`,
          severity: lies ? 'critical' : 'minor',
          kind: 'fairness',
          title: lies
            ? `${game}: the answer contradicts itself: the facts its result states do not give the outcome or payout it shows (${counted}; the game's other answers show afp reads its encoding)`
            : `${game}: ${counted} read as contradicting themselves under the encodings afp reads, too few of the others read consistent to call them lies: the target most likely writes the game's facts in an encoding afp does not read`,
          field: 'result',
          expected: 'an outcome and payout that follow from the cells, cards or counts the same answer states',
          seen: first.bet.result,
          evidence,
          ...(examples.length > 1 ? { examples } : {}),
        },
        answers.contradicting,
      );
    }
  }
}
