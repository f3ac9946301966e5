// The URL run's flags read into one request and one load: section (what afp load URL and afp
// export k6 --url both run from): rates with their time units, thresholds keyed with filters that
// hold colons, every problem at once; a URL's credentials become a Basic header, never shown;
// a --body-file's bytes unchanged.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseArgs } from '../../src/cli/args.ts';
import { flagSpecOf } from '../../src/cli/args.ts';
import { definitionOf } from '../../src/cli/commands.ts';
import { isUrlRun, parseRate, parseUrlRun, thresholdsOf, urlCredentials } from '../../src/cli/url-flags.ts';

const parse = (argv: readonly string[]): ReturnType<typeof parseArgs> =>
  parseArgs(argv, flagSpecOf(definitionOf('load')));

describe('url flags', () => {
  test('rates: N/s, N/m, N/100ms and a bare N per second', () => {
    expect(parseRate('300/s')).toEqual({ rate: 300, timeUnitMs: 1_000 });
    expect(parseRate('30/m')).toEqual({ rate: 30, timeUnitMs: 60_000 });
    expect(parseRate('5/100ms')).toEqual({ rate: 5, timeUnitMs: 100 });
    expect(parseRate('7')).toEqual({ rate: 7, timeUnitMs: 1_000 });
    expect(parseRate('0/s')).toContain('--rate must be from 1');
    expect(parseRate('1000000000/s')).toBe('--rate must be from 1 to 1000000 per time unit, got 1000000000');
    expect(parseRate('5/100000000s')).toContain("--rate's time unit must be from");
    expect(parseRate('fast')).toContain('is not N/s');
  });

  test("thresholds: 'METRIC: EXPR', the key's {tag:value} filter may hold colons and spaces", () => {
    const errors: string[] = [];
    expect(
      thresholdsOf(
        ['http_req_duration: p(95)<200', 'http_req_duration:p(99)<500', 'http_reqs{endpoint:POST /api/v1/x}: count>10'],
        errors,
      ),
    ).toEqual({ http_req_duration: ['p(95)<200', 'p(99)<500'], 'http_reqs{endpoint:POST /api/v1/x}': ['count>10'] });
    expect(errors).toEqual([]);
  });

  test('a URL run: the request and the load: section; a closed loop keeps its VUs', async () => {
    const open = await parseUrlRun(
      parse([
        'http://127.0.0.1:1/a?b=1',
        '--rate',
        '50/s',
        '--max-vus',
        '20',
        '--duration',
        '3s',
        '--header',
        'X-A: 1',
        '--threshold',
        'http_req_failed: rate<0.01',
      ]),
    );
    expect(open.errors).toEqual([]);
    expect(open.run).toMatchObject({
      requests: [
        { url: 'http://127.0.0.1:1/a?b=1', method: 'GET', headers: { 'x-a': '1' }, name: 'GET /a', checks: [] },
      ],
      section: {
        executor: 'constant-arrival-rate',
        rate: 50,
        time_unit: 1_000,
        duration: 3_000,
        max_in_flight: 20,
        thresholds: { http_req_failed: ['rate<0.01'] },
      },
      vus: null,
      timeoutMs: 10_000,
    });
    const closed = await parseUrlRun(parse(['--url', 'https://example.test/', '--vus', '4']));
    expect(closed.run).toMatchObject({ section: { executor: 'constant-vus', vus: 4, duration: 30_000 }, vus: 4 });
  });

  test("a URL's credentials: a Basic authorization header (percent-decoded), the URL without them, the password shown as ***", async () => {
    const given = await parseUrlRun(parse(['http://us%40er:p%3Aw@127.0.0.1:1/x', '--rate', '5/s']));
    expect(given.run).toMatchObject({
      requests: [
        {
          url: 'http://127.0.0.1:1/x',
          headers: { authorization: `Basic ${Buffer.from('us@er:p:w').toString('base64')}` },
        },
      ],
      shownUrl: 'http://us%40er:***@127.0.0.1:1/x',
    });
    const own = await parseUrlRun(
      parse(['http://u:pw@127.0.0.1:1/', '--rate', '5/s', '--header', 'Authorization: Bearer t']),
    );
    expect(own.run?.requests[0]?.headers).toEqual({ authorization: 'Bearer t' });
    expect(urlCredentials('http://127.0.0.1:1/')).toEqual({
      url: 'http://127.0.0.1:1/',
      shownUrl: 'http://127.0.0.1:1/',
      authorization: null,
    });
    const two = await parseUrlRun(parse(['http://u:secret@a.test/', '--url', 'http://b.test/', '--rate', '5/s']));
    expect(two.errors.join('\n')).not.toContain('secret');
  });

  test('--body-file: the bytes as the file holds them, binary too', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'afp-url-flags-')), 'body.bin');
    const bytes = Buffer.from([0x00, 0x80, 0xff, 0xc3, 0x28]);
    writeFileSync(file, bytes);
    const read = await parseUrlRun(
      parse(['http://127.0.0.1:1/', '--rate', '5/s', '--method', 'POST', '--body-file', file]),
    );
    expect(Buffer.from(read.run?.requests[0]?.body ?? []).equals(bytes)).toBe(true);
  });

  test('every problem at once', async () => {
    const { run, errors } = await parseUrlRun(
      parse([
        'ftp://x',
        '--url',
        'http://y/',
        '--vus',
        '0',
        '--max-vus',
        '3',
        '--header',
        'Host: z',
        '--body',
        'a',
        '--body-file',
        'b',
        '--timeout',
        '1ms',
      ]),
    );
    expect(run).toBeNull();
    expect(errors).toEqual([
      "name one URL, got 2: 'ftp://x', 'http://y/'",
      "--header host: afp's client sets host itself",
      'give --body or --body-file, not both',
      '--timeout must be from 100ms to 10m',
      "--vus must be a whole number from 1 to 100000, got '0'",
      '--max-vus goes with --rate (a closed loop of --vus N has N in flight)',
    ]);
  });

  test('a URL run is a positional http(s) URL or --url; a scenario file is not', () => {
    expect(isUrlRun(['http://127.0.0.1:1/', '--rate', '1'])).toBe(true);
    expect(isUrlRun(['--url', 'http://127.0.0.1:1/'])).toBe(true);
    expect(isUrlRun(['scenarios/load-smoke.yaml', '--target', 'http://127.0.0.1:1'])).toBe(false);
  });
});
