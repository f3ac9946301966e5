// The originating IP: the first X-Forwarded-For entry (from trusted loopback peers), else the peer.
// firstForwarded's fast answer for a bare address (no comma, nothing trim would cut) must equal the general split-and-trim.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { firstForwarded, originatingIp } from '../../src/http/client-ip.ts';

/** The definition: the text before the first comma, trimmed; none when empty or over 64 characters. */
function reference(value: string): string | undefined {
  const first = (value.split(',')[0] ?? '').trim();
  return first === '' || first.length > 64 ? undefined : first;
}

describe('firstForwarded', () => {
  test('answers as the split-and-trim definition, bare addresses and lists alike', () => {
    const unit = fc.constantFrom(
      '1',
      '9',
      '.',
      ':',
      'a',
      'f',
      ',',
      ' ',
      '\t',
      '\n',
      '\u00a0',
      '\ufeff',
      '\u2028',
      '~',
      '\u007f',
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 80 }), (value) => {
        expect(firstForwarded(value)).toBe(reference(value));
      }),
      { seed: 11, numRuns: 5000 },
    );
  });

  test('examples: one address, a list, padding, empty, too long', () => {
    expect(firstForwarded('203.0.113.7')).toBe('203.0.113.7');
    expect(firstForwarded(' 203.0.113.7 , 10.0.0.1')).toBe('203.0.113.7');
    expect(firstForwarded('::1')).toBe('::1');
    expect(firstForwarded('')).toBeUndefined();
    expect(firstForwarded(' , 10.0.0.1')).toBeUndefined();
    expect(firstForwarded('1'.repeat(65))).toBeUndefined();
    expect(firstForwarded(undefined)).toBeUndefined();
  });

  test('the header counts only from a trusted loopback peer', () => {
    expect(originatingIp({ peer: '127.0.0.1', forwardedFor: '203.0.113.7', trustProxy: true })).toBe('203.0.113.7');
    expect(originatingIp({ peer: '::ffff:127.0.0.1', forwardedFor: undefined, trustProxy: true })).toBe('127.0.0.1');
    expect(originatingIp({ peer: '198.51.100.2', forwardedFor: '203.0.113.7', trustProxy: true })).toBe('198.51.100.2');
    expect(originatingIp({ peer: '127.0.0.1', forwardedFor: '203.0.113.7', trustProxy: false })).toBe('127.0.0.1');
  });
});
