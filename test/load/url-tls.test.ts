// `afp load URL --insecure-skip-tls-verify` against a real https server on 127.0.0.1 with a
// self-signed certificate made for the test (test/fixtures/self-signed.ts): without the flag the
// run stops before it starts (exit 4) and names the flag; with it every request is answered and
// its checks pass; a --requests file's https item is taken the same way.
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main as loadEnding, type LoadIo } from '../../src/cli/load.ts';
import { systemLoadClock } from '../../src/load/options.ts';
import { selfSignedCertificate } from '../fixtures/self-signed.ts';
import { coded } from '../cli/ending-code.ts';

const main = coded(loadEnding);

const DIR = mkdtempSync(join(tmpdir(), 'afp-url-tls-'));
const certificate = selfSignedCertificate();
const SKIP = 'why' in certificate ? certificate.why : undefined;
let server: Server | null = null;
let base = '';
let seen = 0;

beforeAll(async () => {
  if ('why' in certificate) return;
  server = createServer({ cert: certificate.cert, key: certificate.key }, (request, response) => {
    seen += 1;
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"secure":true}');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  if (server !== null) {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  }
  rmSync(DIR, { recursive: true, force: true });
});

async function load(argv: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: LoadIo = {
    out: (text) => void (out += text),
    err: (text) => void (err += text),
    errIsTty: false,
    clock: systemLoadClock(),
    onInterrupt: () => () => undefined,
  };
  return { code: await main([...argv], io), out, err };
}

describe.skipIf(SKIP !== undefined)(
  `afp load https with a self-signed certificate${SKIP === undefined ? '' : ` (${SKIP})`}`,
  () => {
    test('without --insecure-skip-tls-verify: exit 4 before any request, naming the flag', async () => {
      seen = 0;
      const ran = await load([`${base}/`, '--rate', '10/s', '-d', '1s', '--out', join(DIR, 'refused'), '-q']);
      expect(ran.code).toBe(4);
      expect(ran.err).toMatch(/is not reachable: 127\.0\.0\.1:\d+: self[- ]signed certificate/);
      expect(ran.err).toContain('--insecure-skip-tls-verify takes it unchecked');
      expect(seen).toBe(0);
    });

    test('with it: every request answered and checked, a URL and a --requests file alike', async () => {
      seen = 0;
      const out = join(DIR, 'taken');
      const ran = await load([
        `${base}/`,
        '--insecure-skip-tls-verify',
        '--rate',
        '10/s',
        '-d',
        '1s',
        '--check',
        'json:$.secure=true',
        '--out',
        out,
        '-q',
      ]);
      expect(ran.code, ran.err).toBe(0);
      const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
        totals: { requests: number; statuses: Record<string, number> };
        checks: { name: string; passes: number; fails: number }[];
      };
      expect(summary.totals.requests).toBe(seen);
      expect(summary.totals.statuses).toEqual({ '200': seen });
      expect(summary.checks).toEqual([
        expect.objectContaining({ name: 'GET /: $.secure is true', passes: seen, fails: 0 }),
      ]);
      const file = join(DIR, 'tls.yaml');
      writeFileSync(file, `- url: ${base}/a\n  checks: { status: 200 }\n`);
      const listed = await load([
        '--requests',
        file,
        '--insecure-skip-tls-verify',
        '--vus',
        '1',
        '-d',
        '1s',
        '-q',
        '--out',
        join(DIR, 'file'),
      ]);
      expect(listed.code, listed.err).toBe(0);
      expect(listed.out).toMatch(/ {2}✓ GET \/a: status is 200\n/);
    });
  },
);
