// Issue 68 part 7: the slow probes on any target, across two runs. `afp audit money --include-slow
// --resume-file F` opens the expiry and dispute escrows and leaves them, writing F (mode 0600, no
// key in it); `afp audit money --resume F`, run before they are due, says when they are (exit 4);
// run 49 h later (here the serve's manual clock, moved as a CI schedule's days would pass) it judges
// them as a run that waited does. F is refused for other accounts and for another target (exit 2).
// In-process: `afp serve --dialect deployed` on loopback, targets/deployed.yaml pointed at it.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { WaitClock } from '../../src/core/clock.ts';
import { parseMoneyArgs, runMoney } from '../../src/cli/audit-money.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { deployedTargetText } from '../fixtures/deployed-target.ts';
import { sink } from '../fixtures/audit-sink.ts';
import { codeOf } from '../cli/ending-code.ts';

const START_MS = Date.parse('2025-03-01T00:00:00Z');
const HOUR_MS = 3_600_000;
const DIR = mkdtempSync(join(tmpdir(), 'afp-resume-'));
const handles: ServeHandle[] = [];
afterAll(async () => {
  for (const handle of handles) await handle.close({ forceAfterMs: 0 });
  rmSync(DIR, { recursive: true, force: true });
});

const post = async (url: string, body: unknown): Promise<Record<string, unknown>> =>
  (await (
    await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  ).json()) as Record<string, unknown>;

async function stand(): Promise<{ casino: string; targetFile: string; clock: WaitClock; key: () => Promise<string> }> {
  const handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: DEPLOYED_ROUTES,
    layout: DEPLOYED_LAYOUT,
    seed: '31',
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    log: () => undefined,
  });
  handles.push(handle);
  const casino = handle.urls.casino as string;
  const targetFile = join(DIR, 'deployed.yaml');
  writeFileSync(targetFile, deployedTargetText(handle.urls));
  let nowMs = START_MS;
  const clock: WaitClock = {
    nowMs: () => nowMs,
    sleep: async (ms) => {
      nowMs += ms;
      await post(`${casino}/_afp/clock`, { to_ms: nowMs });
    },
  };
  const key = async (): Promise<string> => {
    const registered = await post(`${casino}/api/v1/auth/register`, { agent_name: 'auditor' });
    const deposit = await post(`${casino}/_afp/casino/deposit`, {
      agent_id: registered['agent_id'],
      chain: 'solana',
      amount: '30',
    });
    nowMs = Math.max(nowMs, deposit['confirm_at_ms'] as number);
    await post(`${casino}/_afp/clock`, { to_ms: nowMs });
    return registered['api_key'] as string;
  };
  return { casino, targetFile, clock, key };
}

async function money(served: { clock: WaitClock }, argv: readonly string[]): Promise<{ code: number; text: string }> {
  const flags = parseMoneyArgs([...argv, '--quiet'], START_MS);
  if ('errors' in flags) throw new Error(flags.errors.join('; '));
  const printed = sink();
  const code = await codeOf(runMoney(flags, printed.io, served.clock), printed.io);
  return { code, text: printed.text() };
}

describe('afp audit money --resume-file, then --resume', () => {
  test('escrows left, refused early and for others, judged once due', async () => {
    const served = await stand();
    const [key, second] = [await served.key(), await served.key()];
    const file = join(DIR, 'slow.json');
    const accounts = ['--target', served.targetFile, '--key', key, '--second-key', second];
    // The expiry (1 h + the sweep) fits the default 90 minutes: judged now; the 48 h dispute is left.
    const left = await money(served, [
      ...accounts,
      '--include-slow',
      '--resume-file',
      file,
      '--out',
      join(DIR, 'left'),
    ]);
    expect(left.text).toMatch(/ran +escrow-expiry: escrow \S+ of 0\.10 /);
    expect(left.text).toMatch(/ran +escrow-dispute: escrow \S+ opened and left: due 2025-/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const written = readFileSync(file, 'utf8');
    expect(written).not.toContain(key);
    expect(written).not.toContain(second);
    const document = JSON.parse(written) as { afp_resume: number; escrows: Array<{ name: string; due_at_ms: number }> };
    expect(document.afp_resume).toBe(1);
    expect(document.escrows.map((escrow) => escrow.name)).toEqual(['escrow-dispute']);

    const early = await money(served, [...accounts, '--resume', file, '--out', join(DIR, 'early')]);
    expect(early.code, early.text).toBe(4);
    expect(early.text).toMatch(/skipped escrow-dispute: escrow \S+ is not due until 2025-/);

    const stranger = await served.key();
    const wrong = await money(served, [
      '--target',
      served.targetFile,
      '--key',
      stranger,
      '--second-key',
      second,
      '--resume',
      file,
    ]);
    expect(wrong.code).toBe(2);
    expect(wrong.text).toContain('its escrows belong to');
    const elsewhere = join(DIR, 'elsewhere.json');
    writeFileSync(elsewhere, written.replace(/"target": "[^"]+"/, '"target": "http://127.0.0.1:9"'));
    const other = await money(served, [...accounts, '--resume', elsewhere]);
    expect(other.code).toBe(2);
    expect(other.text).toContain('written for http://127.0.0.1:9, not this target');

    // Two days pass on the target (a CI schedule's wait): the dispute is due, and judged as a waiting run would.
    await served.clock.sleep(49 * HOUR_MS);
    const resumed = await money(served, [...accounts, '--resume', file, '--out', join(DIR, 'resumed')]);
    expect(resumed.text).toMatch(/ran +escrow-dispute: escrow \S+ of 0\.10 disputed, then \w+; the parties got 0\.1/);
    expect(resumed.text).not.toContain('not due');
    expect(resumed.code, resumed.text).toBe(0);
  });

  test('a resume file that is not one, or of another version, is refused with one line', async () => {
    const served = await stand();
    const [key, second] = [await served.key(), await served.key()];
    const accounts = ['--target', served.targetFile, '--key', key, '--second-key', second];
    const garbage = join(DIR, 'garbage.json');
    writeFileSync(garbage, '{"afp_resume": 2}');
    const refused = await money(served, [...accounts, '--resume', garbage]);
    expect(refused.code).toBe(2);
    expect(refused.text).toContain('afp_resume is 2, not 1');
    expect(parseMoneyArgs(['--target', 'x.yaml', '--resume', garbage], START_MS)).toEqual({
      errors: ['--resume judges the escrows of the two accounts that opened them: give their --key and --second-key'],
    });
    expect(parseMoneyArgs(['--target', 'x.yaml', '--resume-file', garbage], START_MS)).toEqual({
      errors: [
        "--resume-file leaves the slow probes' escrows for later: it needs --include-slow",
        '--resume-file leaves escrows that --resume judges with the same two accounts: give their --key and --second-key',
      ],
    });
    // Accounts afp would open itself have keys no one keeps: their escrows could never be resumed.
    expect(
      parseMoneyArgs(['--target', 'x.yaml', '--key', 'k', '--include-slow', '--resume-file', garbage], START_MS),
    ).toEqual({
      errors: [
        '--resume-file leaves escrows that --resume judges with the same two accounts: give their --key and --second-key',
      ],
    });
  });
});
