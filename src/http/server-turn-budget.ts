/**
 * TurnBudget: how much of one turn of the event loop the requests admitted in it may take (issue 71
 * part 1, "no pause over 50 ms"). Why: a turn serves every request whose bytes arrived together, up
 * to one per connection (50 under a 50-connection load), and while V8 marks a large old generation
 * each request's allocation may run a marking step that lasts tens of milliseconds on afp's state
 * (docs/bench-results.md, "why the marking blocks the loop"): a dozen of them in one turn held the
 * loop 365 ms, timers, the clock's pump and `/health` waiting behind. So once the turn's admitted
 * requests have taken `budgetMs`, the others wait for the next turn, in the order they came; each
 * turn still admits at least one, so every request is served, and none is dropped.
 * How: a request is admitted after a `setImmediate` (server.ts `admit`: the bytes read with the
 * headers are parsed by then). The first admitted in a turn's check phase starts the turn's clock
 * and queues the clock's reset as an immediate, which runs in the next turn before the requests
 * deferred after it; a request past the budget queues itself again behind it.
 * Measuring only: wall time, at the HTTP edge (named server-*, as the lint's doors for the edge's
 * wall time are), never the platform's clock. One budget per process: the event loop is the
 * process's, shared by every listener of afp serve.
 */

/** A turn's requests may take this long before the rest wait for the next turn (the loop delay's resolution). */
export const TURN_BUDGET_MS = 10;

export class TurnBudget {
  private readonly budgetMs: number;
  /** When the turn's first admitted request started (performance.now), or -1: none yet. */
  private startedMs = -1;
  private readonly reset = (): void => {
    this.startedMs = -1;
  };

  constructor(budgetMs: number) {
    this.budgetMs = budgetMs;
  }

  /** Resolves in the first turn, from the next on, whose admitted requests have not yet taken the budget. */
  enter(): Promise<void> {
    return new Promise<void>((resolve) => setImmediate(this.onTurn, resolve));
  }

  /** In a turn's check phase: admits (resolves) while the budget lasts, else waits for the next turn. */
  private readonly onTurn = (resolve: () => void): void => {
    const nowMs = performance.now();
    if (this.startedMs < 0) {
      this.startedMs = nowMs;
      setImmediate(this.reset);
      resolve();
    } else if (nowMs - this.startedMs < this.budgetMs) resolve();
    else setImmediate(this.onTurn, resolve);
  };
}

/** The process's budget (see the header: one event loop). */
export const TURNS = new TurnBudget(TURN_BUDGET_MS);
