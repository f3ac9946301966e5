// `afp audit money --include-slow --max-minutes N` end to end against a real `afp serve` on loopback
// (manual clock, moved through its admin doors): the plan is printed before the slow probes run;
// the documents' serve settles both escrows as the documents say (exit 0); the deployed stand-in
// configured as the deployment (DEPLOYED.md §4: the refund keeps the commission, a dispute never
// resolves) gives a money finding and a liveness finding naming the escrow — exit 3 (findings),
// not 4 (the command finished). --max-minutes without --include-slow is invalid (exit 2 data).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import type { WaitClock } from '../../src/core/clock.ts';
import type { AuditIo } from '../../src/cli/audit-io.ts';
import { parseMoneyArgs, runMoney } from '../../src/cli/audit-money.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import type { DefectName } from '../../src/services/shared/context.ts';
import { START_MS } from '../client/fixtures.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { codeOf } from './ending-code.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-money-slow-'));
const handles: ServeHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close({ forceAfterMs: 0 });
});
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

async function money(
  deployed: boolean,
  defects: readonly DefectName[],
  out: string,
): Promise<{ code: number; out: string; err: string }> {
  const handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: deployed ? DEPLOYED_ROUTES : ALL_ROUTES,
    ...(deployed ? { layout: DEPLOYED_LAYOUT } : {}),
    seed: '9',
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    defects,
    log: () => undefined,
  });
  handles.push(handle);
  const target = (deployed ? handle.urls.casino : handle.urls.api) as string;
  // A clock whose sleeps move the serve's manual clock forward (the rate-limit windows run on it).
  let nowMs = START_MS;
  const clock: WaitClock = {
    nowMs: () => nowMs,
    sleep: async (ms) => {
      nowMs += ms;
      await fetch(`${target}/_afp/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ advance_ms: Math.ceil(ms) }),
      });
    },
  };
  const flags = parseMoneyArgs(
    ['--target', target, '--include-slow', '--max-minutes', '5', '--out', join(DIR, out)],
    START_MS,
  );
  if ('errors' in flags) throw new Error(flags.errors.join('; '));
  let text = '';
  let err = '';
  const io: AuditIo = { out: (chunk) => void (text += chunk), err: (chunk) => void (err += chunk) };
  const code = await codeOf(runMoney(flags, io, clock), io);
  return { code, out: text, err };
}

describe('afp audit money --include-slow', () => {
  test('the documents serve: the plan first (time travel), both escrows settle as documented, exit 0', async () => {
    const ran = await money(false, [], 'documents');
    expect(ran.code, ran.out + ran.err).toBe(0);
    const lines = ran.out.split('\n');
    const plan = lines.findIndex((line) => line.startsWith('plan: escrow-expiry waits for a full refund, no fee'));
    expect(plan).toBeGreaterThan(-1);
    expect(lines[plan + 2]).toMatch(/^plan: time travel: the afp serve's clock is moved forward/);
    expect(lines.findIndex((line) => line.startsWith('wait: escrow-expiry'))).toBeGreaterThan(plan);
    expect(ran.out).toMatch(/^ran {5}escrow-expiry: escrow esc_\w+ of 0\.10 expired; the creator got 0\.10 back$/m);
    expect(ran.out).toMatch(
      /^ran {5}escrow-dispute: escrow esc_\w+ of 0\.10 disputed, then refunded; the parties got 0\.10$/m,
    );
  });

  test('the deployed stand-in as the deployment: the kept commission is a minor rule finding, the open dispute a major one, exit 3', async () => {
    const ran = await money(true, ['escrow-expiry-keeps-fee', 'escrow-dispute-stuck'], 'deployed');
    expect(ran.code, ran.out + ran.err).toBe(3);
    expect(ran.out).toContain(
      'plan: escrow-expiry waits for a full refund, no fee, of an escrow at the shortest expiry the target allows (1 h + 5 min sweep;',
    );
    const stuck = /^ran {5}escrow-dispute: escrow (esc_\w+) still disputed after 48 h 2 s — 1 findings$/m.exec(ran.out);
    expect(stuck).not.toBeNull();
    expect(ran.out).toContain(
      `major liveness:escrow:unsettled: 1 escrow(s) did not settle within their wait: ${stuck?.[1] ?? ''}`,
    );
    expect(ran.out).toContain(
      'minor rule:escrow:expiry-keeps-fee: an expired escrow refunded 0.099 of 0.10: the target keeps the 0.001 commission its creation stated',
    );
    expect(ran.out).not.toContain('money:escrow:expiry-refund-short');
    const junit = readFileSync(join(DIR, 'deployed', 'findings.junit.xml'), 'utf8');
    expect(junit).toContain('name="escrow-expiry"');
    expect(junit).toContain('name="escrow-dispute"');
  });

  test('--max-minutes needs --include-slow and is bounded', () => {
    expect(parseMoneyArgs(['--target', 'http://127.0.0.1:9', '--max-minutes', '5'], START_MS)).toEqual({
      errors: ['--max-minutes bounds the slow probes: it needs --include-slow'],
    });
    expect(
      parseMoneyArgs(['--target', 'http://127.0.0.1:9', '--include-slow', '--max-minutes', '0'], START_MS),
    ).toEqual({ errors: ["--max-minutes must be a whole number from 1 to 4320, got '0'"] });
    expect(parseMoneyArgs(['--target', 'http://127.0.0.1:9', '--include-slow'], START_MS)).toMatchObject({
      includeSlow: true,
      maxMinutes: 90,
    });
  });
});
