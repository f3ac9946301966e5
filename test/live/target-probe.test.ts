// `afp target probe` against real listeners on loopback:
//   - a real `afp serve` child process: probing its api URL finds its announced mounts, takes
//     each service in style A at its own mount, and writes a file that loads and resolves to the
//     same services as `--target <api URL>` does; --out refuses to overwrite without --force;
//   - a FIXTURE OF THE DEPLOYED WIRE: three small node:http servers answering a few of
//     spec/DEPLOYED.md's paths with DEPLOYED.md-shaped bodies (health, openapi.json, public lists,
//     401/404 errors without `code`, `_info.service` = repository name, the MCP descriptor). It is
//     not the deployment, nor `afp serve --dialect deployed`: it checks that the deployed markers
//     table recognizes what DEPLOYED.md says, and that the probe only ever sends GETs;
//   - a server that answers everything (no service recognized, exit 1), a closed port (exit 1),
//     bad arguments (exit 2).
// The documents' markers are held to afp's route table (each row is a route of that style).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { DEPLOYED_LIMITS } from '../../src/live/dialects/deployed/limits.ts';
import { DOCUMENTS_MARKERS } from '../../src/live/dialects/documents/markers.ts';
import { resolveTarget } from '../../src/live/resolve-target.ts';
import { probePaths } from '../../src/live/probe/probe-url.ts';
import { loadTargetFile } from '../../src/live/target-file.ts';
import { runCliChild, type CliRun } from '../fixtures/cli-child.ts';
import { probeInProcess } from '../fixtures/target-probe-in-process.ts';

const scratch = mkdtempSync(join(tmpdir(), 'afp-target-probe-'));
const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
});

const runCli = (args: readonly string[]): Promise<CliRun> => runCliChild(args);

/** `afp serve --port 0` as a child process, until `work(api)` is done; then SIGTERM. */
const withServe = (work: (api: string) => Promise<void>): Promise<CliRun> =>
  runCliChild(['serve', '--port', '0', '--clock', 'manual', '--seed', '4'], {
    timeoutMs: 60_000,
    onReady: async (stdout, stop) => {
      await work(/^api: (http:\/\/127\.0\.0\.1:\d+)$/m.exec(stdout)?.[1] ?? 'http://invalid');
      stop();
    },
  });

