// One exit code for a target that does not answer, whatever the live command: 4 (liveness, as
// `afp replay` always said), never 1, which is kept for afp's own bugs (src/core/exit-codes.ts).
// And one for a URL that answers, but is neither an afp serve nor the platform (a web server's HTML
// 404 pages): 2, the wrong URL, with the way to describe a deployment in a target file.
import { spawn, spawnSync } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

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

/** `afp ARGS` as a child, without blocking this process's event loop (the test's own server answers it). */
function afpAsync(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['src/cli/main.ts', ...args], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('a URL that answers, but not as the platform', () => {
  test('exits 2 in check, audit house-edge and audit money, saying it is not an afp serve', async () => {
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
      ]) {
        const ran = await afpAsync(args);
        expect(ran.code, `afp ${args.join(' ')}: ${ran.stderr}`).toBe(2);
        expect(ran.stderr, args.join(' ')).toContain(`${url} is not an afp serve`);
        expect(ran.stderr, args.join(' ')).not.toMatch(/crash/);
      }
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
