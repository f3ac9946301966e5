// Issue 68 part 7 as a user meets it: `afp audit money --target URL --include-slow --max-minutes 5
// --resume-file F` against a manual-clock `afp serve`, on a wall clock that never moves the serve
// (as the CLI's does not), then the serve's clock moved 49 h through its admin door (POST
// /_afp/clock, as a CI schedule's two days pass on a deployment), then `--resume F`. The waits are
// not held: the escrow whose wait the 5 minutes cannot hold is opened and left in F (mode 0600, no
// key in it, bound to the target's origin and dialect, its due instant on the serve's clock), and the
// run says the command that resumes it. Early, --resume exits 4 naming the instant; once due it
// judges the escrow as a waiting run does: the documents' serve settles it as documented (no
// finding); the deployed stand-in with `escrow-expiry-keeps-fee` refunds the expired escrow short by
// its commission (a minor rule finding). Dates are read from F and the serve, never hard-coded.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { Deadline } from '../../src/core/deadline.ts';
import { AdminClient } from '../../src/client/admin-client.ts';
import { parseMoneyArgs, runMoney } from '../../src/cli/audit-money.ts';
import type { WaitClock } from '../../src/core/clock.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { openLiveAccount } from '../../src/live/live-account.ts';
import { LiveSession } from '../../src/live/live-session.ts';
import { resolveTarget } from '../../src/live/resolve-target.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import type { ServeHandle } from '../../src/server/listeners.ts';
import { manualServes, movingClock } from '../fixtures/manual-serves.ts';
import { sink } from '../fixtures/audit-sink.ts';
import { codeOf } from '../cli/ending-code.ts';

