// A stand-in a team shares (issue 71, part 5), through real sockets. On loopback: /_afp/mounts
// answers with the name the caller used (a client that reached the serve as afp.team.test is told
// afp.team.test, never 127.0.0.1), and --public-url sets what it prints and announces. Beyond
// loopback: the test makes a network namespace of its own (a veth pair in 198.18.0.0/15, the
// benchmarking range, reachable from nowhere else), binds `afp serve` to the host's end and calls it
// from inside the namespace, as a teammate's machine or a k6 pod would: the platform answers anyone;
// the admin doors answer 401 without the admin token, 200 with it (and afp's own commands pass it
// from AFP_ADMIN_TOKEN); a serve with no token answers 403 and says at start that its doors stay
// local. Needs root and iproute2 (`ip netns`): outside CI the namespace part skips with that reason;
// under CI (.ci/run runs as root) it is required. Every child is ended by its pid; the namespace is
// deleted in afterAll.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_MAIN } from '../fixtures/cli-child.ts';
import { startServeChild, type ServeChild } from '../fixtures/serve-child.ts';
import { K6, K6_SKIP, ROOT } from '../export/k6-agents-kit.ts';

const run = promisify(execFile);
const TOKEN = 'team-serve-test-token-42';
const CALL_TIMEOUT_MS = 20_000;

/** curl from `namespace` (null: this one): the status and the body. */
async function curl(
  namespace: string | null,
  url: string,
  options: { token?: string; method?: string; body?: string; resolve?: string } = {},
): Promise<{ status: number; body: string }> {
  const args = ['-s', '-m', '10', '-w', '\n%{http_code}', '-X', options.method ?? 'GET'];
  if (options.token !== undefined) args.push('-H', `X-AFP-Admin-Token: ${options.token}`);
  if (options.body !== undefined) args.push('-H', 'content-type: application/json', '--data', options.body);
  if (options.resolve !== undefined) args.push('--resolve', options.resolve);
  args.push(url);
  const { stdout } = await (namespace === null
    ? run('curl', args, { timeout: CALL_TIMEOUT_MS })
    : run('ip', ['netns', 'exec', namespace, 'curl', ...args], { timeout: CALL_TIMEOUT_MS }));
  const cut = stdout.lastIndexOf('\n');
  return { status: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut) };
}

describe('a stand-in on loopback, reached by another name', () => {
  let serve: ServeChild;
  beforeAll(async () => {
    serve = await startServeChild(['--port', '0', '--clock', 'manual'], { trustLoopback: false });
  });
  afterAll(async () => {
    await serve.stop();
  });

  it("/_afp/mounts names the caller's Host, each mount keeping its port", async () => {
    const port = new URL(serve.urls['api'] ?? '').port;
    const answer = await curl(null, `http://afp.team.test:${port}/_afp/mounts`, {
      resolve: `afp.team.test:${port}:127.0.0.1`,
    });
    expect(answer.status).toBe(200);
    const mounts = (JSON.parse(answer.body) as { mounts: Record<string, string> }).mounts;
    for (const [mount, url] of Object.entries(serve.urls))
      expect(mounts[mount]).toBe(url.replace('127.0.0.1', 'afp.team.test'));
  });
});

describe('--public-url', () => {
  let serve: ServeChild;
  beforeAll(async () => {
    serve = await startServeChild(
      ['--port', '0', '--public-url', 'https://afp.team.test:9000', '--public-url', 'casino=https://casino.team.test'],
      { trustLoopback: false },
    );
  });
  afterAll(async () => {
    await serve.stop();
  });

  it('sets what afp serve prints and what /_afp/mounts announces, whatever Host the caller used', () => {
    expect(serve.urls['api']).toBe('https://afp.team.test:9000');
    expect(serve.urls['casino']).toBe('https://casino.team.test');
    expect(serve.urls['faucet']).toMatch(/^https:\/\/afp\.team\.test:\d+$/);
  });
});

/** A network namespace of this test's own, joined to this one by a veth pair; null with the reason when it cannot be made. */
function makeNamespace(): { name: string; hostAddress: string; cleanup: () => void } | { skip: string } {
  if (process.getuid?.() !== 0) return { skip: 'making a network namespace needs root' };
  const suffix = String(process.pid % 100_000);
  const name = `afpteam${suffix}`;
  const [hostEnd, nsEnd] = [`afph${suffix}`, `afpn${suffix}`];
  const octet = (process.pid >> 6) % 256;
  const base = (process.pid % 64) * 4;
  const [hostAddress, nsAddress] = [`198.18.${octet}.${base + 1}`, `198.18.${octet}.${base + 2}`];
  const ip = (...args: string[]): void => void execFileSync('ip', args, { stdio: 'pipe', timeout: 10_000 });
  const cleanup = (): void => {
    try {
      ip('netns', 'del', name);
    } catch {
      // already gone
    }
    try {
      ip('link', 'del', hostEnd);
    } catch {
      // removed with the namespace
    }
  };
  try {
    ip('netns', 'add', name);
    ip('link', 'add', hostEnd, 'type', 'veth', 'peer', 'name', nsEnd);
    ip('link', 'set', nsEnd, 'netns', name);
    ip('addr', 'add', `${hostAddress}/30`, 'dev', hostEnd);
    ip('link', 'set', hostEnd, 'up');
    ip('netns', 'exec', name, 'ip', 'addr', 'add', `${nsAddress}/30`, 'dev', nsEnd);
    ip('netns', 'exec', name, 'ip', 'link', 'set', nsEnd, 'up');
    ip('netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up');
  } catch (error) {
    cleanup();
    return { skip: `ip netns could not make a namespace: ${String(error).split('\n')[0] ?? ''}` };
  }
  return { name, hostAddress, cleanup };
}

