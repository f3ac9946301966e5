// A run that mostly measured refusals says so (issue 70 part 8): when more than half of the answers
// are 429 or 5xx the summary's first line is `mostly refused: …`, and a run without thresholds
// exits 5; thresholds, when given, judge alone. Other 4xx are not refusals. Both engines, against
// a node:http server on loopback that answers by a counter (3 of 4 requests refused, or 404s).
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { main as loadEnding } from '../../src/cli/load.ts';
import { systemLoadClock } from '../../src/load/options.ts';
import { mostlyRefused, refusedAnswers } from '../../src/load/refused-answers.ts';
import { coded } from './ending-code.ts';

const main = coded(loadEnding);

const DIR = mkdtempSync(join(tmpdir(), 'afp-refused-'));
const servers: Server[] = [];
let runs = 0;

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  }
  rmSync(DIR, { recursive: true, force: true });
});

/** A server whose n-th answer (from 0) has status `statusOf(n)`. */
async function serving(statusOf: (n: number) => number): Promise<string> {
  let n = 0;
  const server = createServer((_request, response) => {
    const status = statusOf(n++);
    response.writeHead(status, { 'content-type': 'application/json' }).end('{}');
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
}

async function load(argv: readonly string[]): Promise<{ code: number; out: string; summary: string[] }> {
  let out = '';
  const code = await main([...argv, '--quiet', '--out', join(DIR, `run-${(runs += 1)}`)], {
    out: (text) => void (out += text),
    err: () => undefined,
    errIsTty: false,
    clock: systemLoadClock(),
    onInterrupt: () => () => undefined,
  });
  const lines = out.split('\n');
  const first = lines.findIndex(
    (line) => line.startsWith('mostly refused') || line.startsWith('ended:') || line.startsWith('requests:'),
  );
  return { code, out, summary: lines.slice(first) };
}

describe('a run that mostly measured refusals', () => {
  test('the afp engine: 3 of 4 answers 429 or 503 → the summary says so first, exit 5 without thresholds', async () => {
    const url = await serving((n) => (n % 4 === 0 ? 200 : n % 2 === 1 ? 429 : 503));
    const ran = await load([url, '--rate', '40/s', '-i', '40']);
    expect(ran.summary[0]).toBe(
      'mostly refused: 30 of 40 answers (75.0%) were 429 or 5xx (20 × 429, 10 × 5xx): the rate and latency below are of the target refusing, not serving (a key of a higher tier, or a slower rate, measures it serving)',
    );
    expect(ran.out).toContain('FAILED: 30 of 40 answers were refused (429 or 5xx), more than half');
    expect(ran.code).toBe(5);
    // A threshold judges alone: one that accepts refusals passes the same run.
    const judged = await load([url, '--rate', '40/s', '-i', '40', '--threshold', 'http_req_failed: rate<1']);
    expect(judged.summary[0]).toMatch(/^mostly refused: 30 of 40 answers/);
    expect(judged.code).toBe(0);
  });

  test('--engine autocannon says the same first, and exits 5', async () => {
    const url = await serving(() => 429);
    const ran = await load([url, '--engine', 'autocannon', '--connections', '2', '--duration', '1s']);
    expect(ran.summary[0]).toMatch(/^mostly refused: (\d+) of \1 answers \(100\.0%\) were 429 or 5xx \(\1 × 429\)/);
    expect(ran.code).toBe(5);
  });

  test('404s are answers, not refusals: exit 0, no such line', async () => {
    const url = await serving(() => 404);
    const ran = await load([url, '--rate', '20/s', '-i', '10']);
    expect(ran.out).not.toContain('mostly refused');
    expect(ran.code).toBe(0);
  });

  test('half is not most; no answer is not a refusal', () => {
    const snapshot = (statuses: Record<string, number>) => ({ endpoints: [{ statuses }] }) as never;
    expect(mostlyRefused(refusedAnswers(snapshot({ 200: 5, 429: 5 })))).toBe(false);
    expect(mostlyRefused(refusedAnswers(snapshot({ 200: 4, 500: 3, 599: 3 })))).toBe(true);
    expect(refusedAnswers(snapshot({ 0: 100, 200: 3, 429: 2, 400: 9 }))).toStrictEqual({
      answers: 14,
      rateLimited: 2,
      serverErrors: 0,
    });
  });
});
