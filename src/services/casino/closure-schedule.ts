/**
 * Game closures: windows of virtual time in which a game answers every bet 409 GAME_CLOSED (a
 * scenario's `casino.closures`, at absolute instants). The platform owns them, as it owns fault
 * windows, so the simulator, `afp serve --scenario` and a recovered `--data` log all close and
 * reopen games at the same instants: ClosureSchedule turns the windows into changes that
 * Platform.advanceTo applies through `casino.setGameClosed`, in time order with the timers (timers
 * due at an instant run first, then that instant's changes, before any request sees it).
 *
 * Overlapping windows of one game nest (the game stays closed until the last one ends).
 * Limits: at most CLOSURES_MAX windows (a scenario has at most as many), so 2 × that many changes.
 */
import { assert } from '../../core/assert.ts';
import type { GameId } from './games/game.ts';

/** A window in which `game` is closed: [fromMs, untilMs). */
export interface GameClosure {
  readonly game: GameId;
  readonly fromMs: number;
  readonly untilMs: number;
}

export const CLOSURES_MAX = 100;

interface ClosureChange {
  readonly atMs: number;
  readonly game: GameId;
  /** +1 when a window opens (the game closes), −1 when it ends. */
  readonly depth: 1 | -1;
}

export interface GameCloser {
  setGameClosed(game: GameId, closed: boolean): void;
}

export class ClosureSchedule {
  private readonly changes: readonly ClosureChange[];
  private readonly depthByGame = new Map<GameId, number>();
  private index = 0;

  constructor(closures: readonly GameClosure[]) {
    assert(closures.length <= CLOSURES_MAX, `at most ${CLOSURES_MAX} game closures`);
    const changes: ClosureChange[] = [];
    for (const closure of closures) {
      assert(
        Number.isSafeInteger(closure.fromMs) &&
          Number.isSafeInteger(closure.untilMs) &&
          closure.fromMs < closure.untilMs,
        'a closure is a non-empty span of instants',
      );
      changes.push({ atMs: closure.fromMs, game: closure.game, depth: 1 });
      changes.push({ atMs: closure.untilMs, game: closure.game, depth: -1 });
    }
    // A stable sort: changes at one instant keep file order; all of them apply before anyone looks.
    this.changes = changes.sort((a, b) => a.atMs - b.atMs);
  }

  /** The instant of the next change, if any. */
  nextMs(): number | undefined {
    return this.changes[this.index]?.atMs;
  }

  /** Applies every change due at or before `atMs`; returns how many applied. */
  applyDue(atMs: number, casino: GameCloser): number {
    const touched = new Set<GameId>();
    let applied = 0;
    for (
      let change = this.changes[this.index];
      change !== undefined && change.atMs <= atMs;
      change = this.changes[this.index]
    ) {
      this.depthByGame.set(change.game, (this.depthByGame.get(change.game) ?? 0) + change.depth);
      touched.add(change.game);
      this.index += 1;
      applied += 1;
    }
    for (const game of touched) casino.setGameClosed(game, (this.depthByGame.get(game) ?? 0) > 0);
    return applied;
  }
}
