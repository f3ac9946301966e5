// `afp check --target` against a live afp server on loopback (started in this process with a
// manual clock): a faithful server holds, a server with the escrow-fee-2pct defect answers exit 3
// with a shrunk sequence; a wall-clock server disables advance-time and says why. One case runs
// both as real processes (`node src/cli/main.ts serve` and `... check --target`).
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/check/run-check.ts';
import { main as checkEnding } from '../../src/cli/check.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { DEFAULT_CONFIG } from '../../src/services/shared/config.ts';
import type { DefectName } from '../../src/services/shared/context.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import type { ClockMode } from '../../src/server/serve-clock.ts';
import { LOOPBACK_PROXIES, NO_PROXIES, type TrustedProxies } from '../../src/http/trusted-proxies.ts';
import { TRUST_LOOPBACK_ARGS } from '../fixtures/serve-child.ts';
import { coded } from '../cli/ending-code.ts';

const main = coded(checkEnding);

const handles: ServeHandle[] = [];

afterEach(async () => {
  while (handles.length > 0) await handles.pop()?.close({ forceAfterMs: 1_000 });
});

const KEYLESS_429_NOTE =
  "a 429 to a request without a key is accepted, not a mismatch: the target does not say it counts the check's fresh originating addresses (an afp serve's GET /_afp/mounts says `forwarded_for: trusted` under --trust-proxy), so those requests share this host's per-IP budget with earlier runs and other clients";

/** What a serve was started with beyond the defaults: fault windows, game closures, a config. */
type ServeSettings = Pick<Parameters<typeof startServe>[0], 'faults' | 'closures' | 'config'>;

async function serve(
  clockMode: ClockMode,
  defects: readonly DefectName[] = [],
  trustedProxies: TrustedProxies = LOOPBACK_PROXIES,
  settings: ServeSettings = {},
): Promise<string> {
  const handle = await startServe({
    trustedProxies,
    routes: ALL_ROUTES,
    seed: '7',
    port: 0,
    clockMode,
    startMs: Date.parse('2025-03-01T09:30:00.000Z'),
    defects,
    log: () => undefined,
    ...settings,
  });
  handles.push(handle);
  const api = handle.urls.api;
  if (api === undefined) throw new Error('afp serve has an api mount');
  return api;
}

async function check(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (text) => (out += text), err: (text) => (err += text) });
  return { code, out, err };
}

