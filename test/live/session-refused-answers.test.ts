// A live session meets answers afp refuses to read or follow (client/answer-limits.ts): a redirect
// to another origin is a finding naming the Location and an unanswered call, and the other origin
// hears nothing; JSON nested past the limit is a `too-deep` finding and an unreadable call that
// says why. Over real loopback servers, through the session's one transport.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { Deadline } from '../../src/core/deadline.ts';
import type { WaitClock } from '../../src/core/clock.ts';
import { deviationFinding } from '../../src/live/deviation-findings.ts';
import { LiveSession, type CallDeviation } from '../../src/live/live-session.ts';
import type { Target } from '../../src/live/target.ts';

let target: Server;
let elsewhere: Server;
let url = '';
let elsewhereHits = 0;

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

beforeAll(async () => {
  elsewhere = createServer((_request, response) => {
    elsewhereHits += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"balance":"1000"}');
  });
  const elsewhereUrl = await listen(elsewhere);
  target = createServer((request, response) => {
    request.resume();
    if (request.url?.includes('balance') === true)
      response.writeHead(307, { location: `${elsewhereUrl}${request.url}` }).end();
    else response.writeHead(200, { 'content-type': 'application/json' }).end('['.repeat(5_000) + ']'.repeat(5_000));
  });
  url = await listen(target);
});

afterAll(async () => {
  await Promise.all([target, elsewhere].map((server) => new Promise((resolve) => server.close(resolve))));
});

function session(deviations: CallDeviation[]): LiveSession {
  // No waits here (no pacing, no 429): a still clock the session only reads.
  const clock: WaitClock = { nowMs: () => 0, sleep: async () => undefined };
  const live: Target = {
    name: 'hostile',
    source: url,
    afpServe: false,
    adminUrl: null,
    services: { casino: { url, dialect: 'deployed' } },
    register: { service: 'casino' },
    funding: { method: 'faucet' },
    limits: {},
    fairness: 'deployed',
  };
  return new LiveSession({
    target: live,
    clock,
    deadline: new Deadline(clock, 60),
    onDeviation: (call) => deviations.push(call),
  });
}

test('a redirect to another origin: unanswered, a finding naming the Location, nothing sent there', async () => {
  const deviations: CallDeviation[] = [];
  const outcome = await session(deviations).call('casino.balance', {}, 'key');
  expect(outcome.kind).toBe('unreachable');
  expect(elsewhereHits).toBe(0);
  const finding = deviationFinding(deviations[0] as CallDeviation, () => 'curl');
  expect(finding.id).toBe('shape:casino.balance:redirect');
  expect(finding.severity).toBe('major');
  expect(String(finding.seen)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/auth\/balance/);
  expect(finding.title).toContain('another origin');
});

test('JSON nested 5,000 deep: a too-deep finding, and the call unreadable naming the limit', async () => {
  const deviations: CallDeviation[] = [];
  const outcome = await session(deviations).call('casino.games', {}, 'key');
  expect(outcome).toMatchObject({
    kind: 'unreadable',
    why: "its JSON is nested deeper than 256 levels, afp's limit: not read",
  });
  expect(deviations.map((call) => deviationFinding(call, () => 'curl').id)).toContain('shape:casino.games:too-deep');
});
