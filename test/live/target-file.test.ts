// Target files and --target resolution: the shipped targets load to exactly the Targets their
// comments promise; errors are strict (unknown keys, operations, services), reported together with
// path and line, and never quote a key; keys come from the environment when the file says so.
// resolveTarget against real loopback listeners: a real afp serve (mounts → style A services), a
// serve whose mounts say their dialect, a server that is not an afp serve, and a closed port.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { DEPLOYED_LIMITS } from '../../src/live/dialects/deployed/limits.ts';
import { OPERATION_NAMES } from '../../src/live/operations.ts';
import { resolveTarget } from '../../src/live/resolve-target.ts';
import { loadTargetFile, parseTargetFile } from '../../src/live/target-file.ts';
import { renderTargetJsonSchema } from '../../src/live/target-schema.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { START_MS } from '../client/fixtures.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const root = join(import.meta.dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'afp-target-file-'));
const handles: ServeHandle[] = [];
const servers: Server[] = [];
afterAll(async () => {
  for (const handle of handles) await handle.close();
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
});

const parse = (text: string, env: Record<string, string> = {}) => parseTargetFile(text, { fileName: 't.yaml', env });

const MINIMAL = `name: t
services:
  casino: { url: "http://127.0.0.1:3000", dialect: deployed }
register: { service: casino }
funding: { method: keys, keys_env: AFP_KEYS }
fairness: deployed
`;

describe('the shipped target files', () => {
  test('targets/afp-serve.yaml: an afp serve on port 3000, style A mounts, admin-deposit, fairness afp', async () => {
    const loaded = await loadTargetFile(join(root, 'targets', 'afp-serve.yaml'));
    expect(loaded).toStrictEqual({
      ok: true,
      value: {
        name: 'afp-serve',
        source: join(root, 'targets', 'afp-serve.yaml'),
        services: {
          faucet: { url: 'http://127.0.0.1:3001', dialect: 'A' },
          escrow: { url: 'http://127.0.0.1:3002', dialect: 'A' },
          casino: { url: 'http://127.0.0.1:3006', dialect: 'A' },
        },
        register: { service: 'casino' },
        funding: { method: 'admin-deposit' },
        limits: {},
        fairness: 'afp',
        afpServe: true,
        adminUrl: 'http://127.0.0.1:3000',
      },
    });
  });

  test("targets/deployed.yaml: DEPLOYED.md's ports, registration and the faucet, its limits, fairness deployed", async () => {
    const loaded = await loadTargetFile(join(root, 'targets', 'deployed.yaml'));
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    expect(loaded.value).toMatchObject({
      name: 'deployed',
      services: {
        casino: { url: 'http://127.0.0.1:3000', dialect: 'deployed' },
        faucet: { url: 'http://127.0.0.1:3006', dialect: 'deployed' },
        escrow: { url: 'http://127.0.0.1:3007', dialect: 'deployed' },
        trading: { url: 'http://127.0.0.1:3003', dialect: 'deployed' },
        wallet: { url: 'http://127.0.0.1:3005', dialect: 'deployed' },
      },
      register: { service: 'casino' },
      funding: { method: 'faucet' },
      fairness: 'deployed',
      afpServe: false,
      adminUrl: null,
    });
    // The file and the table the probe writes from say the same limits (batch 10/min, games 60/min…).
    const table = Object.fromEntries(
      Object.entries(DEPLOYED_LIMITS).map(([op, row]) => [
        op,
        { perMinute: row.perMinute, ...(row.bucket === undefined ? {} : { bucket: row.bucket }) },
      ]),
    );
    expect(loaded.value.limits).toStrictEqual(table);
    expect(loaded.value.limits['casino.batch']).toStrictEqual({ perMinute: 10 });
    // Single games, the video-poker deal and draw: one `games` bucket, one pace (DEPLOYED.md §2.12).
    for (const op of ['casino.bet', 'casino.deal', 'casino.draw'])
      expect(loaded.value.limits[op]).toStrictEqual({ perMinute: 60, bucket: 'games' });
  });

  test('schemas/target.schema.json is fresh (run node scripts/gen-schema.ts)', () => {
    expect(readFileSync(join(root, 'schemas', 'target.schema.json'), 'utf8')).toBe(renderTargetJsonSchema());
    const schema = JSON.parse(renderTargetJsonSchema()) as { additionalProperties: boolean; required: string[] };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toStrictEqual(['name', 'services', 'register', 'funding']);
  });
});