describe('afp check --target (live afp server)', () => {
  it('holds against a faithful server with a manual clock, naming the skipped pool assertions', async () => {
    const url = await serve('manual');
    const { code, out, err } = await check(['--target', url, '--seed', '4', '--runs', '15']);
    // Nothing on stderr but the progress line a slow machine may draw (src/cli/progress.ts: every 10 s off a terminal).
    expect(err.split('\n').filter((line) => line !== '' && !line.startsWith('check: '))).toEqual([]);
    expect(code).toBe(0);
    expect(out.split('\n')[0]).toBe('seed: 4');
    expect(out).toContain('manual clock');
    expect(out).toMatch(/^note: pool-balance assertions skipped: /m);
    expect(out).not.toMatch(/advance-time commands disabled/);
    expect(out).toMatch(/^ok: 15 runs held/m);
  });

  it('runs twice against the same server without the runs meeting each other', async () => {
    const url = await serve('manual');
    expect((await check(['--target', url, '--seed', '4', '--runs', '5'])).code).toBe(0);
    expect((await check(['--target', url, '--seed', '4', '--runs', '5'])).code).toBe(0);
  });

  it("holds against a server that does not count the check's fresh addresses (no --trust-proxy), run after run", async () => {
    // Every keyless request shares 127.0.0.1's per-IP budget (10 registrations a minute on a clock
    // that moves only when the check moves it): the model cannot see what earlier runs spent, so a
    // 429 to one is accepted (it exited 3 before, `registerB(new): expected 201, got 429`).
    const url = await serve('manual', [], NO_PROXIES);
    for (const seed of ['5', '6']) {
      const { code, out } = await check(['--target', url, '--seed', seed, '--runs', '45']);
      expect(code, out).toBe(0);
      expect(out).toContain(`note: ${KEYLESS_429_NOTE}`);
      // How many went unjudged, said once the runs are over: the second check meets the budget the first spent.
      if (seed === '6')
        expect(out).toMatch(
          /^note: [1-9]\d* request\(s\) without a key were answered 429 by this host's shared per-IP budget and not judged/m,
        );
    }
    // The rule still binds where the check can see it: a server that counts the fresh addresses says so, and gets no such note.
    const trusted = await serve('manual');
    const { code, out } = await check(['--target', trusted, '--seed', '5', '--runs', '5']);
    expect(code).toBe(0);
    expect(out).not.toContain(KEYLESS_429_NOTE);
  });

  it("holds against a serve started with a scenario's settings: fault windows, game closures, the release dispute outcome, a short domain year", async () => {
    // The model reads them from GET /_afp/platform instead of assuming the defaults: before, a
    // faucet fault was `registerB(new): expected 201, got 500` and a disputed escrow's timeout
    // `expected 10, got 9` (the model refunded where the serve releases).
    const startMs = Date.parse('2025-03-01T09:30:00.000Z');
    const hourMs = 3_600_000;
    const url = await serve('manual', [], LOOPBACK_PROXIES, {
      faults: [
        { service: 'faucet', fromMs: startMs + 2 * hourMs, untilMs: startMs + 30 * hourMs, status: 500 },
        { service: 'escrow', fromMs: startMs + 40 * hourMs, untilMs: startMs + 60 * hourMs, status: 503 },
      ],
      closures: [
        { game: 'coin_flip', fromMs: startMs, untilMs: startMs + 400 * hourMs },
        { game: 'dice', fromMs: startMs + 10 * hourMs, untilMs: startMs + 90 * hourMs },
      ],
      config: {
        ...DEFAULT_CONFIG,
        escrow: { ...DEFAULT_CONFIG.escrow, disputeOutcome: 'release' },
        domains: { ...DEFAULT_CONFIG.domains, yearMs: 200 * 24 * hourMs, graceMs: 10 * 24 * hourMs },
      },
    });
    for (const seed of ['1', '2', '3']) {
      const { code, out } = await check(['--target', url, '--seed', seed, '--runs', '60']);
      expect(code, out).toBe(0);
      expect(out).toMatch(
        /^note: an answer with a fault window's status inside that window is the fault, not judged: /m,
      );
      expect(out).toContain('casino coin_flip 409 GAME_CLOSED');
    }
  });

  it('exits 3 against a server with the escrow-fee-2pct defect, with a shrunk sequence and the reproduce command', async () => {
    const url = await serve('manual', ['escrow-fee-2pct']);
    const dir = await mkdtemp(join(tmpdir(), 'afp-check-live-'));
    const { code, out } = await check(['--target', url, '--seed', '2', '--runs', '30', '--out', dir]);
    expect(code).toBe(3);
    // The failing step's request, as a curl with the key as $AFP_KEY (never literal).
    expect(out).toMatch(/^request: POST http:\/\/127\.0\.0\.1:\d+\/\S+$/m);
    expect(out).toMatch(/^curl: curl -sS -X POST '.*' -H "Authorization: Bearer \$AFP_KEY" --data '.*'$/m);
    expect(out).not.toMatch(/Bearer [a-z0-9_]{12,}/i);
    // The reports say what the exit code says: FAILED, the mismatch, its reproduce command and request (not "passed").
    const report = JSON.parse(await readFile(join(dir, 'findings.json'), 'utf8')) as {
      verdict: string[];
      failure: { summary: string; reproduce: string; request: string } | null;
    };
    expect(report.verdict[0]).toMatch(/^verdict: FAILED — an answer differs from the model: .*body\.fee: expected/);
    expect(report.failure?.reproduce).toMatch(/^npx afp check --seed 2 --path \S+ --target /);
    expect(report.failure?.request).toContain('$AFP_KEY');
    for (const file of ['findings.junit.xml', 'findings.html'])
      expect(await readFile(join(dir, file), 'utf8')).toContain('verdict: FAILED — an answer differs from the model');
    await rm(dir, { recursive: true, force: true });
    const steps = out.split('\n').filter((line) => /^ {2}\d+\. /.test(line));
    expect(steps.length).toBeGreaterThanOrEqual(3);
    expect(steps.length).toBeLessThanOrEqual(6);
    // The domains rows fund a buyer through escrows (fundBuyer): the error still names the escrow command inside it.
    expect(steps.at(-1)).toMatch(/(?:createEscrow[AB]|fundBuyer)\(/);
    expect(out).toMatch(/^error: createEscrow[AB]\(.*body\.fee: expected/m);
    expect(out).toMatch(
      new RegExp(`^reproduce: npx afp check --seed 2 --path \\S+ --target ${url.replace(/[.]/g, '\\.')}$`, 'm'),
    );
  });

  it('disables advance-time against a wall-clock server and says why', async () => {
    const url = await serve('wall');
    const { code, out } = await check(['--target', url, '--seed', '6', '--runs', '10']);
    expect(code).toBe(0);
    expect(out).toMatch(/^note: advance-time commands disabled: the target's clock runs in 'wall' mode/m);
    expect(out).toMatch(/^note: time fields compared within ±5 min/m);
  });

  it('exits 4 (liveness) when the target does not answer', async () => {
    const url = await serve('manual');
    await handles.pop()?.close({ forceAfterMs: 0 });
    const { code, err } = await check(['--target', url, '--seed', '1', '--runs', '1']);
    expect(code).toBe(4);
    expect(err).toMatch(/does not answer/);
  });
});

/** A reverse proxy to `upstream` that hides afp's own endpoints, as a foreign deployment would. */
async function foreignProxy(upstream: string): Promise<string> {
  const target = new URL(upstream);
  const proxy = createServer((incoming, outgoing) => {
    if (incoming.url?.startsWith('/_afp/') === true) {
      outgoing.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found","code":"NOT_FOUND"}');
      return;
    }
    const forwarded = request(
      {
        host: target.hostname,
        port: target.port,
        path: incoming.url,
        method: incoming.method,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  handles.push({ close: () => new Promise<void>((resolve) => proxy.close(() => resolve())) } as ServeHandle);
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

describe('runCheck against a target that is not an afp server', () => {
  it('names every skipped capability and still finds escrow-fee-2pct through style B alone', async () => {
    const url = await foreignProxy(await serve('wall', ['escrow-fee-2pct']));
    const result = await runCheck({ target: url, seed: 3, runs: 30 });
    expect(result.notes).toEqual([
      'pool-balance assertions skipped: a live target shares its faucet pool with every other client',
      'style-A commands skipped: the target announces no faucet and escrow mounts (GET /_afp/mounts); balances are read through GET /status',
      'advance-time commands disabled: the target has no GET /_afp/clock (answered 404)',
      "time fields compared within ±5 min and escrows shorter than 1 h not created: the target's time is estimated",
      'casino deposits skipped (so no withdrawal reaches the 1,000 review threshold): a live target credits deposits only from a chain; agents are funded by the faucet alone',
      'casino style-A commands skipped: the target announces no casino mount (GET /_afp/mounts); only style-B bets and verifications (/casino-api) run',
      'domains commands skipped: the target announces no domains mount (GET /_afp/mounts)',
      'trading commands skipped: they need the trading mount (GET /_afp/mounts) and a manual clock (a quote and the order must meet the same price tick)',
      'wallet commands skipped: they need the wallet mount (GET /_afp/mounts), a manual clock (block instants) and POST /_afp/wallet/mint (afp serve)',
      KEYLESS_429_NOTE,
    ]);
    expect(result.ok).toBe(false);
    // fundBuyer (a domains row made of escrow commands) creates its escrows by createEscrowB too.
    expect(result.failure?.commands.at(-1)).toMatch(/^(?:createEscrowB|fundBuyer)\(/);
    expect(result.failure?.commands.every((command) => !/^(?:\w+A\(|advanceTime)/.test(command))).toBe(true);
  });
});

describe('afp check as processes (node src/cli/main.ts)', () => {
  it('exits 3 against a spawned `afp serve --clock manual --defect escrow-fee-2pct`', async () => {
    const root = new URL('../../', import.meta.url).pathname;
    const server = spawn(
      process.execPath,
      [
        'src/cli/main.ts',
        'serve',
        ...TRUST_LOOPBACK_ARGS,
        '--port',
        '0',
        '--clock',
        'manual',
        '--start',
        '2025-03-01T09:30:00Z',
        '--defect',
        'escrow-fee-2pct',
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const exited = once(server, 'exit');
    try {
      let printed = '';
      let failed = '';
      server.stdout.setEncoding('utf8');
      server.stderr.setEncoding('utf8');
      server.stderr.on('data', (chunk: string) => (failed += chunk));
      const ready = new Promise<void>((resolve) => {
        server.stdout.on('data', (chunk: string) => {
          printed += chunk;
          if (/^ready$/m.test(printed)) resolve();
        });
      });
      await Promise.race([
        ready,
        exited.then(() => Promise.reject(new Error(`afp serve exited before ready: ${failed}`))),
      ]);
      const url = /^api: (\S+)$/m.exec(printed)?.[1];
      expect(url).toBeDefined();
      const checker = spawn(
        process.execPath,
        ['src/cli/main.ts', 'check', '--target', url as string, '--seed', '2', '--runs', '20'],
        { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let out = '';
      checker.stdout.setEncoding('utf8');
      checker.stdout.on('data', (chunk: string) => (out += chunk));
      const [exitCode] = (await once(checker, 'exit')) as [number];
      expect(out.split('\n')[0]).toBe('seed: 2');
      expect(out).toMatch(/^shrunk command sequence/m);
      expect(exitCode).toBe(3);
    } finally {
      server.kill('SIGTERM');
      await exited;
    }
  });
});
