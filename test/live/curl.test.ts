// curlOf through a real POSIX shell: each line is run by `sh -c` with `curl` defined as a shell
// function that prints its arguments NUL-separated, so the test sees exactly the words curl would
// get — the URL and body bytes unchanged, the key only from $AFP_KEY, never in the line.
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { JsonValue } from '../../src/core/errors.ts';
import type { SentRequest } from '../../src/live/live-session.ts';
import { KEY_PLACEHOLDER } from '../../src/live/mcp-call.ts';
import { curlOf } from '../../src/live/curl.ts';

const KEY = 'sk_live_secret_key';

/** The words the shell hands to `curl` when it runs `line`. */
function curlArguments(line: string): string[] {
  const script = `curl() { for word in "$@"; do printf '%s\\0' "$word"; done; }\n${line}`;
  const output = execFileSync('sh', ['-c', script], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', AFP_KEY: KEY },
    encoding: 'utf8',
    timeout: 10_000,
  });
  return output.split('\0').slice(0, -1);
}

function expectedArguments(request: SentRequest, url = request.url): string[] {
  const words = ['-sS'];
  if (request.method !== 'GET' || request.body !== undefined) words.push('-X', request.method);
  words.push(url);
  if (request.body !== undefined) words.push('-H', 'Content-Type: application/json');
  if (request.auth) words.push('-H', `Authorization: Bearer ${KEY}`);
  if (request.body !== undefined) words.push('--data', JSON.stringify(request.body));
  return words;
}

describe('curlOf', () => {
  test('the documented shape: POST with a body and the key from $AFP_KEY', () => {
    const line = curlOf({
      method: 'POST',
      url: 'http://127.0.0.1:8080/api/v1/casino/bet',
      body: { game: 'dice', amount: 1 },
      auth: true,
    });
    expect(line).toBe(
      `curl -sS -X POST 'http://127.0.0.1:8080/api/v1/casino/bet' -H 'Content-Type: application/json' -H "Authorization: Bearer $AFP_KEY" --data '{"game":"dice","amount":1}'`,
    );
  });

  test('GET without a body has neither -X nor --data; without auth no Authorization', () => {
    expect(curlOf({ method: 'GET', url: 'http://127.0.0.1:8080/api/v1/casino/games', auth: false })).toBe(
      `curl -sS 'http://127.0.0.1:8080/api/v1/casino/games'`,
    );
    expect(curlOf({ method: 'GET', url: 'http://127.0.0.1:8080/b', auth: true })).toBe(
      `curl -sS 'http://127.0.0.1:8080/b' -H "Authorization: Bearer $AFP_KEY"`,
    );
  });

  test('single quotes, $, backticks, backslashes and newlines in URL and body reach curl unchanged', () => {
    const body: JsonValue = {
      note: "it's $HOME `id` \\ \"q\" '' \n end",
      list: ["'", '$(reboot)', '🎲'],
      nested: { "k'ey": -1.5 },
    };
    const request: SentRequest = {
      method: 'POST',
      url: "http://127.0.0.1:8080/api/it's/$HOME/`id`?q=a&b=c",
      body,
      auth: true,
    };
    const line = curlOf(request);
    expect(line.includes('\n')).toBe(false);
    expect(line.includes(KEY)).toBe(false);
    expect(curlArguments(line)).toEqual(expectedArguments(request, new URL(request.url).href));
    expect(new URL(request.url).href).toContain("it's");
  });

  test('the URL is the one fetch sends: tabs and newlines dropped, brackets not globbed by curl', () => {
    const line = curlOf({ method: 'GET', url: 'http://127.0.0.1:8080/a\n\tb?ids[]=1', auth: false });
    expect(line).toBe(`curl -sS -g 'http://127.0.0.1:8080/ab?ids[]=1'`);
    expect(curlArguments(line)).toEqual(['-sS', '-g', 'http://127.0.0.1:8080/ab?ids[]=1']);
  });

  test('a GET with a body keeps -X GET (curl would POST it)', () => {
    const request: SentRequest = { method: 'GET', url: 'http://127.0.0.1:8080/q', body: [1], auth: false };
    expect(curlArguments(curlOf(request))).toEqual(expectedArguments(request));
  });

  test('any JSON body and any path survive the shell round trip (fast-check, 60 runs, seed 7)', () => {
    const request = fc.record({
      method: fc.constantFrom('GET', 'POST', 'DELETE'),
      path: fc.string({ unit: 'grapheme', maxLength: 30 }),
      body: fc.option(fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<JsonValue>, { nil: undefined }),
      auth: fc.boolean(),
    });
    fc.assert(
      fc.property(request, ({ method, path, body, auth }) => {
        const sent: SentRequest =
          body === undefined
            ? { method, url: `http://127.0.0.1:8080/${path}`, auth }
            : { method, url: `http://127.0.0.1:8080/${path}`, body, auth };
        const line = curlOf(sent);
        expect(line.includes('\n') || line.includes('\r') || line.includes(KEY)).toBe(false);
        const words = expectedArguments(sent, new URL(sent.url).href);
        if (/[[\]{}]/.test(new URL(sent.url).href)) words.splice(1, 0, '-g');
        expect(curlArguments(line)).toEqual(words);
      }),
      { seed: 7, numRuns: 60 },
    );
  });

  test('an MCP tool call: the Accept header, and a key carried as an argument read from $AFP_KEY', () => {
    const body = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'release_escrow', arguments: { casino_api_key: KEY_PLACEHOLDER, escrow_id: "esc_'1" } },
    };
    const line = curlOf({
      method: 'POST',
      url: 'http://127.0.0.1:3007/mcp',
      body,
      auth: false,
      accept: 'application/json, text/event-stream',
      keyInBody: true,
    });
    expect(line).not.toContain(KEY);
    expect(line).not.toContain(KEY_PLACEHOLDER);
    const sent = JSON.parse(JSON.stringify(body).replace(KEY_PLACEHOLDER, KEY)) as JsonValue;
    expect(curlArguments(line)).toEqual([
      '-sS',
      '-X',
      'POST',
      'http://127.0.0.1:3007/mcp',
      '-H',
      'Content-Type: application/json',
      '-H',
      'Accept: application/json, text/event-stream',
      '--data',
      JSON.stringify(sent),
    ]);
  });
});
