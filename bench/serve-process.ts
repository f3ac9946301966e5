/**
 * A real `afp serve` in a child process, for the HTTP phase: started on this very Node
 * (`process.execPath src/cli/main.ts serve --port 0 --clock manual --start ISO --seed N`, and
 * `--data FILE` for a durable round: a fresh file the caller owns and removes; pinned to a core
 * through taskset when asked, which execs it, so the pid is the server's), its
 * printed `mount: url` lines read until `ready`, stopped by its pid (SIGTERM, then SIGKILL when it
 * has not exited in time). Every wait is bounded; a server that does not come up is an error
 * that quotes its stderr.
 * Node's flags: those of `bin/afp.js`'s first line (`#!/usr/bin/env -S node FLAGS`), the ones a user's
 * `afp serve` runs with (its young generation's size), unless the caller gives its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { MountUrls } from '../src/client/transport.ts';
import { pinned } from './cpu-pin.ts';

const ROOT = join(import.meta.dirname, '..');
export const SERVE_READY_TIMEOUT_MS = 30_000;
export const SERVE_EXIT_TIMEOUT_MS = 10_000;
const STDERR_KEPT_CHARS = 4_000;

/** The Node flags of bin/afp.js's `#!/usr/bin/env -S node FLAGS` line (none when it has none). */
export function userNodeFlags(): string[] {
  const first = readFileSync(join(ROOT, 'bin', 'afp.js'), 'utf8').split('\n', 1)[0] ?? '';
  const words = first.split(' ').filter((word) => word !== '');
  const node = words.indexOf('node');
  return node === -1 ? [] : words.slice(node + 1).filter((word) => word.startsWith('--'));
}

export interface ServeProcess {
  readonly pid: number;
  readonly urls: MountUrls;
  stop(): Promise<void>;
}

export async function startServeProcess(options: {
  seed: string;
  startMs: number;
  dataFile?: string;
  checkpointEvery?: number;
  /** The core to pin it to (cpu-pin.ts; absent: unpinned). */
  cpu?: number;
  /** Node's own flags for the server (e.g. --max-semi-space-size=64: a user's choice the bench may measure; absent: bin/afp.js's). */
  nodeFlags?: readonly string[];
}): Promise<ServeProcess> {
  const args = [
    ...(options.nodeFlags ?? userNodeFlags()),
    join(ROOT, 'src', 'cli', 'main.ts'),
    'serve',
    '--port',
    '0',
    '--trust-proxy',
    '127.0.0.1/32',
    '--clock',
    'manual',
    '--start',
    new Date(options.startMs).toISOString(),
    '--seed',
    options.seed,
  ];
  if (options.dataFile !== undefined) args.push('--data', options.dataFile);
  if (options.checkpointEvery !== undefined) args.push('--checkpoint-every', String(options.checkpointEvery));
  const command = pinned(options.cpu, process.execPath, args);
  const child = spawn(command.command, command.args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_KEPT_CHARS);
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('afp serve did not start (no pid)');
  try {
    const urls = await readUrls(child, () => stderr);
    return { pid, urls, stop: () => stopChild(child, pid) };
  } catch (error) {
    await stopChild(child, pid);
    throw error;
  }
}

function readUrls(child: ChildProcess, stderr: () => string): Promise<MountUrls> {
  return new Promise((resolve, reject) => {
    const urls: Record<string, string> = {};
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    const finish = (error: Error | null): void => {
      clearTimeout(timer);
      lines.close();
      child.off('exit', onExit);
      if (error === null) resolve(urls);
      else reject(error);
    };
    const onExit = (code: number | null): void =>
      finish(new Error(`afp serve exited (${code ?? 'signal'}) before it was ready: ${stderr()}`));
    const timer = setTimeout(
      () => finish(new Error(`afp serve was not ready after ${SERVE_READY_TIMEOUT_MS} ms: ${stderr()}`)),
      SERVE_READY_TIMEOUT_MS,
    );
    child.on('exit', onExit);
    lines.on('line', (line) => {
      if (line === 'ready') return finish(null);
      const match = /^([a-z]+): (http:\/\/\S+)$/.exec(line);
      if (match !== null) urls[match[1] as string] = match[2] as string;
    });
  });
}

async function stopChild(child: ChildProcess, pid: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(pid, 'SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), SERVE_EXIT_TIMEOUT_MS);
  });
  const timedOut = await Promise.race([exited.then(() => false), late]);
  clearTimeout(timer);
  if (timedOut) {
    process.kill(pid, 'SIGKILL');
    await exited;
  }
}