const namespace = makeNamespace();
const skipReason = 'skip' in namespace ? namespace.skip : null;
if (skipReason !== null && process.env['CI'] === undefined)
  process.stderr.write(`team-serve.test.ts: the network-namespace tests skip: ${skipReason}\n`);

describe.skipIf(skipReason !== null && process.env['CI'] === undefined)('beyond loopback (a network namespace)', () => {
  const ns = 'skip' in namespace ? null : namespace;
  let withToken: ServeChild;
  let withoutToken: ServeChild;
  beforeAll(async () => {
    if (ns === null) throw new Error(`under CI the namespace is required: ${skipReason ?? ''}`);
    withToken = await startServeChild(
      ['--host', ns.hostAddress, '--port', '0', '--seed', '7', '--clock', 'manual', '--admin-token', TOKEN],
      { trustLoopback: false },
    );
    withoutToken = await startServeChild(['--host', ns.hostAddress, '--port', '0', '--seed', '7'], {
      trustLoopback: false,
    });
  });
  afterAll(async () => {
    await withToken?.stop();
    await withoutToken?.stop();
    ns?.cleanup();
  });

  it('the platform answers a remote caller; the admin doors want the token', async () => {
    const api = withToken.urls['api'] ?? '';
    const name = ns?.name ?? '';
    expect((await curl(name, `${api}/health`)).status).toBe(200);
    const missing = await curl(name, `${api}/_afp/mounts`);
    expect(missing.status).toBe(401);
    expect(missing.body).toContain('x-afp-admin-token');
    expect((await curl(name, `${api}/_afp/mounts`, { token: `${TOKEN}-wrong` })).status).toBe(401);
    const mounts = await curl(name, `${api}/_afp/mounts`, { token: TOKEN });
    expect(mounts.status).toBe(200);
    expect(JSON.parse(mounts.body)).toMatchObject({ mounts: { api } });
    const before = JSON.parse((await curl(name, `${api}/_afp/clock`, { token: TOKEN })).body) as { now_ms: number };
    const moved = await curl(name, `${api}/_afp/clock`, {
      token: TOKEN,
      method: 'POST',
      body: '{"advance_ms":3600000}',
    });
    expect(moved.status).toBe(200);
    expect((JSON.parse(moved.body) as { now_ms: number }).now_ms).toBe(before.now_ms + 3_600_000);
    expect(withToken.stderr()).toContain('callers beyond it that send the admin token');
  });

  it("afp's own commands pass AFP_ADMIN_TOKEN to the doors", async () => {
    const api = withToken.urls['api'] ?? '';
    const probe = (environment: Record<string, string>) =>
      run(
        'ip',
        [
          'netns',
          'exec',
          ns?.name ?? '',
          'env',
          ...Object.entries(environment).map(([k, v]) => `${k}=${v}`),
          process.execPath,
          CLI_MAIN,
          'target',
          'probe',
          api,
        ],
        {
          timeout: 60_000,
        },
      ).then(
        ({ stdout }) => stdout,
        (error: { stdout?: string }) => error.stdout ?? '',
      );
    // The target file a probe writes: the serve's own mounts and admin URL only when its doors answered.
    const withTokenFile = await probe({ AFP_ADMIN_TOKEN: TOKEN });
    expect(withTokenFile).toContain(`admin_url: "${api}"`);
    expect(withTokenFile).toContain('announced by the afp serve');
    const withoutTokenFile = await probe({ AFP_PROBE: 'no-token' });
    expect(withoutTokenFile).toContain('name: probed-');
    expect(withoutTokenFile).not.toContain('admin_url');
  });

  // Without a k6 (outside CI), skipped with its reason, as every k6 test is (test/fixtures/k6-binary.ts).
  it.skipIf(K6_SKIP !== undefined)(
    `a k6 pod's exported script reads the mounts and the clock with AFP_ADMIN_TOKEN${K6_SKIP === undefined ? '' : ` (skipped: ${K6_SKIP})`}`,
    async () => {
      const api = withToken.urls['api'] ?? '';
      const dir = mkdtempSync(join(tmpdir(), 'afp-team-k6-'));
      try {
        const script = join(dir, 'smoke.js');
        await run(
          process.execPath,
          [CLI_MAIN, 'export', 'k6', join(ROOT, 'scenarios', 'k6-smoke.yaml'), '--out', script],
          {
            timeout: 60_000,
          },
        );
        const setupStatuses = async (environment: string[]): Promise<string[]> => {
          const out = join(dir, `points-${environment.length}.json`);
          await run(
            'ip',
            [
              'netns',
              'exec',
              ns?.name ?? '',
              'env',
              'K6_NO_USAGE_REPORT=true',
              `AFP_TARGET=${api}`,
              ...environment,
              K6,
              'run',
              '--address',
              '',
              '--quiet',
              '--out',
              `json=${out}`,
              script,
            ],
            { timeout: 120_000 },
          ).catch(() => undefined);
          return readFileSync(out, 'utf8')
            .split('\n')
            .filter((line) => line.includes('"metric":"http_reqs"') && line.includes('"name":"afp.setup"'))
            .map((line) => (JSON.parse(line) as { data: { tags: { status: string } } }).data.tags.status);
        };
        expect(await setupStatuses([`AFP_ADMIN_TOKEN=${TOKEN}`])).toEqual(['200', '200']);
        expect(await setupStatuses([])).toEqual(['401']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('a serve beyond loopback with no token keeps its doors local and says so at start', async () => {
    const api = withoutToken.urls['api'] ?? '';
    const refused = await curl(ns?.name ?? '', `${api}/_afp/clock`);
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('--admin-token');
    expect(withoutToken.stderr()).toContain('answer loopback callers only, though it listens beyond loopback');
  });
});