/** Moves the manual clock of the serve at `api` a day on (every rate bucket refills). */
async function nextDay(api: string): Promise<void> {
  const response = await fetch(`${api}/_afp/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advance_ms: 86_400_000 }),
  });
  expect(response.status).toBe(200);
}

describe('the documents markers', () => {
  test("every row is a route of afp's table: its id, service, style, method, path; needs-key rows want a key", () => {
    for (const marker of DOCUMENTS_MARKERS) {
      const route = ALL_ROUTES.find((candidate) => candidate.id === marker.source);
      expect(route, marker.source).toBeDefined();
      if (route === undefined) continue;
      expect({
        service: route.service,
        method: route.method,
        path: route.path.replace(/:(\w+)/g, '{$1}'),
      }).toStrictEqual({ service: marker.service, method: marker.method, path: marker.path });
      expect(marker.dialects).toContain(route.style);
      if (marker.answer === 'needs-key') expect(route.auth).toBe('bearer');
    }
  });
});

describe('afp target probe against a real afp serve (child process)', () => {
  test('finds the announced mounts in style A, writes a file that loads and resolves like the URL; --force to overwrite', async () => {
    const out = join(scratch, 'serve.yaml');
    let probed: CliRun | undefined;
    let again: CliRun | undefined;
    let forced: CliRun | undefined;
    let viaUrl: Awaited<ReturnType<typeof resolveTarget>> | undefined;
    let api = '';
    let firstText = '';
    const serve = await withServe(async (url) => {
      api = url;
      probed = await runCli(['target', 'probe', api, '--out', out]);
      again = await runCli(['target', 'probe', api, '--out', out]);
      firstText = readFileSync(out, 'utf8');
      // One probe of five services uses most of a keyless caller's per-minute allowance, and the
      // manual clock never refills it: a day on, every bucket is full again, as for the first probe.
      await nextDay(api);
      forced = await probeInProcess([api, '--out', out, '--force']);
      await nextDay(api);
      viaUrl = await resolveTarget(api);
    });
    expect(serve.code).toBe(0);
    expect(probed?.code, probed?.stderr).toBe(0);
    expect(probed?.stdout).toContain(
      `GET /_afp/mounts                           200     afp serve: announces casino, domains, escrow, faucet, trading, wallet`,
    );
    expect(probed?.stdout).toMatch(
      /→ faucet B, escrow B, trading B, domains B, wallet B, casino B; dialect family documents/,
    );
    expect(probed?.stdout).toMatch(/→ casino A; dialect family documents/);
    expect(probed?.stdout).toContain(`wrote ${out}`);
    expect(again?.code).toBe(2);
    expect(again?.stderr).toContain(`afp target probe: ${out} exists: pass --force to overwrite it`);
    expect(forced?.code).toBe(0);
    const loaded = await loadTargetFile(out);
    expect(loaded.ok, loaded.ok ? '' : loaded.message).toBe(true);
    if (!loaded.ok || viaUrl === undefined || !viaUrl.ok) throw new Error('the probe file or the URL did not resolve');
    const { name: _name, source: _source, ...fromFile } = loaded.value;
    const { name: _urlName, source: _urlSource, ...fromUrl } = viaUrl.value;
    expect(fromFile).toStrictEqual(fromUrl);
    expect(fromFile).toMatchObject({
      register: { service: 'casino' },
      funding: { method: 'admin-deposit' },
      fairness: 'afp',
      adminUrl: api,
    });
    // Byte-stable: the same serve probed twice writes the same bytes.
    expect(readFileSync(out, 'utf8')).toBe(firstText);
    expect(firstText).toContain(`admin_url: "${api}"  # an afp serve: its /_afp admin doors`);
  });
});

// ---- a FIXTURE OF THE DEPLOYED WIRE (spec/DEPLOYED.md), not the deployment ----

const seen: string[] = [];

function info(service: string): Record<string, string> {
  return {
    service,
    docs: `https://${service.replace('agent-', '')}.purpleflea.com/llms.txt`,
    referral: 'GET /gossip',
    version: '1.0.0',
  };
}

type Answer = { status: number; body: unknown } | { status: number; text: string };

