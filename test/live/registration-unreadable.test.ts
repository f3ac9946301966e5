// A registration the target answers 200 without the fields an account needs fails naming the first
// field it lacked: it said `registration failed: unreadable (200)` and no more, so a user of a
// deployment that renamed `agent_id` could not tell what to change. A real HTTP server on loopback
// answers the same 200 body to every path.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { systemLoadClock } from '../../src/load/options.ts';
import { Deadline } from '../../src/core/deadline.ts';
import { openLiveAccount } from '../../src/live/live-account.ts';
import { LiveSession } from '../../src/live/live-session.ts';
import type { Target } from '../../src/live/target.ts';

let server: Server;
let url = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ api_key: 'k-1', agent: 'renamed-1' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('a registration answered 200 without its fields', () => {
  test.each(['A', 'deployed'] as const)('dialect %s: the failure names the missing field', async (dialect) => {
    const target: Target = {
      name: 'renamed-fields',
      source: 'test',
      afpServe: false,
      adminUrl: null,
      register: { service: 'casino' },
      funding: { method: 'faucet' },
      limits: {},
      fairness: 'afp',
      services: { casino: { url, dialect } },
    };
    const clock = systemLoadClock();
    const deadline = new Deadline(clock, 10);
    const opened = await openLiveAccount({
      session: new LiveSession({ target, clock, deadline }),
      key: null,
      fundMicro: 0n,
      clock,
      deadline,
    });
    expect(opened).toMatchObject({ ok: false, kind: 'trouble' });
    expect(opened.ok ? '' : opened.message).toMatch(
      /^registration failed: unreadable \(200\): `[a-z_.]+` is (missing|not .+)$/,
    );
  });
});
