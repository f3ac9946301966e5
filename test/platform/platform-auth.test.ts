// Platform.identify / authenticate: the Authorization-header memo answers exactly as hashing
// every request would, remembers only valid keys, and stays within its bound.
import { describe, expect, it } from 'vitest';
import { Platform } from '../../src/platform/platform.ts';

const START_MS = Date.parse('2025-01-01T00:00:00.000Z');

function platformWithAgents(count: number, authMemoMax?: number): { platform: Platform; keys: string[] } {
  const platform = new Platform({
    seed: 'auth',
    startMs: START_MS,
    ...(authMemoMax === undefined ? {} : { authMemoMax }),
  });
  const keys: string[] = [];
  for (let index = 0; index < count; index++) {
    const registered = platform.faucet.register({ style: 'A', agentId: `agent-${index}` }, START_MS);
    if (!registered.ok) throw new Error(registered.message);
    keys.push(registered.value.apiKey);
  }
  return { platform, keys };
}

describe('Platform auth memo', () => {
  it('answers absent, malformed and unknown keys without remembering them', () => {
    const { platform, keys } = platformWithAgents(1);
    const key = keys[0] as string;
    expect(platform.authenticate(undefined)).toBeNull();
    expect(platform.authenticate('')).toBeNull();
    for (const header of [key, `Basic ${key}`, 'Bearer sk_test_x', `Bearer ${key.slice(0, -1)}x`, 'Bearer ']) {
      expect(platform.authenticate(header)).toBe('invalid');
      expect(platform.identify(header)).toBe('invalid');
    }
    expect(platform.authMemoSize).toBe(0);
  });

  it('resolves a valid key to its agent, once hashed, the same on every call', () => {
    const { platform, keys } = platformWithAgents(2);
    const first = platform.identify(`Bearer ${keys[0] as string}`);
    expect(typeof first === 'object' && first !== null && first.agent.id).toBe('agent-0');
    expect(typeof first === 'object' && first !== null && first.limiterIdentity).toBe('agent:agent-0');
    expect(platform.identify(`Bearer ${keys[0] as string}`)).toBe(first);
    expect(platform.authenticate(`Bearer ${keys[1] as string}`)).toBe(platform.agents.get('agent-1'));
    // Surrounding spaces are trimmed, as before the memo: another header text, the same agent.
    expect(platform.authenticate(`Bearer  ${keys[1] as string} `)).toBe(platform.agents.get('agent-1'));
    expect(platform.authMemoSize).toBe(3);
  });

  it('stays within its bound and still answers every key correctly after dropping entries', () => {
    const { platform, keys } = platformWithAgents(10, 3);
    for (let pass = 0; pass < 3; pass++) {
      keys.forEach((key, index) => {
        expect(platform.authenticate(`Bearer ${key}`)).toBe(platform.agents.get(`agent-${index}`));
        expect(platform.authMemoSize).toBeLessThanOrEqual(3);
      });
    }
    expect(platform.authMemoSize).toBe(3);
  });
});