describe('validation', () => {
  test('every error at once, sorted by line, with its path: unknown keys, operations and services, bounds', () => {
    const result = parse(`name: Bad Name
services:
  casino: { url: "ftp://127.0.0.1", dialect: deployed }
  bank: { url: "http://127.0.0.1:1", dialect: A }
register: { service: faucet }
funding: { method: faucet }
limits:
  casino.bets: { per_minute: 10 }
  escrow.create: { per_minute: 0 }
fairness: maybe
colour: blue
`);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message.split('\n')).toStrictEqual([
      't.yaml:1 name: name is 1 to 64 characters of a-z, 0-9 and -',
      "t.yaml:3 services.casino.url: target URL 'ftp://127.0.0.1' must start with http:// or https://",
      "t.yaml:4 services.bank: unknown key 'bank'",
      "t.yaml:5 register.service: register names 'faucet', which is not listed under services",
      't.yaml:6 funding.method: faucet funding needs a faucet listed under services',
      `t.yaml:8 limits.casino.bets: unknown key 'casino.bets'; operations: ${OPERATION_NAMES.join(', ')}`,
      't.yaml:9 limits.escrow.create: a limit for escrow.create, but no escrow is listed under services',
      't.yaml:9 limits.escrow.create.per_minute: must be at least 1 (requests per minute)',
      't.yaml:10 fairness: Invalid option: expected one of "afp"|"deployed"',
      "t.yaml:11 colour: unknown key 'colour'",
    ]);
  });

  test('cross-field rules: admin-deposit needs admin_url, register none needs keys, a casino needs fairness, keys xor keys_env, duplicate keys', () => {
    const admin = parse(
      'name: t\nservices:\n  casino: { url: "http://127.0.0.1:1", dialect: A }\nregister: none\nfunding: { method: admin-deposit }\n',
    );
    expect(admin.ok ? '' : admin.message).toBe(
      [
        't.yaml:1 fairness: a target with a casino names its fairness scheme: afp or deployed',
        't.yaml:4 register: register: none leaves no account to fund by admin-deposit: use funding: { method: keys, … }',
        "t.yaml:5 funding.method: admin-deposit funding needs admin_url (an afp serve's api URL)",
      ].join('\n'),
    );
    const both = parse(
      MINIMAL.replace('keys_env: AFP_KEYS', 'keys_env: AFP_KEYS, keys: [k1]').replace(
        'fairness: deployed',
        'fairness: deployed\nfairness: afp',
      ),
      { AFP_KEYS: 'k2' },
    );
    expect(both.ok ? '' : both.message).toBe(
      [
        't.yaml:5 funding: keys funding has either keys (a list) or keys_env (an environment variable), not both and not neither',
        "t.yaml:7 fairness: duplicate key 'fairness' (first at line 6)",
      ].join('\n'),
    );
  });

  test('keys are never quoted: neither from the file nor from the environment', () => {
    const secret = 'sk_live_DO-NOT-PRINT';
    const inFile = parse(
      MINIMAL.replace('keys_env: AFP_KEYS', `keys: ["${secret}", "${secret} two", ""], keys_env: X`),
    );
    expect(inFile.ok).toBe(false);
    expect(inFile.ok ? '' : inFile.message).not.toContain('DO-NOT-PRINT');
    expect(inFile.ok ? '' : inFile.message).toContain('t.yaml:5 funding.keys[1]: a key has no spaces or commas');
    const inEnv = parse(MINIMAL, { AFP_KEYS: `${secret}, ${secret} with spaces` });
    expect(inEnv.ok ? '' : inEnv.message).toBe(
      't.yaml:5 funding.keys_env: environment variable AFP_KEYS: key 2 of 2 is not a key (1 to 256 characters, no spaces or commas)',
    );
    expect(parse(MINIMAL).ok ? '' : (parse(MINIMAL) as { message: string }).message).toBe(
      't.yaml:5 funding.keys_env: environment variable AFP_KEYS is not set or holds no key (comma-separated API keys)',
    );
  });

  test('keys from the environment, URLs normalized, credentials in a URL refused', () => {
    const parsed = parse(MINIMAL.replace('http://127.0.0.1:3000', 'HTTP://LocalHost:3000/api//'), {
      AFP_KEYS: ' k1 ,k2,, ',
    });
    expect(parsed).toMatchObject({
      ok: true,
      value: {
        services: { casino: { url: 'http://localhost:3000/api' } },
        funding: { method: 'keys', keys: ['k1', 'k2'] },
        limits: {},
        afpServe: false,
      },
    });
    const credentials = parse(MINIMAL.replace('http://127.0.0.1:3000', 'http://user:pw@127.0.0.1:3000'), {
      AFP_KEYS: 'k',
    });
    expect(credentials.ok ? '' : credentials.message).toBe(
      "t.yaml:3 services.casino.url: URL '127.0.0.1:3000' must not carry a user name or password",
    );
  });

  test('a missing file and YAML syntax errors say where', async () => {
    const missing = await loadTargetFile(join(scratch, 'nope.yaml'));
    expect(missing).toStrictEqual({
      ok: false,
      message: `${join(scratch, 'nope.yaml')}: cannot read the target file (ENOENT)`,
    });
    const broken = parse('name: t\nservices: [\n');
    expect(broken.ok ? '' : broken.message).toMatch(/^t\.yaml:\d+: YAML: /);
  });
});

