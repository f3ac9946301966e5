// The ring as positions (src/agent/ring-index.ts) gives, at every position, the very slot the built
// ring (agent-ring.ts: interleave(agentSlots(…))) holds there: populations of unequal sizes, empty
// ones, one archetype in several populations (its indexes count across them).
import { describe, expect, test } from 'vitest';
import { AGENTS } from '../../agents/index.ts';
import { agentSlots, interleave } from '../../src/agent/agent-ring.ts';
import { RingIndex } from '../../src/agent/ring-index.ts';
import type { Population } from '../../src/scenario/scenario.ts';

function populations(counts: readonly [string, number][]): Population[] {
  return counts.map(
    ([agent, count]) => ({ agent, count, tier: 'free', style: 'B', params: {} }) as unknown as Population,
  );
}

describe('the ring as positions', () => {
  test.each([
    [
      [
        ['faucet-farmer', 2],
        ['escrow-buyer', 2],
        ['escrow-seller', 1],
      ],
    ],
    [
      [
        ['faucet-farmer', 500],
        ['escrow-seller', 200],
        ['escrow-buyer', 295],
        ['rate-limit-abuser', 1],
        ['bad-input-sender', 4],
      ],
    ],
    [
      [
        ['faucet-farmer', 3],
        ['escrow-buyer', 0],
        ['faucet-farmer', 7],
        ['escrow-seller', 3],
        ['escrow-buyer', 1],
      ],
    ],
    [[['escrow-seller', 1]]],
  ] as const)('%j: every position holds the built ring’s slot', (counts) => {
    const scenario = populations(counts as unknown as [string, number][]);
    const built = interleave(agentSlots(scenario, AGENTS));
    const index = new RingIndex(scenario, AGENTS);
    expect(index.size).toBe(built.length);
    for (let position = 0; position < built.length; position++)
      expect(index.slotAt(position)).toStrictEqual(built[position]);
    expect(() => index.slotAt(built.length)).toThrow(/a ring position/);
  });
});
