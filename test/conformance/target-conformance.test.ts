// The conformance suite against a Target (src/conformance/target-conformance.ts), on a real
// `afp serve` on loopback described by target files: through the documents' style A every case
// passes (the documents' cases as in conformance.test.ts, and the operation cases with no
// finding), one JUnit test case per case in the findings report; a target of pre-funded keys and
// no registration skips what needs registering or a second account, with the reason, and still
// runs the rest — nothing aborts at set-up; `afp serve --dialect deployed` through its target file
// fails nothing: the documents' cases are skipped (its dialect serves none of their endpoints) and
// every operation case passes with findings, all of them the documented differences (info).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { conformanceChecks } from '../../src/conformance/conformance-checks.ts';
import { resolveTarget } from '../../src/live/resolve-target.ts';
import { writeFindingsReports } from '../../src/report/findings/write-findings.ts';
import { Deadline } from '../../src/core/deadline.ts';
import type { WaitClock } from '../../src/core/clock.ts';
import { CONFORMANCE_CASES } from '../../src/conformance/conformance-cases.ts';
import { OPERATION_CASES } from '../../src/conformance/operation-cases.ts';
import { runTargetConformance, type SuiteCase } from '../../src/conformance/target-conformance.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { openLiveAccount } from '../../src/live/live-account.ts';
import { LiveSession } from '../../src/live/live-session.ts';
import type { Target } from '../../src/live/target.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { startServe } from '../../src/server/listeners.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const START_MS = Date.parse('2025-01-01T00:00:00.000Z');
const clock: WaitClock = { nowMs: () => 0, sleep: async () => undefined };
const curlOf = (request: { method: string; url: string }): string => `curl -X ${request.method} '${request.url}'`;

const serve = await startServe({
  trustedProxies: LOOPBACK_PROXIES,
  routes: ALL_ROUTES,
  seed: '7',
  port: 0,
  clockMode: 'manual',
  startMs: START_MS,
  log: () => undefined,
});
const deployed = await startServe({
  trustedProxies: LOOPBACK_PROXIES,
  routes: DEPLOYED_ROUTES,
  layout: DEPLOYED_LAYOUT,
  seed: '7',
  port: 0,
  clockMode: 'manual',
  startMs: START_MS,
  log: () => undefined,
});
const directory = await mkdtemp(join(tmpdir(), 'afp-target-conformance-'));
afterAll(async () => {
  await serve.close();
  await deployed.close();
  await rm(directory, { recursive: true, force: true });
});

/** A target file for the running serve in the documents' style A, with `register` and `funding` as given; loaded by resolveTarget. */
async function targetFile(name: string, register: string, funding: string): Promise<Target> {
  const urls = serve.urls;
  const path = join(directory, `${name}.yaml`);
  await writeFile(
    path,
    [
      `name: ${name}`,
      'services:',
      `  casino: { url: ${urls.casino as string}, dialect: A }`,
      `  faucet: { url: ${urls.faucet as string}, dialect: A }`,
      `  escrow: { url: ${urls.escrow as string}, dialect: A }`,
      `  trading: { url: ${urls.trading as string}, dialect: A }`,
      `  domains: { url: ${urls.domains as string}, dialect: A }`,
      `  wallet: { url: ${urls.wallet as string}, dialect: A }`,
      `register: ${register}`,
      `funding: ${funding}`,
      'fairness: afp',
      `admin_url: ${urls.api as string}`,
      '',
    ].join('\n'),
  );
  const resolved = await resolveTarget(path);
  if (!resolved.ok) throw new Error(resolved.message);
  return resolved.value;
}

function outcomes(results: ReadonlyArray<{ name: string; outcome: string }>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const result of results) counts[result.outcome] = (counts[result.outcome] ?? 0) + 1;
  return counts;
}

describe('conformance through a target', () => {
  test('afp serve in the documents style A: every case passes, no finding', async () => {
    const cases: SuiteCase[] = [...CONFORMANCE_CASES, ...OPERATION_CASES];
    const target = await targetFile('style-a', '{ service: casino }', '{ method: admin-deposit }');
    const run = await runTargetConformance(
      { target, clock, deadline: new Deadline(clock, 600), session: 'a0a0a0a0', curlOf },
      cases,
    );
    const notPassed = run.results.filter((result) => result.outcome !== 'passed');
    expect(notPassed).toEqual([]);
    expect(run.results).toHaveLength(cases.length);
    expect(run.findings.list()).toEqual([]);
    const checks = conformanceChecks(cases, run.results);
    const [, , junitPath] = await writeFindingsReports(join(directory, 'report'), {
      command: 'conformance',
      target: { name: target.name, source: target.source },
      failOn: 'major',
      findings: [],
      dropped: 0,
      checks,
    });
    const junit = await readFile(junitPath as string, 'utf8');
    expect(junit.match(/<testcase /g)?.length).toBe(cases.length);
    expect(junit).not.toMatch(/<failure|<skipped/);
  });

  test('pre-funded keys and no registration: what needs registering is skipped with the reason, the rest runs', async () => {
    const setup = new LiveSession({
      target: await targetFile('setup', '{ service: casino }', '{ method: admin-deposit }'),
      clock,
      deadline: new Deadline(clock, 60),
    });
    const funded = await openLiveAccount({
      session: setup,
      key: null,
      fundMicro: 3_000_000n,
      clock,
      deadline: new Deadline(clock, 60),
    });
    if (!funded.ok) throw new Error(funded.message);
    const target = await targetFile('keys-only', 'none', `{ method: keys, keys: [${funded.value.apiKey}] }`);
    const cases: SuiteCase[] = [...CONFORMANCE_CASES.slice(0, 3), ...OPERATION_CASES];
    const run = await runTargetConformance(
      { target, clock, deadline: new Deadline(clock, 600), session: 'b0b0b0b0', curlOf },
      cases,
    );
    const byName = new Map(run.results.map((result) => [result.name, result]));
    for (const kase of CONFORMANCE_CASES.slice(0, 3)) {
      expect(byName.get(kase.name)).toEqual({
        name: kase.name,
        outcome: 'skipped',
        reason: 'keys-only offers no registration (register: none), and this case registers fresh agents',
      });
    }
    const escrow = run.results.find((result) => result.name.startsWith('operations: an escrow holds'));
    expect(escrow?.outcome === 'skipped' ? escrow.reason : escrow).toBe(
      'set-up could not be done: account 2 is needed and keys-only gives 1 pre-funded key(s) (funding: keys; accounts are not registered there)',
    );
    expect(run.results.find((result) => result.name.startsWith('operations: a registration'))).toMatchObject({
      outcome: 'skipped',
      reason: 'keys-only offers no registration (register: none)',
    });
    expect(outcomes(run.results)).toEqual({ skipped: 3 + 5, passed: OPERATION_CASES.length - 5 });
  });
});

