// `afp check --target` through a target's dialects (src/check/dialect), against a real `afp serve`
// on loopback spoken to in the documents' style A: a faithful platform holds over every run with
// no finding; a platform that replays nonces is caught, shrunk and reported with the command that
// reproduces it; one that states and takes a 2% escrow fee is measured (a rule finding, the money
// held to the stated fee); `afp check --target FILE` runs it and writes the
// findings report; against `afp serve --dialect deployed` (a target file, or its URL) it holds
// with the documented differences as info findings only.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { main as checkEnding } from '../../src/cli/check.ts';
import { Deadline } from '../../src/core/deadline.ts';
import type { WaitClock } from '../../src/core/clock.ts';
import { runDialectCheck } from '../../src/check/dialect/run-dialect-check.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { curlOf } from '../../src/live/curl.ts';
import type { Target } from '../../src/live/target.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import type { DefectName } from '../../src/services/shared/context.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { adminFundedTargetText } from '../fixtures/deployed-target.ts';
import { coded } from '../cli/ending-code.ts';

const main = coded(checkEnding);

const START_MS = Date.parse('2025-01-01T00:00:00.000Z');
const clock: WaitClock = { nowMs: () => 0, sleep: async () => undefined };
const handles: ServeHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close();
});

async function styleA(defects: readonly DefectName[] = []): Promise<Target> {
  const handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: ALL_ROUTES,
    seed: '5',
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    defects,
    log: () => undefined,
  });
  handles.push(handle);
  const urls = handle.urls;
  return {
    name: 'afp-serve',
    source: urls.api as string,
    afpServe: true,
    adminUrl: urls.api as string,
    services: {
      casino: { url: urls.casino as string, dialect: 'A' },
      faucet: { url: urls.faucet as string, dialect: 'A' },
      escrow: { url: urls.escrow as string, dialect: 'A' },
    },
    register: { service: 'casino' },
    funding: { method: 'admin-deposit' },
    limits: {},
    fairness: 'afp',
  };
}

function check(target: Target, seed: number, runs: number) {
  return runDialectCheck({
    target,
    targetSpec: 'targets/afp-serve.yaml',
    seed,
    runs,
    maxCommands: 25,
    clock,
    deadline: new Deadline(clock, 600),
    curlOf,
  });
}

