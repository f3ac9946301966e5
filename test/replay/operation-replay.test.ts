// Replay through a target's dialect (src/replay/operation-replay.ts): a short scenario recorded
// with `afp run --record` is replayed by `afp replay FILE --target TARGET_FILE` (its `main`) as
// operations, through a LiveSession, against a real `afp serve` on loopback described by
// targets/afp-serve.yaml (the documents' style A, afp serve's own layout). The recording and the target speak the same dialect, so nothing but info findings may
// come out: every recorded request is recognised by its route, sent as its operation with the
// target's ids, and read back to the same results. (The buyers never refund: style A has no refund,
// so a recorded style B refund is skipped, the escrow stays locked on the target, and the later
// lists and balances differ, as they should be reported.)
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main as replayEnding } from '../../src/cli/replay.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { recordScenario, serveFromScenario, type ScenarioRecording } from './scenario-replay-fixture.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { coded } from '../cli/ending-code.ts';

const main = coded(replayEnding);

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

/** scenarios/quickstart.yaml, shortened: the same populations in mixed styles, fewer agents, one day. */
const QUICKSTART_SHORT = `
name: quickstart-short
seed: 42
start: 2026-01-01T00:00:00Z
duration: 1d
populations:
  - agent: faucet-farmer
    count: 4
    style: mixed
    params: { claim_every: 24h, jitter: 30m, early_claim: 0.1 }
  - agent: escrow-seller
    count: 3
    style: mixed
    params: { check_every: 3h, dispute: 0.02 }
  - agent: escrow-buyer
    count: 4
    style: mixed
    params: { release: 0.6, refund: 0.1, dispute: 0.05, let_expire: 0.25, expires_in: 6h, escrow_every: 6h }
  - agent: bad-input-sender
    count: 1
    style: mixed
    params: { every: 2h, per_wake: 10 }
invariants: [conservation, no-negative-balance, faucet-cooldown, escrow-settles-once, escrow-expiry-exact, error-shape]
reports: [summary]
`;

let directory: string;
let recording: ScenarioRecording;
let quickstart: ScenarioRecording;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'afp-operation-replay-'));
  const scenarioFile = join(directory, 'operation-replay.yaml');
  await writeFile(scenarioFile, SCENARIO);
  recording = await recordScenario(scenarioFile, directory, 'record.jsonl');
  const quickstartFile = join(directory, 'quickstart-short.yaml');
  await writeFile(quickstartFile, QUICKSTART_SHORT);
  quickstart = await recordScenario(quickstartFile, directory, 'quickstart.jsonl');
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

interface FindingsJson {
  readonly findings: ReadonlyArray<{
    id: string;
    severity: string;
    title: string;
    expected: unknown;
    seen: unknown;
    evidence: string;
  }>;
  readonly checks: ReadonlyArray<{ name: string; status: string }>;
}

/** targets/afp-serve.yaml, pointed at this serve's ephemeral ports. */
async function afpServeTargetFile(handle: ServeHandle): Promise<string> {
  const urls = handle.urls;
  const text = (await readFile(join('targets', 'afp-serve.yaml'), 'utf8'))
    .replace('url: http://127.0.0.1:3006,', `url: ${urls.casino as string},`)
    .replace('url: http://127.0.0.1:3001,', `url: ${urls.faucet as string},`)
    .replace('url: http://127.0.0.1:3002,', `url: ${urls.escrow as string},`)
    .replace('admin_url: http://127.0.0.1:3000', `admin_url: ${urls.api as string}`);
  const file = join(directory, 'afp-serve-target.yaml');
  await writeFile(file, text);
  return file;
}

describe('replay through a target file in the documents style A, afp serve layout', () => {
  test('every exchange is mapped or skipped with a reason, and no finding goes beyond info', async () => {
    const handle = await serveFromScenario(recording.scenario);
    try {
      const targetFile = await afpServeTargetFile(handle);
      const out = join(directory, 'style-a');
      const chunks: string[] = [];
      const code = await main([recording.recordPath, '--target', targetFile, '--speed', 'max', '--out', out], {
        out: (text) => chunks.push(text),
        err: (text) => chunks.push(text),
      });
      const output = chunks.join('');
      const report = JSON.parse(await readFile(join(out, 'findings.json'), 'utf8')) as FindingsJson;
      const graver = report.findings.filter((finding) => finding.severity !== 'info');
      expect(
        graver.map(
          (finding) =>
            `${finding.id}: ${finding.title} — expected ${JSON.stringify(finding.expected)}, seen ${JSON.stringify(finding.seen)}; ${finding.evidence}`,
        ),
      ).toEqual([]);
      expect(code, output).toBe(0);
      expect(output).toContain('clock: synced');
      expect(output).toMatch(new RegExp(`exchanges: ${recording.exchanges.length} of ${recording.exchanges.length} `));
      for (const op of [
        'faucet.register',
        'faucet.claim',
        'faucet.status',
        'escrow.create',
        'escrow.release',
        'escrow.get',
        'escrow.list',
      ])
        expect(report.checks.map((check) => check.name)).toContain(`replay ${op}`);
      expect(report.checks.filter((check) => check.status === 'fail')).toEqual([]);
      // Bad input and probes of unknown paths are skipped by name; style B claims (2 USDC a day) on a
      // style A faucet (1 USDC once) are the dialects' documented difference, funded the target's way.
      const ids = report.findings.map((finding) => finding.id);
      expect(ids).toContain('replay:skipped:no-route');
      expect(ids.some((id) => id.startsWith('replay:skipped:bad-input:'))).toBe(true);
      expect(ids).toContain('replay:funded:faucet.B.claim');
    } finally {
      await handle.close({ forceAfterMs: 100 });
    }
  });
});

