// `afp audit money --target URL` against a manual-clock `afp serve --dialect deployed` (real
// listeners on loopback, port 0), given a wall clock that does not move the serve (as the CLI's
// own does not). The deployment's fixed windows (wallet.swap 30 a minute per address, a withdrawal
// 5) run on the serve's clock, which stands still unless moved: the audit waits them out on that
// clock (remote-serve-clock.ts, as afp check does), so it ends within its budget, skips no probe
// for time, and reads no frozen window as a stricter limit. Before, it waited on the wall for
// windows that never closed: 615 s of 429s on wallet.swap, mcp-faucet-cooldown skipped for the
// budget, exit 0; with --include-slow a spurious minor "stricter than 5/min" withdrawal limit.
// A probe the budget skips ends the run with exit 4, naming it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { WaitClock } from '../../src/core/clock.ts';
import type { AuditIo } from '../../src/cli/audit-io.ts';
import { parseMoneyArgs, runMoney } from '../../src/cli/audit-money.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { LOOPBACK_PROXIES, NO_PROXIES } from '../../src/http/trusted-proxies.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { manualServes } from '../fixtures/manual-serves.ts';
import { codeOf } from './ending-code.ts';

const START_MS = Date.parse('2025-03-01T00:00:00Z');
const DIR = mkdtempSync(join(tmpdir(), 'afp-money-serve-clock-'));
const serveOf = (trustedProxies: typeof LOOPBACK_PROXIES) =>
  manualServes(
    { trustedProxies, routes: DEPLOYED_ROUTES, layout: DEPLOYED_LAYOUT, seed: '5', startMs: START_MS },
    { forceAfterMs: 0 },
  );
const serveTrusting = serveOf(LOOPBACK_PROXIES);
const serveNotTrusting = serveOf(NO_PROXIES);
let runs = 0;
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

/** A wall clock in virtual time: its sleeps pass at once and never touch the serve. */
function stillWall(): WaitClock & { waitedMs: () => number } {
  let nowMs = START_MS;
  return { nowMs: () => nowMs, sleep: async (ms) => void (nowMs += Math.max(0, ms)), waitedMs: () => nowMs - START_MS };
}

async function audit(
  extra: readonly string[],
  trustProxy = true,
): Promise<{ code: number; out: string; err: string; wallMs: number; findings: string }> {
  const handle = await (trustProxy ? serveTrusting : serveNotTrusting)();
  const out = join(DIR, `run-${(runs += 1)}-${extra.join('')}`);
  const flags = parseMoneyArgs(['--target', handle.urls.casino as string, '--out', out, ...extra], START_MS);
  if ('errors' in flags) throw new Error(flags.errors.join('; '));
  let text = '';
  let err = '';
  const io: AuditIo = { out: (chunk) => void (text += chunk), err: (chunk) => void (err += chunk) };
  const wall = stillWall();
  const code = await codeOf(runMoney({ ...flags, quiet: true }, io, wall), io);
  return { code, out: text, err, wallMs: wall.waitedMs(), findings: readFileSync(join(out, 'findings.json'), 'utf8') };
}

describe('afp audit money on a manual-clock deployed serve', () => {
  test('waits on the serve clock: no wall waiting, no probe skipped for time, no frozen window read as a limit', async () => {
    const ran = await audit(['--include-slow', '--max-minutes', '5']);
    const text = ran.out + ran.err;
    expect(ran.err).toMatch(/is an afp serve on a manual clock: paces and 429 waits move its clock forward/);
    expect(ran.wallMs, text).toBe(0);
    expect(text).not.toMatch(/time budget ran out/);
    expect(ran.out).toMatch(/^ran {5}mcp-faucet-cooldown: /m);
    expect(ran.out).toMatch(/^ran {5}wallet-documented: /m);
    // Measured on the serve's clock, the deployment keeps the target file's 5 withdrawals a minute.
    expect(ran.findings).not.toContain('limit:casino.withdraw:rate-limited');
    expect([0, 3], text).toContain(ran.code);
  });

  test('a probe the time budget skips ends the run with exit 4, named', async () => {
    // Without --trust-proxy every registration counts against one address: the MCP probe's fresh
    // agents meet the serve's per-IP registration window, whose wait a 1-second budget cannot hold.
    const ran = await audit(['--max-seconds', '1'], false);
    const text = ran.out + ran.err;
    const stopped = /^stopped: the time budget ran out before these could run: (.+) \(raise --max-seconds\)$/m.exec(
      ran.out,
    );
    expect(stopped, text).not.toBeNull();
    const named = (stopped?.[1] ?? '').split(', ');
    // Here the second account's registration and the MCP probe's fresh agents met the window.
    expect(named).toContain('the second account (and the probes it serves)');
    expect(named).toContain('mcp-faucet-cooldown');
    for (const name of named.filter((entry) => !entry.startsWith('the second account')))
      expect(ran.out).toMatch(new RegExp(`^skipped ${name}: `, 'm'));
    expect(ran.code, text).toBe(4);
  });
});
