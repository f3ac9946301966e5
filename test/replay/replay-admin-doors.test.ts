// A record cannot reach afp serve's admin doors (issue 69, part 4): a small run recorded in-process,
// then an exchange aimed at `POST /_afp/reset` appended to it (as a record handed over by someone
// else may hold), replayed by `afp replay` (its `main`) against a real `afp serve` on 127.0.0.1.
// Without --with-admin the reset is not sent, the agents the replay registered survive, and the
// skip is listed (terminal and diff.json); with --with-admin it is sent and the platform is wiped.
// A recorded Host header is dropped, never sent.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main as replayEnding, type ReplayIo } from '../../src/cli/replay.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { isAdminDoor } from '../../src/replay/admin-doors.ts';
import { START_MS, recordSmallRun } from './record-fixture.ts';
import { coded } from '../cli/ending-code.ts';

const main = coded(replayEnding);

let directory: string;
let recordPath: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'afp-replay-doors-'));
  const plain = join(directory, 'run.jsonl');
  const run = await recordSmallRun({ seed: '7' });
  await run.recorder.finish(plain);
  const [headerLine = '', ...exchangeLines] = (await readFile(plain, 'utf8')).trim().split('\n');
  const header = JSON.parse(headerLine) as { exchanges: number; end_ms: number };
  const last = JSON.parse(exchangeLines.at(-1) ?? '{}') as { seq: number; at_ms: number; agent: string };
  const reset = {
    seq: last.seq + 1,
    at_ms: last.at_ms,
    agent: last.agent,
    request: {
      mount: 'api',
      method: 'POST',
      path: '/_afp/reset',
      query: {},
      headers: { host: 'elsewhere.example' },
      body: {},
    },
    response: { status: 200, headers: {}, body: { reset: true } },
    provenance: [],
    introduced: [],
  };
  // The first exchange carries a Host naming another origin, as a record taken behind a proxy may.
  const first = JSON.parse(exchangeLines[0] ?? '{}') as { request: { headers: Record<string, string> } };
  first.request.headers = { ...first.request.headers, host: 'elsewhere.example' };
  exchangeLines[0] = JSON.stringify(first);
  recordPath = join(directory, 'with-reset.jsonl');
  await writeFile(
    recordPath,
    [JSON.stringify({ ...header, exchanges: header.exchanges + 1 }), ...exchangeLines, JSON.stringify(reset)].join(
      '\n',
    ) + '\n',
  );
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function replayed(extra: string[]): Promise<{ code: number; output: string; agents: number; diff: string }> {
  const handle: ServeHandle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: ALL_ROUTES,
    seed: '7',
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    defects: [],
    log: () => undefined,
  });
  const chunks: string[] = [];
  const io: ReplayIo = { out: (text) => chunks.push(text), err: (text) => chunks.push(text) };
  const out = join(directory, extra.length === 0 ? 'plain' : 'with-admin');
  try {
    const code = await main(
      [recordPath, '--target', handle.urls.api as string, '--speed', 'max', '--out', out, ...extra],
      io,
    );
    return {
      code,
      output: chunks.join(''),
      agents: handle.platform.agents.size,
      diff: await readFile(join(out, 'diff.json'), 'utf8').catch(() => `no diff.json; output: ${chunks.join('')}`),
    };
  } finally {
    await handle.close({ forceAfterMs: 100 });
  }
}

describe("a record's admin doors", () => {
  test('without --with-admin: the reset is not sent, the agents survive, the skip is listed', async () => {
    const result = await replayed([]);
    expect(result.agents, result.output).toBeGreaterThan(0);
    expect(result.output).toContain(
      "admin doors: 1 recorded exchange(s) aimed at afp serve's admin doors were NOT sent (give --with-admin to send them): POST /_afp/reset ×1",
    );
    expect(result.output).toContain('origin headers: 1 recorded exchange(s) carried a Host/Forwarded header');
    expect(JSON.parse(result.diff)).toMatchObject({ admin_skipped: [{ door: 'POST /_afp/reset', count: 1 }] });
  });

  test('with --with-admin: the reset is sent and wipes the platform', async () => {
    const result = await replayed(['--with-admin']);
    expect(result.agents, result.output).toBe(0);
    expect(result.output).not.toContain('were NOT sent');
  });

  test('a door is found whatever its spelling: case, percent-encoding, dot segments', () => {
    for (const path of [
      '/_afp/reset',
      '/_AFP/reset',
      '/%5fafp/reset',
      '/%255Fafp/clock',
      '/api/../_afp/tier',
      '/x\\_afp\\reset',
    ])
      expect(isAdminDoor(path), path).toBe(true);
    for (const path of ['/api/v1/gossip', '/afp/reset', '/_afpx/reset', '/register'])
      expect(isAdminDoor(path), path).toBe(false);
  });
});