describe('afp check through the documents style A dialect', () => {
  test('a faithful afp serve: every run holds, every command row drawn, no finding', async () => {
    const result = await check(await styleA(), 42, 8);
    expect(result.failure).toBeUndefined();
    expect(result.ok).toBe(true);
    expect(result.runs).toBe(8);
    expect(result.commands).toEqual([
      'balance',
      'bet',
      'batch',
      'betAboveBalance',
      'rotate',
      'seeds',
      'balanceWithUnknownKey',
      'escrowCreate',
      'escrowAboveBalance',
      'escrowGet',
      'escrowRelease',
      'escrowReleaseThroughMcp',
      'withdrawAboveBalance',
    ]);
    // The trading, domains and wallet rows need those services, which this target does not name: left out, each with the reason.
    const leftOut = result.notes.filter((note) => note.startsWith('command'));
    expect(leftOut).toHaveLength(22);
    for (const note of leftOut)
      expect(note).toMatch(
        /^command (trad|domain|dns|wallet)\w+ left out of the sequences: the target file names no (trading|domains|wallet) service$/,
      );
    expect(result.findings.list()).toEqual([]);
  });

  test('an escrow fee the target states as 2% (not the documents’ 1%) is measured: a minor rule finding with evidence, and the money holds to it', async () => {
    // The platform takes 2% and says so in the creation answer's `fee`: the check holds every release
    // to the stated fee (each balance read after it agrees) and reports the difference from the
    // documents once per escrow as a rule finding, instead of calling the balances wrong. Before, it
    // recited 1% and failed on the counterparty's next balance read ("expected" 0.01 more).
    const result = await check(await styleA(['escrow-fee-2pct']), 42, 30);
    expect(result.failure).toBeUndefined();
    expect(result.ok).toBe(true);
    const fees = result.findings.list().filter((finding) => finding.id === 'rule:escrow:fee');
    expect(fees).toHaveLength(1);
    expect(fees[0]).toMatchObject({ severity: 'minor', kind: 'rule', endpoint: 'escrow.create', field: 'fee' });
    expect(fees[0]?.title).toMatch(/^an escrow of \d+\.\d+ states a fee of \d+\.\d+, not the documents' 1% /);
    expect(Number(fees[0]?.seen)).toBeCloseTo(2 * Number(fees[0]?.expected), 6);
    expect(fees[0]?.reproduce).toMatch(/^curl .*\/api\/v1\/escrow/);
    expect(result.findings.list().filter((finding) => finding.id !== 'rule:escrow:fee')).toEqual([]);
  });
});

describe('afp check --target FILE', () => {
  test('a target file of afp serve in style A: exit 0, the commands drawn, no finding, the report written', async () => {
    const target = await styleA();
    const directory = await mkdtemp(join(tmpdir(), 'afp-dialect-check-'));
    try {
      const file = join(directory, 'serve.yaml');
      const services = Object.entries(target.services).map(
        ([service, entry]) => `  ${service}: { url: ${entry.url}, dialect: A }`,
      );
      await writeFile(
        file,
        [
          'name: serve-a',
          'services:',
          ...services,
          'register: { service: casino }',
          'funding: { method: admin-deposit }',
          'fairness: afp',
          `admin_url: ${target.adminUrl ?? ''}`,
          '',
        ].join('\n'),
      );
      let out = '';
      let err = '';
      const code = await main(
        ['--target', file, '--seed', '9', '--runs', '4', '--max-commands', '20', '--out', join(directory, 'report')],
        {
          out: (text) => {
            out += text;
          },
          err: (text) => {
            err += text;
          },
        },
      );
      expect([code, err]).toEqual([0, '']);
      expect(out).toMatch(
        /^seed: 9\ntime budget: 1800 s \(--max-seconds\)[^\n]*\ntarget: serve-a \(.*serve\.yaml\) through its dialects: casino A, escrow A, faucet A\n/,
      );
      expect(out).toMatch(
        /^commands: balance, bet, batch, betAboveBalance, rotate, seeds, balanceWithUnknownKey, escrowCreate, escrowAboveBalance, escrowGet, escrowRelease, escrowReleaseThroughMcp, withdrawAboveBalance$/m,
      );
      expect(out).toMatch(/^findings: 0 \(0 critical, 0 major, 0 minor, 0 info\)$/m);
      expect(out).toMatch(/^ok: 4 runs held \(at most 20 commands each, \d+ sent\)$/m);
      const junit = await readFile(join(directory, 'report', 'findings.junit.xml'), 'utf8');
      expect(junit).toMatch(/<testcase [^>]*name="model-based sequences \(4 runs, seed 9\)"/);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  test('a target file that does not load: exit 2 with its errors', async () => {
    let err = '';
    const code = await main(['--target', 'no/such/target.yaml', '--seed', '1'], {
      out: () => undefined,
      err: (text) => {
        err += text;
      },
    });
    expect(code).toBe(2);
    expect(err).toMatch(/no\/such\/target\.yaml: cannot read the target file/);
  });
});

describe('afp check against afp serve --dialect deployed', () => {
  async function deployedServe(defects: readonly DefectName[] = []): Promise<ServeHandle> {
    const handle = await startServe({
      defects,
      trustedProxies: LOOPBACK_PROXIES,
      routes: DEPLOYED_ROUTES,
      layout: DEPLOYED_LAYOUT,
      seed: '5',
      port: 0,
      clockMode: 'manual',
      startMs: START_MS,
      log: () => undefined,
    });
    handles.push(handle);
    return handle;
  }

  function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    return main(argv, {
      out: (text) => {
        out += text;
      },
      err: (text) => {
        err += text;
      },
    }).then((code) => ({ code, out, err }));
  }

  /** A target file naming the serve's casino, faucet and escrow in the deployed dialect, in `directory`. */
  /** A target file naming the serve's casino, faucet and escrow in the deployed dialect, in `directory`. */
  async function casinoEscrowFile(urls: ServeHandle['urls'], directory: string): Promise<string> {
    const file = join(directory, 'deployed.yaml');
    const { casino, faucet, escrow } = urls;
    await writeFile(file, adminFundedTargetText('deployed-serve', { casino, faucet, escrow }, casino as string));
    return file;
  }

  test('through its target file: exit 0, every run holds, only info findings (the documented differences)', async () => {
    const urls = (await deployedServe()).urls;
    const directory = await mkdtemp(join(tmpdir(), 'afp-dialect-check-'));
    try {
      const file = await casinoEscrowFile(urls, directory);
      // Few enough bets to stay inside the deployment's 60 game requests per agent per minute (no pacing, no 429 wait).
      const { code, out, err } = await run([
        '--target',
        file,
        '--seed',
        '11',
        '--runs',
        '3',
        '--max-commands',
        '12',
        '--fail-on',
        'minor',
      ]);
      expect([code, err]).toEqual([0, '']);
      expect(out).toMatch(/through its dialects: casino deployed, escrow deployed, faucet deployed$/m);
      expect(out).toMatch(/^findings: ([1-9]\d*) \(0 critical, 0 major, 0 minor, \1 info\)$/m);
      expect(out).toMatch(/^ {2}info shape:casino.balance:renamed:balance_usd: /m);
      expect(out).toMatch(/^ok: 3 runs held \(at most 12 commands each, \d+ sent\)$/m);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  test('through its URL (the serve announces its dialect): the same check through the dialect', async () => {
    const urls = (await deployedServe()).urls;
    const { code, out } = await run([
      '--target',
      urls.casino as string,
      '--seed',
      '3',
      '--runs',
      '2',
      '--max-commands',
      '15',
    ]);
    expect(code).toBe(0);
    expect(out).toMatch(
      /through its dialects: casino deployed, domains deployed, escrow deployed, faucet deployed, trading deployed, wallet deployed$/m,
    );
  });

  test('the deployment’s MCP release, which pays nobody: found as the counterparty’s balance, after a release through the door', async () => {
    const urls = (await deployedServe(['mcp-release-credits-nobody'])).urls;
    const directory = await mkdtemp(join(tmpdir(), 'afp-dialect-check-'));
    try {
      const file = await casinoEscrowFile(urls, directory);
      const { code, out } = await run(['--target', file, '--seed', '4', '--runs', '40', '--max-commands', '12']);
      expect(code, out).toBe(3);
      // Named at the release itself: the counterparty's balance is read there.
      expect(out).toMatch(
        /^(?:error|first failure, before shrinking .*?): escrowReleaseThroughMcp\(escrow#\d\): the counterparty's balance after the release of escrow \S+: /m,
      );
      // The notes name the money paths no command exercises.
      for (const path of [
        'operation faucet.claim',
        'operation escrow.refund',
        'operation escrow.dispute',
        'escrow expiry',
      ])
        expect(out).toContain(`note: ${path}`);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
