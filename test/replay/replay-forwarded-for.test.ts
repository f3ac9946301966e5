// A replay through a target's dialect announces the recorded agents' client addresses
// (X-Forwarded-For, the record's made-up 2001:db8:: ones) only to a target that says it trusts them:
// an afp serve whose mounts say `forwarded_for: trusted` (docs/targets.md: "no other target is sent
// one"). Before, every target was sent them, so a deployment keying a per-IP limit on the header let
// a replay's registrations through where one client's would meet it (prober 67c). Real loopback
// listeners: a server that keeps every request's headers and answers each with an empty JSON object,
// named in a target file as the deployed casino and faucet. That a trusting serve still gets each
// agent's own address is replay-shipped-scenarios' deployed replays (their stand-in trusts loopback).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { recordScenario, replayThroughDialect } from './scenario-replay-fixture.ts';
import type { ScenarioRecording } from './scenario-replay-fixture.ts';

let directory = '';
let recording: ScenarioRecording;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'afp-replay-forwarded-'));
  recording = await recordScenario('scenarios/k6-smoke.yaml', directory, 'k6-smoke.jsonl');
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

test('a target file of a server that does not say it trusts them is sent no X-Forwarded-For', async () => {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    seen.push(request.headers);
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const file = join(directory, 'plain.yaml');
  await writeFile(
    file,
    `name: plain
services:
  casino: { url: "http://127.0.0.1:${port}", dialect: deployed }
  faucet: { url: "http://127.0.0.1:${port}", dialect: deployed }
register: { service: casino }
funding: { method: faucet }
fairness: deployed
`,
  );
  try {
    const { output } = await replayThroughDialect(recording.recordPath, file, directory, 'plain');
    expect(seen.length, output).toBeGreaterThan(0);
    expect(seen.filter((headers) => headers['x-forwarded-for'] !== undefined)).toEqual([]);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