const START_MS = Date.parse('2025-03-01T00:00:00Z');
const HOUR_MS = 3_600_000;
const DIR = mkdtempSync(join(tmpdir(), 'afp-resume-serves-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const serves = {
  documents: manualServes(
    { trustedProxies: LOOPBACK_PROXIES, routes: ALL_ROUTES, seed: '41', startMs: START_MS },
    { forceAfterMs: 0 },
  ),
  deployed: manualServes(
    {
      trustedProxies: LOOPBACK_PROXIES,
      routes: DEPLOYED_ROUTES,
      layout: DEPLOYED_LAYOUT,
      seed: '41',
      startMs: START_MS,
      defects: ['escrow-expiry-keeps-fee'],
    },
    { forceAfterMs: 0 },
  ),
};

/** A wall clock in virtual time that never touches the serve (the CLI's own does not). */
function stillWall(): WaitClock {
  let nowMs = START_MS;
  return { nowMs: () => nowMs, sleep: async (ms) => void (nowMs += Math.max(0, ms)) };
}

/** Two funded accounts opened the target's own way (its dialect's registration, an admin deposit); their keys. */
async function twoKeys(url: string, adminUrl: string): Promise<[string, string]> {
  const resolved = await resolveTarget(url);
  if (!resolved.ok) throw new Error(resolved.message);
  const clock = movingClock(adminUrl, START_MS);
  const session = new LiveSession({ target: resolved.value, clock, deadline: new Deadline(clock, 3_600) });
  const keys: string[] = [];
  for (const fundMicro of [50_000_000n, 1_000_000n]) {
    const opened = await openLiveAccount({ session, key: null, fundMicro, clock, deadline: new Deadline(clock, 600) });
    if (!opened.ok) throw new Error(opened.message);
    keys.push(opened.value.apiKey);
  }
  return [keys[0] as string, keys[1] as string];
}

async function money(argv: readonly string[], out: string): Promise<{ code: number; text: string; findings: string }> {
  const flags = parseMoneyArgs([...argv, '--out', out, '--quiet'], START_MS);
  if ('errors' in flags) throw new Error(flags.errors.join('; '));
  const printed = sink();
  const code = await codeOf(runMoney(flags, printed.io, stillWall()), printed.io);
  let findings = '';
  try {
    findings = readFileSync(join(out, 'findings.json'), 'utf8');
  } catch {
    // A refused run writes no report: its text says why.
  }
  return { code, text: printed.text(), findings };
}

interface LeftFile {
  readonly afp_resume: number;
  readonly target: string;
  readonly dialect: string;
  readonly due_clock: string;
  readonly command: string;
  readonly escrows: ReadonlyArray<{ readonly name: string; readonly escrow_id: string; readonly due_at: string }>;
}

/** Leaves the slow escrow of `serve`, checks the file and the early refusal, moves the serve 49 h and resumes. */
async function leaveAndResume(
  name: keyof typeof serves,
): Promise<{ left: LeftFile; resumed: { code: number; text: string; findings: string } }> {
  const handle: ServeHandle = await serves[name]();
  const url = (name === 'documents' ? handle.urls.api : handle.urls.casino) as string;
  const [key, second] = await twoKeys(url, url);
  const file = join(DIR, `${name}.json`);
  const accounts = ['--target', url, '--key', key, '--second-key', second];
  const leaving = await money(
    [...accounts, '--include-slow', '--max-minutes', '5', '--resume-file', file],
    join(DIR, `${name}-left`),
  );
  expect(leaving.text, leaving.text).toMatch(
    /ran +escrow-\w+: escrow \S+ opened and left: due \S+ on the afp serve's clock/,
  );
  expect(leaving.text).toContain(
    `resume: afp audit money --target ${url} --key "$KEY" --second-key "$SECOND_KEY" --resume ${file}`,
  );
  expect(statSync(file).mode & 0o777).toBe(0o600);
  const written = readFileSync(file, 'utf8');
  for (const secret of [key, second]) expect(written).not.toContain(secret);
  const left = JSON.parse(written) as LeftFile;
  expect([left.afp_resume, left.target, left.due_clock]).toEqual([
    1,
    new URL(handle.urls.casino as string).origin,
    'serve',
  ]);
  expect(left.escrows).toHaveLength(1);
  const escrow = left.escrows[0] as LeftFile['escrows'][number];
  expect(leaving.text).toContain(`escrow ${escrow.escrow_id} opened and left: due ${escrow.due_at}`);

  const early = await money([...accounts, '--resume', file], join(DIR, `${name}-early`));
  expect(early.code, early.text).toBe(4);
  expect(early.text).toContain(`skipped ${escrow.name}: escrow ${escrow.escrow_id} is not due until ${escrow.due_at}`);

  const admin = AdminClient.ofUrl(url);
  const moved = await admin.moveClock({ advanceMs: 49 * HOUR_MS });
  if (!moved.ok) throw new Error('the serve clock did not move');
  expect(moved.value.nowMs).toBeGreaterThan(Date.parse(escrow.due_at));
  const resumed = await money([...accounts, '--resume', file], join(DIR, `${name}-resumed`));
  expect(resumed.text).not.toContain('not due');
  expect(resumed.text).toMatch(new RegExp(`ran +${escrow.name}: escrow ${escrow.escrow_id} of 0\\.10 `));
  return { left, resumed };
}

describe('afp audit money --resume-file on a manual-clock serve, then --resume 49 h of serve time later', () => {
  test("the documents' serve: the left escrow settles as documented — judged, no finding, exit 0", async () => {
    const { left, resumed } = await leaveAndResume('documents');
    expect(left.dialect).toBe('A');
    expect(resumed.findings).not.toMatch(/"id": "(money|rule|liveness):escrow:/);
    expect(resumed.code, resumed.text).toBe(0);
  });

  test('the deployed stand-in keeping the commission at expiry: the left expiry escrow, judged, is a minor rule finding', async () => {
    const { left, resumed } = await leaveAndResume('deployed');
    expect(left.dialect).toBe('deployed');
    // Its shortest expiry (1 h + the 5-minute sweep) exceeds the 5 minutes: it is the one left.
    expect(left.escrows.map((escrow) => escrow.name)).toEqual(['escrow-expiry']);
    expect(resumed.text).toMatch(
      /ran +escrow-expiry: escrow \S+ of 0\.10 \w+; the creator got 0\.09\d* back — 1 findings/,
    );
    expect(resumed.findings).toContain('"id": "rule:escrow:expiry-keeps-fee"');
    expect(resumed.findings).not.toContain('money:escrow:expiry-refund-short');
  });
});
