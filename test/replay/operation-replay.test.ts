// Replay through a target's dialect (src/replay/operation-replay.ts): a short scenario recorded
// with `afp run --record` is replayed as operations, through a LiveSession, against a real
// `afp serve` on loopback described as a target in the documents' style A with afp serve's own
// layout. The recording and the target speak the same dialect, so nothing but info findings may
// come out: every recorded request is recognised by its route, sent as its operation with the
// target's ids, and read back to the same results. (The buyers never refund: style A has no refund,
// so a recorded style B refund is skipped, the escrow stays locked on the target, and the later
// lists and balances differ, as they should be reported.)
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Deadline } from '../../src/audit/live-target.ts';
import { SYSTEM_LIVE_CLOCK } from '../../src/cli/audit-io.ts';
import { deviationFinding } from '../../src/live/deviation-findings.ts';
import { FindingsCollector } from '../../src/live/finding.ts';
import { LiveSession, type SentRequest } from '../../src/live/live-session.ts';
import type { Target } from '../../src/live/target.ts';
import { OperationReplay } from '../../src/replay/operation-replay.ts';
import type { RecordedExchange } from '../../src/replay/record-format.ts';
import type { ServeHandle } from '../../src/server/listeners.ts';
import { recordScenario, serveFromScenario, type ScenarioRecording } from './scenario-replay-fixture.ts';

const SCENARIO = `
name: operation-replay
seed: 5
start: 2026-01-01T00:00:00Z
duration: 14h
populations:
  - agent: faucet-farmer
    count: 3
    style: A
    params: { claim_every: 2h, jitter: 10m, early_claim: 0.2 }
  - agent: escrow-seller
    count: 2
    style: A
    params: { check_every: 3h, dispute: 0.2 }
  - agent: escrow-buyer
    count: 3
    style: A
    params: { release: 0.6, refund: 0, dispute: 0.2, let_expire: 0.2, expires_in: 6h, escrow_every: 2h }
  - agent: bad-input-sender
    count: 1
    style: A
    params: { every: 4h, per_wake: 4 }
invariants: [conservation, no-negative-balance]
reports: [summary]
`;

let directory: string;
let recording: ScenarioRecording;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'afp-operation-replay-'));
  const scenarioFile = join(directory, 'operation-replay.yaml');
  await writeFile(scenarioFile, SCENARIO);
  recording = await recordScenario(scenarioFile, directory, 'record.jsonl');
}, 60_000);

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const curl = (request: SentRequest): string => `curl -X ${request.method} '${request.url}'`;

function styleATarget(handle: ServeHandle): Target {
  const urls = handle.urls;
  return {
    name: 'afp-serve-a', source: 'test', afpServe: true, adminUrl: urls.api as string,
    services: { casino: { url: urls.casino as string, dialect: 'A' }, faucet: { url: urls.faucet as string, dialect: 'A' }, escrow: { url: urls.escrow as string, dialect: 'A' } },
    register: { service: 'casino' }, funding: { method: 'admin-deposit' }, limits: {}, fairness: 'afp',
  };
}

/** Moves a manual serve clock to each exchange's instant (forward only), as `afp replay` does. */
function clockSync(adminUrl: string): (exchange: RecordedExchange) => Promise<void> {
  let atMs = -1;
  return async (exchange) => {
    if (exchange.at_ms <= atMs) return;
    atMs = exchange.at_ms;
    const response = await fetch(`${adminUrl}/_afp/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ to_ms: exchange.at_ms }) });
    await response.body?.cancel();
  };
}

describe('replay through a target file in the documents style A, afp serve layout', () => {
  test('every exchange is mapped or skipped with a reason, and no finding goes beyond info', async () => {
    const handle = await serveFromScenario(recording.scenario);
    try {
      const findings = new FindingsCollector();
      const deadline = new Deadline(SYSTEM_LIVE_CLOCK, 120);
      const target = styleATarget(handle);
      const session = new LiveSession({ target, clock: SYSTEM_LIVE_CLOCK, deadline, onDeviation: (deviation) => findings.add(deviationFinding(deviation, curl)) });
      const replay = new OperationReplay({ session, findings, curlOf: curl, clock: SYSTEM_LIVE_CLOCK, deadline, beforeSend: clockSync(target.adminUrl as string) });
      const stop = await replay.run(recording.exchanges);
      expect(stop).toBeNull();
      const totals = replay.totals();
      expect(totals.exchanges).toBe(recording.exchanges.length);
      expect(totals.sent + totals.skipped).toBe(recording.exchanges.length);
      const ops = totals.byOperation.map((row) => row.op);
      for (const op of ['faucet.register', 'faucet.claim', 'faucet.status', 'escrow.create', 'escrow.release', 'escrow.get', 'escrow.list']) expect(ops).toContain(op);
      if (process.env["AFP_DEBUG"] !== undefined) console.log(findings.list().map((finding) => `${finding.severity} ${finding.id} x${finding.count}: ${finding.title} :: ${finding.evidence}`).join("\n"));
      const graver = findings.list().filter((finding) => finding.severity !== 'info');
      expect(graver.map((finding) => `${finding.id}: ${finding.title} — expected ${JSON.stringify(finding.expected)}, seen ${JSON.stringify(finding.seen)}; ${finding.evidence}`)).toEqual([]);
      expect(findings.list().some((finding) => finding.id.startsWith('replay:skipped:'))).toBe(true);
      expect(totals.bindings).toBeGreaterThan(0);
    } finally {
      await handle.close({ forceAfterMs: 100 });
    }
  }, 30_000);
});
