/**
 * ClosureSchedule: a scenario's casino closures (`casino.closures: [{ game, from, for }]`) as the
 * exact instants at which the simulator closes and reopens games through
 * `platform.casino.setGameClosed` — between them every bet on the game answers 409 GAME_CLOSED.
 *
 * Determinism: changes are applied by the simulator's clock loop (simulation.ts `advanceTo`) at
 * their instants, after the platform timers due then and before any agent event at that instant;
 * overlapping windows of one game nest (the game stays closed until the last one ends).
 * Non-goals: `afp serve --scenario` does not apply closures (the platform has no closure timer).
 * Limits: at most 2 × SCENARIO_LIMITS.closures changes (the scenario bounds the windows).
 */
import type { GameId } from '../services/casino/games/game.ts';
import type { ScenarioClosure } from './scenario.ts';

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

  constructor(closures: readonly ScenarioClosure[], startMs: number) {
    const changes: ClosureChange[] = [];
    for (const closure of closures) {
      changes.push({ atMs: startMs + closure.fromMs, game: closure.game, depth: 1 });
      changes.push({ atMs: startMs + closure.fromMs + closure.forMs, game: closure.game, depth: -1 });
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
    for (let change = this.changes[this.index]; change !== undefined && change.atMs <= atMs; change = this.changes[this.index]) {
      this.depthByGame.set(change.game, (this.depthByGame.get(change.game) ?? 0) + change.depth);
      touched.add(change.game);
      this.index += 1;
      applied += 1;
    }
    for (const game of touched) casino.setGameClosed(game, (this.depthByGame.get(game) ?? 0) > 0);
    return applied;
  }
}