/**
 * targets/deployed.yaml pointed at an `afp serve --dialect deployed` on ephemeral ports. Resolving
 * the file finds the serve's /_afp doors on the casino's address, so its manual clock follows the
 * record: the deployment's fixed windows then roll over as they did in the recorded day. The
 * file's limits pace a real deployment per operation and address; they are dropped here, where the
 * replay runs a day in a second and the serve's own windows answer for the limits.
 */
async function deployedTargetFile(handle: ServeHandle): Promise<string> {
  const urls = handle.urls;
  const text = (await readFile(join('targets', 'deployed.yaml'), 'utf8'))
    .replace('url: http://127.0.0.1:3000,', `url: ${urls.casino as string},`)
    .replace('url: http://127.0.0.1:3006,', `url: ${urls.faucet as string},`)
    .replace('url: http://127.0.0.1:3007,', `url: ${urls.escrow as string},`)
    .replace(/^limits:\n(?: {2}.*\n)+/m, 'limits: {}\n');
  const file = join(directory, 'deployed-target.yaml');
  await writeFile(file, text);
  return file;
}

describe('replay through targets/deployed.yaml against afp serve --dialect deployed', () => {
  test('a recorded quickstart replays with findings only where the dialects differ', async () => {
    const handle = await startServe({
      trustedProxies: LOOPBACK_PROXIES,
      routes: DEPLOYED_ROUTES,
      layout: DEPLOYED_LAYOUT,
      seed: '42',
      port: 0,
      clockMode: 'manual',
      startMs: quickstart.header.start_ms,
      log: () => undefined,
    });
    try {
      const targetFile = await deployedTargetFile(handle);
      const out = join(directory, 'deployed');
      const chunks: string[] = [];
      const code = await main([quickstart.recordPath, '--target', targetFile, '--speed', 'max', '--out', out], {
        out: (text) => chunks.push(text),
        err: (text) => chunks.push(text),
      });
      const output = chunks.join('');
      const report = JSON.parse(await readFile(join(out, 'findings.json'), 'utf8')) as FindingsJson;
      const describe = (finding: FindingsJson['findings'][number]): string =>
        `${finding.severity} ${finding.id}: ${finding.title} — expected ${JSON.stringify(finding.expected)}, seen ${JSON.stringify(finding.seen)}; ${finding.evidence}`;
      // Beyond info, only money the deployment's funding cannot give: the style B registration grant
      // (10 USDC) and daily claims (2 USDC), where a deployed faucet credits 1.00 once per agent and IP.
      const graver = report.findings.filter(
        (finding) => finding.severity !== 'info' && !finding.id.startsWith('replay:unfunded:'),
      );
      expect(graver.map(describe)).toEqual([]);
      expect(
        report.findings
          .filter((finding) => finding.id.startsWith('replay:unfunded:'))
          .map((finding) => finding.severity),
      ).not.toContain('major');
      expect(code, output).toBe(0);
      expect(output).toMatch(
        new RegExp(`exchanges: ${quickstart.exchanges.length} of ${quickstart.exchanges.length} `),
      );
      const ids = report.findings.map((finding) => finding.id);
      // Where the dialects differ, each an info finding: agents register on the deployed casino (its
      // faucet has none), escrow lists and refunds are not offered, renamed
      // fields (amount_usd, credited) are read under the deployment's names, and its states (funded for
      // locked) compared as afp's.
      for (const id of [
        'replay:registered-elsewhere:faucet.A.register',
        'replay:registered-elsewhere:faucet.B.register',
        'replay:skipped:not-offered:escrow.list',
        'shape:escrow.create:renamed:amount_usd',
        'replay:escrow.create:status:funded',
        'shape:faucet.claim:renamed:credited',
      ])
        expect(ids).toContain(id);
      // The faucet's status is the casino balance the faucet credits (a documented difference: no eligibility).
      for (const op of [
        'casino.register',
        'faucet.claim',
        'faucet.status',
        'escrow.create',
        'escrow.release',
        'escrow.get',
      ])
        expect(report.checks.map((check) => check.name)).toContain(`replay ${op}`);
      // What unfunded money causes later is named a consequence, never a new fault.
      expect(
        report.findings
          .filter((finding) => finding.id.endsWith(':consequence'))
          .map((finding) => finding.severity)
          .every((severity) => severity === 'info'),
      ).toBe(true);
    } finally {
      await handle.close({ forceAfterMs: 100 });
    }
  });
});
