// A target file's funding `command` runs in the user's environment, not under afp's own Node
// (src/live/funding-environment.ts): npm puts node_modules/.bin (where the `node` package links
// afp's Node 24) first on PATH, and a user's command loading a native module built for their own
// Node would fail there. The PATH rule, then a real command funding an account on a real
// `afp serve --dialect deployed`, run with npm's PATH, which prints `node --version` and
// `command -v node`: the user's Node, not the one afp runs on.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { Deadline } from '../../src/core/deadline.ts';
import type { WaitClock } from '../../src/core/clock.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { fundingEnvironment, userPath } from '../../src/live/funding-environment.ts';
import { openLiveAccount } from '../../src/live/live-account.ts';
import { LiveSession } from '../../src/live/live-session.ts';
import type { Target } from '../../src/live/target.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { startServe } from '../../src/server/listeners.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const REPO = join(import.meta.dirname, '..', '..');
const AFP_BIN = join(REPO, 'node_modules', '.bin');
const AFP_NODE_BIN = join(REPO, 'node_modules', 'node', 'bin');

describe('userPath', () => {
  test("drops node_modules/.bin directories and the node package's bin, keeps the rest in order", () => {
    const path = [
      '/w/app/node_modules/.bin',
      '/w/node_modules/.bin',
      '/w/app/node_modules/node/bin',
      '/usr/local/bin',
      '/usr/bin',
      '/home/u/.nvm/versions/node/v20.1.0/bin',
    ].join(delimiter);
    expect(userPath(path, '/usr/bin/node')).toBe(
      ['/usr/local/bin', '/usr/bin', '/home/u/.nvm/versions/node/v20.1.0/bin'].join(delimiter),
    );
  });

  test("drops the running Node's directory when it lives in a node_modules tree, never a system one", () => {
    expect(
      userPath(['/opt/x/node_modules/node/bin/', '/opt/y'].join(delimiter), '/opt/x/node_modules/node/bin/node'),
    ).toBe('/opt/y');
    expect(userPath(['/usr/bin', '/opt/y'].join(delimiter), '/usr/bin/node')).toBe(
      ['/usr/bin', '/opt/y'].join(delimiter),
    );
  });

  test("the environment keeps every other variable and adds the account's", () => {
    const env = fundingEnvironment(
      { PATH: [AFP_BIN, '/usr/bin'].join(delimiter), HOME: '/home/u', NODE_OPTIONS: '--x' },
      join(AFP_NODE_BIN, 'node'),
      { AFP_AGENT_ID: 'ag_1' },
    );
    expect(env).toEqual({ PATH: '/usr/bin', HOME: '/home/u', NODE_OPTIONS: '--x', AFP_AGENT_ID: 'ag_1' });
  });
});

/** The Node a shell finds on the user's PATH (npm's prepended directories removed), or null. */
function userNode(): { path: string; version: string } | null {
  try {
    const path = execFileSync('/bin/sh', ['-c', 'command -v node'], {
      env: { PATH: userPath(process.env['PATH'] ?? '', process.execPath) },
      encoding: 'utf8',
    }).trim();
    const version = execFileSync(path, ['--version'], { encoding: 'utf8' }).trim();
    return { path, version };
  } catch {
    return null;
  }
}

const user = userNode();
const DIR = mkdtempSync(join(tmpdir(), 'afp-funding-env-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

describe('a funding command on a real serve', () => {
  test.skipIf(user === null || user.version === process.version)(
    `runs under the user's Node (${user?.path ?? 'none found'} ${user?.version ?? ''}), not afp's (${process.version}), with npm's PATH`,
    async () => {
      const handle = await startServe({
        trustedProxies: LOOPBACK_PROXIES,
        routes: DEPLOYED_ROUTES,
        layout: DEPLOYED_LAYOUT,
        seed: '3',
        port: 0,
        clockMode: 'manual',
        startMs: Date.parse('2025-03-01T00:00:00Z'),
        log: () => undefined,
      });
      const casino = handle.urls.casino as string;
      const seen = join(DIR, 'node.txt');
      // The user's command: says which Node it got, then funds the account through the serve's admin doors (with that Node).
      const fund = `const u='${casino}';const d=await (await fetch(u+'/_afp/casino/deposit',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({agent_id:process.env.AFP_AGENT_ID,chain:'solana',amount:process.env.AFP_AMOUNT})})).json();await fetch(u+'/_afp/clock',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({to_ms:d.confirm_at_ms})});`;
      const command = `node --version > '${seen}' && command -v node >> '${seen}' && node --input-type=module -e "${fund}"`;
      const target: Target = {
        name: 'command-funded',
        source: 'test',
        afpServe: false,
        adminUrl: null,
        register: { service: 'casino' },
        funding: { method: 'command', command },
        limits: {},
        fairness: 'afp',
        services: { casino: { url: casino, dialect: 'deployed' } },
      };
      const saved = process.env['PATH'];
      // As npm runs afp: its node_modules/.bin (afp's `node`) and the node package's bin first on PATH.
      process.env['PATH'] = [AFP_BIN, AFP_NODE_BIN, saved ?? ''].join(delimiter);
      try {
        const clock: WaitClock = {
          nowMs: () => Date.now(),
          sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        };
        const deadline = new Deadline(clock, 60);
        const opened = await openLiveAccount({
          session: new LiveSession({ target, clock, deadline }),
          key: null,
          fundMicro: 2_000_000n,
          clock,
          deadline,
        });
        expect(opened).toMatchObject({
          ok: true,
          value: { note: expect.stringContaining("funded by the target file's command") },
        });
        const [version, path] = readFileSync(seen, 'utf8').trim().split('\n');
        expect(version).toBe(user?.version);
        expect(version).not.toBe(process.version);
        expect(path).toBe(user?.path);
        expect(path).not.toContain('node_modules');
      } finally {
        process.env['PATH'] = saved;
        await handle.close({ forceAfterMs: 0 });
      }
    },
  );
});
