// Terminal colour: only the leading verdict word of a line is coloured, only on a terminal, and
// NO_COLOR / TERM=dumb turn it off, FORCE_COLOR on (no-color.org).
import { describe, expect, it } from 'vitest';
import { colourOn, colouredWriter, paint } from '../../src/cli/colour.ts';

describe('colour', () => {
  it('colours the leading verdict words and nothing else', () => {
    expect(paint('verdict: FAILED — 1 of 4 findings')).toBe('\x1b[31mverdict: FAILED\x1b[0m — 1 of 4 findings');
    expect(paint('  pass http_req_failed: rate<0.01')).toBe('  \x1b[32mpass\x1b[0m http_req_failed: rate<0.01');
    expect(paint('  critical edge:wheel: x\n  minor y: z')).toBe(
      '  \x1b[31mcritical\x1b[0m edge:wheel: x\n  \x1b[33mminor\x1b[0m y: z',
    );
    expect(paint('seed: 42\n')).toBe('\x1b[1mseed:\x1b[0m 42\n');
    expect(paint('requests: 216 (21.6/s), failed 0')).toBe('requests: 216 (21.6/s), failed 0');
    expect(paint('passed 3')).toBe('passed 3');
  });

  it('is on for a terminal only, off with NO_COLOR or TERM=dumb, forced with FORCE_COLOR', () => {
    expect(colourOn(true, {})).toBe(true);
    expect(colourOn(false, {})).toBe(false);
    expect(colourOn(undefined, {})).toBe(false);
    expect(colourOn(true, { NO_COLOR: '1' })).toBe(false);
    expect(colourOn(true, { NO_COLOR: '' })).toBe(true);
    expect(colourOn(true, { TERM: 'dumb' })).toBe(false);
    expect(colourOn(false, { FORCE_COLOR: '1' })).toBe(true);
    expect(colourOn(false, { FORCE_COLOR: '0' })).toBe(false);
    expect(colourOn(true, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(false);
  });

  it('a writer passes text through untouched when colour is off', () => {
    const written: string[] = [];
    colouredWriter((text) => written.push(text), false)('verdict: FAILED — x\n');
    colouredWriter((text) => written.push(text), true)('ok: 3 runs held\n');
    expect(written).toEqual(['verdict: FAILED — x\n', '\x1b[32mok:\x1b[0m 3 runs held\n']);
  });
});