/** A target file for the deployed serve, funded as given; loaded by resolveTarget. */
async function deployedFile(name: string, funding: string): Promise<Target> {
  const urls = deployed.urls;
  const path = join(directory, `${name}.yaml`);
  await writeFile(
    path,
    [
      `name: ${name}`,
      'services:',
      `  casino: { url: ${urls.casino as string}, dialect: deployed }`,
      `  faucet: { url: ${urls.faucet as string}, dialect: deployed }`,
      `  escrow: { url: ${urls.escrow as string}, dialect: deployed }`,
      `  trading: { url: ${urls.trading as string}, dialect: deployed }`,
      `  domains: { url: ${urls.domains as string}, dialect: deployed }`,
      `  wallet: { url: ${urls.wallet as string}, dialect: deployed }`,
      'register: { service: casino }',
      `funding: ${funding}`,
      'fairness: deployed',
      `admin_url: ${urls.casino as string}`,
      '',
    ].join('\n'),
  );
  const resolved = await resolveTarget(path);
  if (!resolved.ok) throw new Error(resolved.message);
  return resolved.value;
}

describe('conformance through a target file of afp serve --dialect deployed', () => {
  test('funded by its faucet (one claim per IP a day): the second account is registered unfunded, no case fails', async () => {
    const target = await deployedFile('deployed-faucet', '{ method: faucet }');
    const run = await runTargetConformance(
      { target, clock, deadline: new Deadline(clock, 600), session: 'e0e0e0e0', curlOf },
      OPERATION_CASES,
    );
    expect(run.results.filter((result) => result.outcome === 'failed')).toEqual([]);
    expect(run.results.find((result) => result.name.startsWith('operations: an escrow holds'))?.outcome).toBe(
      'finding',
    );
    expect(new Set(run.findings.list().map((finding) => finding.severity))).toEqual(new Set(['info']));
  });

  test("no case fails: the documents' cases are skipped with the dialect's reason, the operation cases pass with documented findings only", async () => {
    const target = await deployedFile('deployed-serve', '{ method: admin-deposit }');
    const cases: SuiteCase[] = [...CONFORMANCE_CASES, ...OPERATION_CASES];
    const run = await runTargetConformance(
      { target, clock, deadline: new Deadline(clock, 600), session: 'd0d0d0d0', curlOf },
      cases,
    );
    expect(run.results.filter((result) => result.outcome === 'failed')).toEqual([]);
    const documents = run.results.slice(0, CONFORMANCE_CASES.length);
    expect(
      documents
        .filter(
          (result) =>
            !(
              result.outcome === 'skipped' &&
              /^deployed-serve(?:'s \w+ speaks dialect deployed, not the documents' style A this case sends| serves no documents' style-B api| names no domains service| names no trading service)/.test(
                result.reason,
              )
            ) &&
            !(
              result.outcome === 'skipped' &&
              result.name.startsWith('wallet.') &&
              /^the target serves no 'wallet' mount/.test(result.reason)
            ),
        )
        .map((result) => `${result.name}: ${result.outcome} ${'reason' in result ? String(result.reason) : ''}`),
    ).toEqual([]);
    const operations = run.results.slice(CONFORMANCE_CASES.length);
    expect(operations.map((result) => result.outcome)).toEqual(
      OPERATION_CASES.map((kase) =>
        kase.name.includes('faucet credits')
          ? 'skipped'
          : kase.name.includes('a created wallet')
            ? 'passed'
            : 'finding',
      ),
    );
    expect(new Set(run.findings.list().map((finding) => finding.severity))).toEqual(new Set(['info']));
    expect(
      run.findings
        .list()
        .filter((finding) => finding.kind === 'rule')
        .map((finding) => finding.id),
    ).toEqual([
      'rule:auth.refusal.unknown-key:deployed',
      'rule:casino.refusal.over-balance:deployed',
      'rule:casino.refusal.withdraw-over-balance:deployed',
      'rule:domains.refusal.over-balance:deployed',
      'rule:escrow.refusal.over-balance:deployed',
      'rule:escrow.refusal.released-again:deployed',
      'rule:escrow.status.created:deployed',
      'rule:trading.refusal.over-balance:deployed',
    ]);
    const checks = conformanceChecks(cases, run.results);
    expect(
      checks
        .filter((check) => check.status === 'finding')
        .every((check) => check.findingIds.length > 0 && check.group === 'conformance: operations'),
    ).toBe(true);
  });
});
