// One exit code for a target that does not answer, whatever the live command: 4 (liveness, as
// `afp replay` always said), never 1, which is kept for afp's own bugs (src/core/exit-codes.ts).
import { spawnSync } from 'node:child_process';
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