describe('resolveTarget', () => {
  test('a file path (or any *.yaml) loads the file; text that is neither a file nor a URL is refused', async () => {
    const path = join(scratch, 'minimal');
    writeFileSync(path, MINIMAL);
    expect(await resolveTarget(path, { env: { AFP_KEYS: 'k' } })).toMatchObject({
      ok: true,
      value: { name: 't', source: path },
    });
    expect(await resolveTarget(join(scratch, 'missing.yml'))).toMatchObject({
      ok: false,
      kind: 'invalid',
      message: expect.stringContaining('cannot read the target file (ENOENT)') as unknown,
    });
    expect(await resolveTarget('localhost:3000')).toStrictEqual({
      ok: false,
      kind: 'invalid',
      message: "--target 'localhost:3000' is neither a target file (*.yaml) nor an http(s) URL",
    });
    expect(await resolveTarget('ftp://127.0.0.1/x')).toStrictEqual({
      ok: false,
      kind: 'invalid',
      message: "target URL 'ftp://127.0.0.1/x' must start with http:// or https://",
    });
  });

  test("an afp serve's URL: its mounts as style-A services, admin-deposit through the api mount, fairness afp, fresh client addresses", async () => {
    const handle = await startServe({
      trustedProxies: LOOPBACK_PROXIES,
      routes: ALL_ROUTES,
      seed: '1',
      port: 0,
      clockMode: 'manual',
      startMs: START_MS,
      log: () => undefined,
    });
    handles.push(handle);
    const api = handle.urls.api as string;
    const resolved = await resolveTarget(`${api}/`);
    expect(resolved).toStrictEqual({
      ok: true,
      value: {
        name: `${api}/`,
        source: `${api}/`,
        services: {
          faucet: { url: handle.urls.faucet, dialect: 'A' },
          escrow: { url: handle.urls.escrow, dialect: 'A' },
          trading: { url: handle.urls.trading, dialect: 'A' },
          domains: { url: handle.urls.domains, dialect: 'A' },
          wallet: { url: handle.urls.wallet, dialect: 'A' },
          casino: { url: handle.urls.casino, dialect: 'A' },
        },
        register: { service: 'casino' },
        funding: { method: 'admin-deposit' },
        limits: {},
        fairness: 'afp',
        afpServe: true,
        adminUrl: api,
        // It trusts this caller's X-Forwarded-For (--trust-proxy): set-up calls announce fresh addresses.
        freshClientAddresses: true,
      },
    });
  });

  test('mounts that say their dialect and fairness; a server that is not an afp serve; a closed port', async () => {
    const base = await listen((path) =>
      path === '/_afp/mounts'
        ? {
            status: 200,
            body: {
              mounts: {
                api: 'http://127.0.0.1:1',
                casino: { url: 'http://127.0.0.1:2/', dialect: 'deployed' },
                faucet: 'http://127.0.0.1:3',
              },
              dialect: 'B',
              fairness: 'deployed',
            },
          }
        : { status: 404, body: { error: 'not_found' } },
    );
    expect(await resolveTarget(base)).toMatchObject({
      ok: true,
      value: {
        services: {
          casino: { url: 'http://127.0.0.1:2', dialect: 'deployed' },
          faucet: { url: 'http://127.0.0.1:3', dialect: 'B' },
        },
        fairness: 'deployed',
        adminUrl: base,
      },
    });
    const other = await listen(() => ({
      status: 404,
      body: { error: 'not_found', message: 'GET /_afp/mounts not found' },
    }));
    expect(await resolveTarget(other)).toStrictEqual({
      ok: false,
      kind: 'invalid',
      message: `${other} is not an afp serve (GET ${other}/_afp/mounts answered 404): describe it in a target file (see targets/deployed.yaml) and pass --target FILE, or let afp write one: afp target probe ${other} --out target.yaml`,
    });
    const closed = await listen(() => ({ status: 200, body: {} }));
    await new Promise((resolve) => servers.pop()?.close(resolve));
    const unreachable = await resolveTarget(closed, { timeoutMs: 2_000 });
    expect(unreachable).toMatchObject({
      ok: false,
      kind: 'trouble',
      message: expect.stringContaining(`target ${closed} does not answer (GET ${closed}/_afp/mounts)`) as unknown,
    });
  });
});

/** A loopback server answering every GET by `answer(path)`; its base URL. */
async function listen(answer: (path: string) => { status: number; body: unknown }): Promise<string> {
  const server = createServer((request, response) => {
    const { status, body } = answer(new URL(request.url ?? '/', 'http://x').pathname);
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('buckets', () => {
  test('operations the target counts together share a bucket, and the bucket one pace', () => {
    const result = parse(`name: shared
services:
  casino: { url: "http://127.0.0.1:1", dialect: deployed }
register: { service: casino }
funding: { method: keys, keys: [sk_live_a] }
limits:
  casino.bet: { per_minute: 60, bucket: games }
  casino.deal: { per_minute: 30, bucket: games }
  casino.draw: { per_minute: 60, bucket: "Games!" }
fairness: deployed
`);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message.split('\n')).toStrictEqual([
      't.yaml:8 limits.casino.deal.per_minute: bucket games is one pace: casino.deal says 30 a minute, casino.bet 60',
      't.yaml:9 limits.casino.draw.bucket: a bucket is 1 to 32 characters of a-z, 0-9, _ and -',
    ]);
  });
});