async function fixture(answer: (path: string) => Answer): Promise<string> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    seen.push(`${request.method ?? '?'} ${path}`);
    const answered = answer(path);
    if ('text' in answered) response.writeHead(answered.status, { 'content-type': 'text/plain' }).end(answered.text);
    else
      response
        .writeHead(answered.status, { 'content-type': 'application/json; charset=UTF-8' })
        .end(JSON.stringify(answered.body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The deployed casino (§1.2, §1.3, §2.1, §2.10): public lists, bearer endpoints 401, `{ error, message }` errors. */
function deployedCasino(path: string): Answer {
  const _info = info('agent-casino');
  const publicBodies: Record<string, unknown> = {
    '/health': { status: 'ok', service: 'agent-casino' },
    '/openapi.json': {
      openapi: '3.0.3',
      info: { title: 'Agent Casino API', version: '1.0.0' },
      servers: [{ url: '/api/v1' }],
      paths: {
        '/auth/register': { post: {} },
        '/bets/batch': { post: {} },
        '/games': { get: {} },
        '/fairness/verify': { post: {} },
        '/daily/claim': { post: {} },
      },
    },
    '/.well-known/purpleflea.json': { name: 'agent-casino', _info },
    '/api/v1/games': { games: [{ game: 'coin_flip' }, { game: 'dice' }], _info },
    '/api/v1/tournaments': { tournaments: [], _info },
    '/api/v1/stats/leaderboard': { leaderboard: [], _info },
    '/api/v1/gossip': { message: 'refer agents', _info },
    '/api/v1/challenges/open': { challenges: [], _info },
  };
  if (path === '/ping') return { status: 200, text: 'pong' };
  if (path === '/llms.txt') return { status: 200, text: '# Agent Casino' };
  const body = publicBodies[path];
  if (body !== undefined) return { status: 200, body };
  if (['/api/v1/auth/balance', '/api/v1/fairness/seeds', '/api/v1/bets/history', '/api/v1/daily'].includes(path)) {
    return {
      status: 401,
      body: {
        error: 'unauthorized',
        message: 'Missing or invalid Authorization header. Use: Bearer {api_key}',
        suggestion: 'POST /api/v1/auth/register',
        _info,
      },
    };
  }
  return {
    status: 404,
    body: {
      error: 'not_found',
      message: `GET ${path} not found`,
      docs: '/api/v1/docs',
      openapi: '/openapi.json',
      _info,
    },
  };
}

/** The deployed faucet (§3): root paths, `{ error: "not_found" }`, GET /mcp's JSON descriptor. */
function deployedFaucet(path: string): Answer {
  const _info = info('agent-faucet');
  if (path === '/llms.txt') return { status: 200, text: '# Agent Faucet' };
  if (path === '/faucet/stats')
    return { status: 200, body: { total_claims: 3, total_agents: 3, total_value_usd: 3, avg_per_agent: 1, _info } };
  if (path === '/gossip') return { status: 200, body: { message: 'free money for new agents', _info } };
  if (path === '/mcp')
    return {
      status: 200,
      body: {
        service: 'agent-faucet',
        transport: 'streamable-http',
        endpoint: 'POST /mcp',
        tools: ['claim_faucet'],
        description: 'Claim 1 USDC',
      },
    };
  return { status: 404, body: { error: 'not_found', _info } };
}

/** The deployed escrow (§4): root paths, /health and /openapi.json, escrow tools on GET /mcp. */
function deployedEscrow(path: string): Answer {
  const _info = info('agent-escrow');
  if (path === '/health') return { status: 200, body: { status: 'ok' } };
  if (path === '/openapi.json')
    return {
      status: 200,
      body: {
        openapi: '3.0.0',
        info: { title: 'Agent Escrow' },
        paths: { '/escrow/create': { post: {} }, '/escrow/release/{id}': { post: {} }, '/escrow/{id}': { get: {} } },
      },
    };
  if (path === '/escrow/stats') return { status: 200, body: { total_escrows: 0, _info } };
  if (path === '/gossip') return { status: 200, body: { message: 'trustless escrow', _info } };
  if (path === '/mcp')
    return {
      status: 200,
      body: {
        service: 'agent-escrow',
        transport: 'streamable-http',
        endpoint: 'POST /mcp',
        tools: ['create_escrow', 'get_escrow', 'mark_complete', 'release_escrow', 'dispute_escrow', 'escrow_stats'],
        description: 'Escrow',
      },
    };
  return { status: 404, body: { error: 'not_found', _info } };
}

/** The deployed trading service (§1.2, §5): base /v1, public markets, bearer trade endpoints 401 `Provide Authorization…`. */
function deployedTrading(path: string): Answer {
  const _info = { ...info('agent-trading'), version: '3.0.0' };
  if (path === '/ping') return { status: 200, text: 'pong' };
  if (path === '/v1/markets')
    return {
      status: 200,
      body: {
        markets: [
          { coin: 'BTC', price: 95000 },
          { coin: 'xyz:TSLA', price: 250 },
        ],
        count: 2,
        _info,
      },
    };
  if (path === '/v1/markets/funding-rates')
    return { status: 200, body: { funding_rates: [{ coin: 'BTC', funding_rate: 0.0001 }], _info } };
  if (['/v1/trade/positions', '/v1/trade/portfolio', '/v1/trade/history'].includes(path))
    return { status: 401, body: { error: 'unauthorized', message: 'Provide Authorization: Bearer <api_key>', _info } };
  return {
    status: 404,
    body: {
      error: 'not_found',
      message: `GET ${path} not found`,
      docs: '/api/v1/docs',
      openapi: '/openapi.json',
      _info,
    },
  };
}

describe('afp target probe against a fixture of the deployed wire', () => {
  test('recognizes the deployed casino, faucet, escrow and trading, writes registration + faucet, the deployed limits and fairness; sends GETs only', async () => {
    const casino = await fixture(deployedCasino);
    const faucet = await fixture(deployedFaucet);
    const escrow = await fixture(deployedEscrow);
    const trading = await fixture(deployedTrading);
    const out = join(scratch, 'deployed.yaml');
    seen.length = 0;
    // The casino given as its /api/v1 base, as DEPLOYED.md §1.1 lists it: probed at its root.
    const run = await probeInProcess([`${casino}/api/v1`, faucet, escrow, trading, '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      `note: ${casino}/api/v1: the dialects' paths carry /api/v1 themselves; probing ${casino}`,
    );
    expect(run.stdout).toMatch(/GET \/api\/v1\/games +200 +casino deployed/);
    expect(run.stdout).toMatch(/GET \/api\/v1\/games +404/);
    expect(run.stdout).toMatch(
      /GET \/openapi\.json +200 +openapi: casino A ×1, casino A\/deployed ×1, casino deployed ×3\n/,
    );
    expect(run.stdout).toMatch(/GET \/mcp +200 +faucet deployed/);
    expect(run.stdout).toMatch(/GET \/mcp +200 +escrow deployed/);
    expect(run.stdout).toContain('→ casino deployed; dialect family deployed');
    expect(run.stdout).toContain('→ faucet deployed; dialect family deployed');
    expect(run.stdout).toContain('→ escrow deployed; dialect family deployed');
    expect(run.stdout).toMatch(/GET \/v1\/markets +200 +trading deployed/);
    expect(run.stdout).toContain('→ trading deployed; dialect family deployed');
    expect(new Set(seen.map((line) => line.split(' ')[0]))).toStrictEqual(new Set(['GET']));
    const loaded = await loadTargetFile(out);
    expect(loaded.ok, loaded.ok ? '' : loaded.message).toBe(true);
    if (!loaded.ok) return;
    expect(loaded.value).toMatchObject({
      services: {
        casino: { url: casino, dialect: 'deployed' },
        faucet: { url: faucet, dialect: 'deployed' },
        escrow: { url: escrow, dialect: 'deployed' },
        trading: { url: trading, dialect: 'deployed' },
      },
      register: { service: 'casino' },
      funding: { method: 'faucet' },
      fairness: 'deployed',
      afpServe: false,
      adminUrl: null,
    });
    // The deployed limits of the services found (the wallet's address is not probed here).
    expect(loaded.value.limits).toStrictEqual(
      Object.fromEntries(
        Object.entries(DEPLOYED_LIMITS)
          .filter(([op]) => !op.startsWith('wallet.'))
          .map(([op, row]) => [
            op,
            { perMinute: row.perMinute, ...(row.bucket === undefined ? {} : { bucket: row.bucket }) },
          ]),
      ),
    );
    // Without --out: the file on stdout (byte-identical to the one written), the table on stderr.
    const piped = await probeInProcess([`${casino}/api/v1`, faucet, escrow, trading]);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe(readFileSync(out, 'utf8'));
    expect(piped.stderr).toContain('target:');
  });

  test('a casino alone: no faucet, so keys from AFP_KEYS; the casino limits only', async () => {
    const casino = await fixture(deployedCasino);
    const run = await probeInProcess([casino]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('funding: { method: keys, keys_env: AFP_KEYS }');
    const path = join(scratch, 'casino-only.yaml');
    writeFileSync(path, run.stdout);
    const loaded = await loadTargetFile(path, { env: { AFP_KEYS: 'sk_live_a,sk_live_b' } });
    expect(loaded).toMatchObject({
      ok: true,
      value: {
        funding: { method: 'keys', keys: ['sk_live_a', 'sk_live_b'] },
        limits: { 'casino.batch': { perMinute: 10 }, 'casino.bet': { perMinute: 60 } },
      },
    });
    expect(loaded.ok && Object.keys(loaded.value.limits).every((op) => op.startsWith('casino.'))).toBe(true);
  });
});

describe('when nothing is recognized', () => {
  test('a server that answers everything: path evidence ignored, no service, exit 2 (the URLs make no target)', async () => {
    const everything = await fixture(() => ({ status: 200, body: { ok: true } }));
    const run = await probeInProcess([everything]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'GET /afp-probe/no-such-path                200     answers a path no service serves (200): path evidence ignored',
    );
    expect(run.stderr).toContain('afp target probe: no service of the platform recognized');
    expect(run.stdout).toBe('');
  });

  test('a plain web server (nginx-like HTML on every path) is described, and the way to load it is given', async () => {
    const plain = await fixture(() => ({ status: 200, text: '<html>welcome</html>' }));
    const run = await probeInProcess([plain]);
    expect(run.code).toBe(2);
    const probed = probePaths().length;
    expect(run.stderr).toContain(
      `  ${plain}: server (no Server header) · ${probed} of ${probed} probed paths answered (200×${probed}) · text/plain · no JSON body`,
    );
    expect(run.stderr).toContain(`afp load ${plain}/ --rate 100/s --duration 10s`);
  });

  test('bodies past the limits are named: in the table (which limit) and in the server line (how many)', async () => {
    // 300 kB of JSON on every path: over the 256 KiB a marker's answer is read to, within the 4 MiB of the documents'.
    const big = await fixture(() => ({ status: 200, body: { pad: 'x'.repeat(300_000) } }));
    const run = await probeInProcess([big]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/GET \/api\/v1\/games +200 +not read: body over 262144 bytes\n/);
    expect(run.stderr).toMatch(/GET \/openapi\.json +200 *\n/);
    const unread = probePaths().length - 2; // all but /_afp/mounts and /openapi.json, the documents read whole
    expect(run.stderr).toContain(
      `· 2 JSON bodies · ${unread} bodies not read (past afp's limits; the table says which)`,
    );
  });

  test('a rate-limited server: the 429s are counted in a note, not taken for evidence', async () => {
    const limited = await fixture(() => ({
      status: 429,
      body: { error: 'rate_limited', message: 'Too many requests' },
    }));
    const run = await probeInProcess([limited]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      new RegExp(
        `note: ${limited.replaceAll('.', '\\.')}: (\\d+) of \\1 answers were 429 \\(rate limited\\), so their evidence is missing; probe again once the limit has reset`,
      ),
    );
  });

  test('a closed port: nothing answers, exit 4 as every unreachable target (through the real CLI); bad arguments exit 2', async () => {
    const closed = await fixture(() => ({ status: 200, body: {} }));
    await new Promise((resolve) => servers.pop()?.close(resolve));
    const run = await runCli(['target', 'probe', closed, '--timeout-ms', '2000']);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain(`afp target probe: nothing answers at ${closed}`);
    const json = await probeInProcess([closed, '--timeout-ms', '2000', '--json']);
    expect(json.code).toBe(4);
    expect(JSON.parse(json.stdout)).toStrictEqual({
      command: 'afp target probe',
      seed: null,
      verdict: 'liveness',
      exit_code: 4,
      urls: [closed],
      answered: [],
      services: [],
      out: null,
      target_file: null,
    });
    const bad = await probeInProcess(['ftp://x', '--timeout-ms', '5', '--bogus']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.split('\n').slice(0, 3)).toStrictEqual([
      'afp target probe: unknown flag --bogus',
      "afp target probe: target URL 'ftp://x' must start with http:// or https://",
      "afp target probe: --timeout-ms must be a whole number from 100 to 60000, got '5'",
    ]);
    expect((await probeInProcess([])).code).toBe(2);
    expect((await runCli(['target', 'inspect'])).code).toBe(2);
  });
});
