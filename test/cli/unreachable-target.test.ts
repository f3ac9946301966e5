// One exit code for a target that does not answer, whatever the live command: 4 (liveness, as
// `afp replay` always said), never 1, which is kept for afp's own bugs (src/core/exit-codes.ts).
// And one for a URL that answers, but is neither an afp serve nor the platform (a web server's HTML
// 404 pages): 2, the wrong URL, with the way to describe a deployment in a target file; `afp replay`
// says so before it sends anything, naming the record's mounts the URL has no address for.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runCliChild, styleARecord } from '../fixtures/cli-child.ts';

const root = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'afp-unreachable-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A loopback port nobody listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe('a target that does not answer', () => {
  test('exits 4 in check, audit house-edge and audit money, saying so', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    for (const args of [
      ['check', '--target', url, '--runs', '1'],
      ['audit', 'house-edge', '--target', url, '--bets', '100'],
      ['audit', 'money', '--target', url],
    ]) {
      const ran = spawnSync(process.execPath, ['src/cli/main.ts', ...args], {
        cwd: root,
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(ran.status, `afp ${args.join(' ')}: ${ran.stderr}`).toBe(4);
      expect(ran.stderr, args.join(' ')).toMatch(/answer|ECONNREFUSED|reach/i);
    }
  });
});

describe('a URL that answers, but not as the platform', () => {
  test('exits 2 in check, audit house-edge, audit money and replay, saying it is not an afp serve', async () => {
    // Style A sellers: the documents' per-service mounts (faucet, escrow) besides the platform's api.
    const record = await styleARecord(work);
    const server = createHttpServer((request, response) => {
      request.resume();
      response
        .writeHead(404, { 'content-type': 'text/html' })
        .end('<!DOCTYPE html><html><body>Not Found</body></html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      for (const args of [
        ['check', '--target', url, '--runs', '1'],
        ['audit', 'house-edge', '--target', url, '--bets', '100'],
        ['audit', 'money', '--target', url],
        ['replay', record, '--target', url, '--speed', 'max', '--out', join(work, 'replay')],
      ]) {
        // Asynchronous (runCliChild): this process's own server must answer while the child runs.
        const ran = await runCliChild(args, { timeoutMs: 60_000 });
        expect(ran.code, `afp ${args.join(' ')}: ${ran.stderr}`).toBe(2);
        expect(ran.stderr, args.join(' ')).toContain(`${url} is not an afp serve`);
        expect(ran.stderr, args.join(' ')).not.toMatch(/crash/);
      }
      const replayed = await runCliChild(['replay', record, '--target', url, '--out', join(work, 'replay')]);
      expect(replayed.stderr).toContain(`the record sends to mounts escrow, faucet, which ${url} does not announce`);
      expect(replayed.stdout).not.toContain('exchanges sent');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
