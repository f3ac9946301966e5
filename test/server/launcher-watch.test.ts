// `npx afp serve … &` then `kill %1` in a script ends npm exec alone (no job control, no process
// group signalled): the serve went on, reparented to init, holding its port and --data file, so the
// docs' restart recipe met "in use by another process". Started by npx (npm_command=exec), a serve
// whose parent process ends now closes as on SIGTERM; started otherwise it outlives its parent,
// as a server a setup script starts and leaves must. Here a stand-in parent (a node process)
// starts the serve and is SIGKILLed; the serve's own pid is watched, and ended by the test if alive.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { CLI_MAIN } from '../fixtures/cli-child.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-launcher-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A parent that starts `afp serve --port 0` (stderr to `log`), prints its pid once it is ready, and stays. */
async function serveUnderParent(env: Record<string, string>, log: string): Promise<{ parent: number; serve: number }> {
  const script = [
    "const { spawn } = require('node:child_process');",
    "const fs = require('node:fs');",
    `const child = spawn(process.execPath, [${JSON.stringify(CLI_MAIN)}, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', fs.openSync(${JSON.stringify(log)}, 'w')], env: { ...process.env, ...${JSON.stringify(env)} } });`,
    "child.stdout.on('data', (chunk) => { if (String(chunk).includes('ready')) console.log(child.pid); });",
    'setInterval(() => {}, 1000);',
  ].join('\n');
  const parent = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await once(parent.stdout, 'data')) as [Buffer];
  return { parent: parent.pid ?? 0, serve: Number(String(chunk).trim()) };
}

async function waitUntil(check: () => boolean, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 100) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}

describe('afp serve started by npx', () => {
  test('closes when the npx that started it ends; a serve started otherwise outlives its parent', async () => {
    const npxLog = join(DIR, 'npx.log');
    const byNpx = await serveUnderParent({ npm_command: 'exec' }, npxLog);
    const plainLog = join(DIR, 'plain.log');
    const plain = await serveUnderParent({ npm_command: '' }, plainLog);
    try {
      process.kill(byNpx.parent, 'SIGKILL');
      process.kill(plain.parent, 'SIGKILL');
      expect(await waitUntil(() => !alive(byNpx.serve), 15_000)).toBe(true);
      expect(readFileSync(npxLog, 'utf8')).toMatch(/afp serve: the npx that started it \(pid \d+\) has ended, closing/);
      // Well past the watch's period: the plain one is still serving.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(alive(plain.serve)).toBe(true);
    } finally {
      for (const pid of [byNpx.serve, plain.serve]) if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  });
});
