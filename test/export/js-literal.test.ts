// Every text afp writes into a k6 script ends where JavaScript says it does: U+2028 and U+2029 end
// a line (and a `//` comment) as CR and LF do, and k6 refused them raw in a string literal, so a
// URL run exported with `--body '{"a":"<U+2028>x"}'` (or such a header, threshold tag or file name)
// was a script k6 could not parse ("Unterminated string literal", exit 255). Pure: the URL export
// writes to a string, no request is sent.
import { describe, expect, test } from 'vitest';
import { main as exportEnding } from '../../src/cli/export.ts';
import { jsComment, jsLiteral, jsonSource, jsString } from '../../src/export/k6/js-literal.ts';
import { coded } from '../cli/ending-code.ts';

const exportMain = coded(exportEnding);

const LS = '\u2028';
const PS = '\u2029';

describe('script text', () => {
  test('jsString and jsonSource escape the line terminators JSON leaves raw; the value reads back', () => {
    expect(jsString(`a${LS}b${PS}c`)).toBe('"a\\u2028b\\u2029c"');
    expect(JSON.parse(jsString(`a${LS}b\nc`))).toBe(`a${LS}b\nc`);
    expect(jsonSource({ [`k${LS}`]: [`v${PS}`] }, 2)).not.toMatch(/[\u2028\u2029]/);
    expect(jsLiteral({ [`k${LS}`]: `v${PS}` })).toBe('{\n  "k\\u2028": "v\\u2029",\n}');
  });

  test('jsComment turns every line terminator into a space', () => {
    expect(jsComment(`a\r\nb${LS}c${PS}d`)).toBe('a  b c d');
  });

  test('a URL run whose body, header and threshold tag hold U+2028/U+2029 exports with no raw line terminator but LF', async () => {
    let script = '';
    let err = '';
    const code = await exportMain(
      [
        'k6',
        'http://127.0.0.1:9/ok',
        '--method',
        'POST',
        '--body',
        `{"a":"${LS}x"}`,
        '--header',
        `X-A: a${PS}b`,
        '--threshold',
        `http_req_duration{endpoint:a${LS}b}: p(95)<500`,
        '--rate',
        '2/s',
        '--duration',
        '1s',
      ],
      { out: (text) => (script += text), err: (text) => (err += text) },
    );
    expect(code, err).toBe(0);
    expect(script).toContain('// Written by `afp export k6 http://127.0.0.1:9/ok');
    expect(script).not.toMatch(/[\r\u2028\u2029]/);
    expect(script).toContain('"{\\"a\\":\\"\\u2028x\\"}"');
  });
});
