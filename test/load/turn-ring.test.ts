// The load pool's ring makes an agent's turn when the ring first reaches it, and only then
// (src/load/load-run-pool.ts TurnRing): a short window into million.yaml's 1,000,000 agents made
// every agent before the first request (17 CPU s); now it makes the ones its arrivals reach.
import { describe, expect, test } from 'vitest';
import type { AgentTurn } from '../../src/agent/agent-turn.ts';
import { TurnRing } from '../../src/load/load-run-pool.ts';

/** A ring of `length` whose turns are stand-ins, recording each position made. */
function countingRing(length: number): { ring: TurnRing; made: number[] } {
  const made: number[] = [];
  const ring = new TurnRing(length, (position) => {
    made.push(position);
    return { position } as unknown as AgentTurn;
  });
  return { ring, made };
}

describe('TurnRing', () => {
  test('makes a turn on its first use only, keeps it, and makes none it was not asked for', () => {
    const { ring, made } = countingRing(1_000_000);
    expect(ring.length).toBe(1_000_000);
    expect(made).toEqual([]);
    const first = ring.at(3);
    expect(ring.at(3)).toBe(first);
    ring.at(999_999);
    ring.at(0);
    expect(made).toEqual([3, 999_999, 0]);
  });

  test('a position outside the ring is a bug, not a new turn', () => {
    const { ring, made } = countingRing(2);
    expect(() => ring.at(2)).toThrow(/ring position 2 of 2/);
    expect(() => ring.at(-1)).toThrow(/ring position -1 of 2/);
    expect(made).toEqual([]);
  });
});
