// The URL run's flags read into one request and one load: section (what afp load URL and afp
// export k6 --url both run from): rates with their time units, thresholds keyed with filters that
// hold colons, every problem at once.
import { describe, expect, test } from 'vitest';
import { parseArgs } from '../../src/cli/args.ts';
import { flagSpecOf } from '../../src/cli/args.ts';
import { definitionOf } from '../../src/cli/commands.ts';
import { isUrlRun, parseRate, parseUrlRun, thresholdsOf } from '../../src/cli/url-flags.ts';

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
      request: { url: 'http://127.0.0.1:1/a?b=1', method: 'GET', headers: { 'x-a': '1' } },
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
