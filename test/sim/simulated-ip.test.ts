// simulatedIp: one address per agent in the documentation range 2001:db8::/32, the same text the
// template form gave (the join that builds it flat must not change a byte of any address).
import { describe, expect, test } from 'vitest';
import { simulatedIp } from '../../src/agent/simulated-ip.ts';

describe('simulatedIp', () => {
  test('below 2^16 one group, above it two; lower-case hexadecimal', () => {
    expect(simulatedIp(0)).toBe('2001:db8::0');
    expect(simulatedIp(0x1ce)).toBe('2001:db8::1ce');
    expect(simulatedIp(0xffff)).toBe('2001:db8::ffff');
    expect(simulatedIp(0x1_0000)).toBe('2001:db8::1:0');
    expect(simulatedIp(0xffff_ffff)).toBe('2001:db8::ffff:ffff');
  });

  test('equals the template form for a sweep of indexes, and no two agents share an address', () => {
    const seen = new Set<string>();
    for (let index = 0; index < 200_000; index += 7) {
      const high = Math.floor(index / 0x1_0000);
      const low = index % 0x1_0000;
      const expected =
        high === 0 ? `2001:db8::${low.toString(16)}` : `2001:db8::${high.toString(16)}:${low.toString(16)}`;
      expect(simulatedIp(index)).toBe(expected);
      seen.add(simulatedIp(index));
    }
    expect(seen.size).toBe(Math.ceil(200_000 / 7));
  });

  test('an index outside 0..2^32-1 is a bug', () => {
    expect(() => simulatedIp(-1)).toThrow();
    expect(() => simulatedIp(2 ** 32)).toThrow();
    expect(() => simulatedIp(1.5)).toThrow();
  });
});
