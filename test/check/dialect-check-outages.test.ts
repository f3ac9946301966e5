// A deployed stand-in started with fault windows (what `afp serve --scenario` with `faults:` serves,
// listed at GET /_afp/platform): `afp check --target URL` skips a command whose answer is the
// outage the serve was told to give (its escrow answering 503), says so in a note, and the run
// holds (exit 0). Before, "refused 503 service_unavailable …, expected it accepted" failed the run
// (exit 3, "an answer differs from the model"). `afp audit money`'s double-spend probe, whose five
// escrows all met the outage, is skipped with the reason instead of "ran: 0 of 5 accepted".
// A 503 outside any announced window is still judged. Real loopback listeners, a manual clock.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { main as checkEnding } from '../../src/cli/check.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { deployedLayout } from '../../src/server/deployed-layout.ts';
import { adminFundedTargetText } from '../fixtures/deployed-target.ts';
import { manualServes } from '../fixtures/manual-serves.ts';
import { moneyAudit } from '../fixtures/money-audit.ts';
import { rewritingProxy } from '../fixtures/rewriting-proxy.ts';
import { coded } from '../cli/ending-code.ts';

const checkMain = coded(checkEnding);

const START_MS = Date.parse('2026-02-01T00:00:00.000Z');
const HOUR_MS = 3_600_000;
const DIR = mkdtempSync(join(tmpdir(), 'afp-outages-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const SERVE = {
  trustedProxies: LOOPBACK_PROXIES,
  routes: DEPLOYED_ROUTES,
  layout: deployedLayout({ floatMoney: false, limitsLifted: true }),
  seed: '3',
  startMs: START_MS,
} as const;
const serve = manualServes({
  ...SERVE,
  faults: [{ service: 'escrow', fromMs: START_MS, untilMs: START_MS + 6 * HOUR_MS, status: 503 }],
});
const plainServe = manualServes(SERVE);

async function check(url: string): Promise<{ code: number; text: string }> {
  let text = '';
  const code = await checkMain(['--target', url, '--seed', '4', '--runs', '10', '--out', join(DIR, 'check')], {
    out: (chunk) => void (text += chunk),
    err: (chunk) => void (text += chunk),
  });
  return { code, text };
}

describe('a target’s announced fault windows', () => {
  test('afp check --target skips the commands that met them, says so, and the run holds (exit 0)', async () => {
    const handle = await serve();
    const { code, text } = await check(handle.urls.casino as string);
    expect(code, text).toBe(0);
    expect(text).toMatch(/^note: a 500 or 503 inside one of the target's 1 fault window\(s\)/m);
    expect(text).toMatch(/^note: \d+ command\(s\) met the target's fault windows and were skipped: .*escrowCreate/m);
    expect(text).toMatch(/^ok: 10 runs held/m);
  });

  test('a 503 no announced window explains is still judged (exit 3)', async () => {
    const handle = await plainServe();
    const casino = handle.urls.casino as string;
    // The escrow's creations answered 503 by a proxy: the serve lists no fault window.
    const proxy = await rewritingProxy(handle.urls.escrow as string, (request, answer) =>
      request.method === 'POST' && request.path.includes('/escrow/create')
        ? { status: 503, text: '{"error":"service_unavailable","message":"escrow is temporarily offline"}' }
        : answer.text,
    );
    try {
      const file = join(DIR, 'proxied.yaml');
      writeFileSync(file, adminFundedTargetText('proxied', { casino, escrow: proxy.url }, casino));
      const { code, text } = await check(file);
      expect(code, text).toBe(3);
      expect(text).toMatch(/refused 503 service_unavailable \(escrow is temporarily offline\), expected it accepted/);
    } finally {
      await proxy.close();
    }
  });

  test('afp audit money: the double-spend probe whose escrows all met the outage is skipped, with the reason', async () => {
    const handle = await serve();
    const audit = await moneyAudit(handle.urls.casino as string, join(DIR, 'money'), START_MS);
    expect(audit.code, audit.text).toBe(0);
    expect(audit.text).toMatch(
      /^skipped double-spend: none of 5 escrows of \d+\.\d+ on \d+\.\d+ was accepted \(refused 503 service_unavailable\): no double spend could be tried$/m,
    );
  });
});
