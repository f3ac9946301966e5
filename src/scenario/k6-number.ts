/**
 * A threshold's number as k6 reads it: k6 (metrics/thresholds_parser.go) hands the text after
 * the operator, trimmed, to Go's strconv.ParseFloat, so a threshold pastes both ways between afp
 * and k6 only if afp takes the same texts. Go's float syntax: an optional sign; decimal digits
 * with an optional point anywhere (`500.`, `.01`) and an optional exponent (`1e3`, `1E+3`);
 * hexadecimal mantissas with a required `p` exponent (`0x1p3`); `_` only between digits (or
 * after a base prefix: `1_000`, `0x_1p0`); `inf`/`infinity` with an optional sign and `nan`
 * without one, in any case. A finite text beyond float64's range is refused (`1e400`: Go's
 * ErrRange), as k6 refuses it. Every form was checked against k6 1.3.0 (test/load/thresholds.test.ts).
 * Pure; null for a text k6 refuses. Bounded: texts longer than K6_NUMBER_LENGTH_MAX are refused.
 */

export const K6_NUMBER_LENGTH_MAX = 64;

const DECIMAL = /^[+-]?(?:\d[\d_]*(?:\.[\d_]*)?|\.[\d_]+)(?:[eE][+-]?[\d_]+)?$/;
const HEX = /^[+-]?0[xX](?:[\da-fA-F_]+(?:\.[\da-fA-F_]*)?|\.[\da-fA-F_]+)[pP][+-]?[\d_]+$/;
const SPECIAL = /^(?:[+-]?(?:inf|infinity)|nan)$/i;

export function k6Number(text: string): number | null {
  if (text.length === 0 || text.length > K6_NUMBER_LENGTH_MAX) return null;
  if (SPECIAL.test(text)) {
    const lower = text.toLowerCase();
    return lower === 'nan' ? Number.NaN : lower.startsWith('-') ? -Infinity : Infinity;
  }
  const hex = HEX.test(text);
  if ((!hex && !DECIMAL.test(text)) || !underscoresOk(text)) return null;
  const plain = text.replace(/_/g, '');
  const value = hex ? hexFloat(plain) : Number(plain);
  return Number.isFinite(value) ? value : null;
}

/** Go's underscoreOK: `_` only after a digit (or the base prefix) and before a digit. */
function underscoresOk(text: string): boolean {
  let body = /^[+-]/.test(text) ? text.slice(1) : text;
  const hex = /^0[xX]/.test(body);
  let saw: 'start' | 'digit' | 'underscore' | 'other' = 'start';
  if (hex) {
    body = body.slice(2);
    saw = 'digit';
  }
  for (const char of body) {
    const digit = hex ? /[\da-fA-F]/.test(char) : /\d/.test(char);
    if (digit) saw = 'digit';
    else if (char === '_') {
      if (saw !== 'digit') return false;
      saw = 'underscore';
    } else if (saw === 'underscore') return false;
    else saw = 'other';
  }
  return saw !== 'underscore';
}

/** `[+-]0xM[.F]p[+-]E` (underscores removed) as a number: the mantissa's hex digits times 2^E. */
function hexFloat(text: string): number {
  const match = /^([+-]?)0[xX]([\da-fA-F]*)(?:\.([\da-fA-F]*))?[pP]([+-]?\d+)$/.exec(text);
  if (match === null) return Number.NaN;
  const whole = match[2] ?? '';
  const fraction = match[3] ?? '';
  const digits = `${whole}${fraction}`;
  if (digits === '') return Number.NaN;
  const mantissa = Number.parseInt(digits, 16);
  const exponent = Number(match[4]) - 4 * fraction.length;
  // Past ±1100 a float64 is 0 or infinite whatever the mantissa (it holds at most 64 digits' bits).
  const value = Math.abs(exponent) > 1_100 ? (exponent > 0 ? Infinity : 0) : mantissa * 2 ** exponent;
  return match[1] === '-' ? -value : value;
}
