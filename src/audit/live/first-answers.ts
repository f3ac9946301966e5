/**
 * The first call of each game goes out alone in the live house-edge audit: a call holding a game
 * whose first call is still in flight waits for its answer, so it goes out with what that answer
 * taught (the target's minimum bet: edge-audit.ts learnMinimum). Why: at 4 calls in flight, four
 * batches of 20 went out at the documents' 0.01 before the first refusal came back, 80 bets refused
 * at once (and each sent again alone) on a target whose minimum is 0.05.
 * A game is answered once its first call has ended, whatever the outcome (a lost answer does not
 * hold the rest back). Only the opening calls wait: an answered game never waits again.
 * No deadlock: a call owns the games it opens only after its waiting is over, and never waits once
 * it owns any, so every wait is on a call that is on its way to the target.
 * Limits: a call waits at most once per game it holds (each wait answers at least one of them).
 */
export class FirstAnswers {
  private readonly answered = new Set<string>();
  private readonly inFlight = new Map<string, Promise<void>>();

  /**
   * Waits until no game of `games` has a first call in flight, then makes this call the first of the
   * games still unanswered. Returns what to call when its answers are in (exactly once).
   */
  async open(games: readonly string[]): Promise<() => void> {
    const distinct = [...new Set(games)];
    for (let round = 0; round < distinct.length; round += 1) {
      const pending = distinct.flatMap((game) => {
        const first = this.answered.has(game) ? undefined : this.inFlight.get(game);
        return first === undefined ? [] : [first];
      });
      if (pending.length === 0) break;
      await Promise.all(pending);
    }
    const owned = distinct.filter((game) => !this.answered.has(game) && !this.inFlight.has(game));
    if (owned.length === 0) return () => undefined;
    let done = (): void => undefined;
    const answered = new Promise<void>((resolve) => (done = resolve));
    for (const game of owned) this.inFlight.set(game, answered);
    return () => {
      for (const game of owned) {
        this.answered.add(game);
        this.inFlight.delete(game);
      }
      done();
    };
  }
}
