// Every shell block of README.md and docs/*.md runs as a reader pastes it (test/docs/shell-blocks.ts
// says how, and what a block's `<!-- test: … -->` marker may change): in a working copy of the
// repository in a temp directory (scenarios/ and targets/ copied, the rest linked; reports and
// written files land there), through `npx afp` on this Node, with servers on free loopback
// ports, bounded in time, each block in its own session killed at its end; blocks run side by
// side, each in a copy of its own. Skipped blocks are listed with their reasons.
// npm's npx: the first `npx afp` of README.md's first block that runs (what a reader pastes first)
// goes through npm's own `npx`; every other call meets a stand-in `npx` first on PATH that runs
// `npx afp …` as npm's does here — the copy's node_modules/.bin/afp — and hands any other package
// to npm's. Why: npm's exec walks the whole node_modules tree before it runs a local bin, about
// 1.1 CPU s per call, and the README and docs hold over 50 such calls; that npm's `npx afp` finds
// afp is shown by that one call, and a second would show nothing more.
// A block whose commands and marker are another block's (commandsKey in shell-blocks.ts: the README
// repeats a docs page's recipe, its comments aside) runs once for both: each one's test awaits that
// run, and the blocks that shared one are listed beside the skipped.
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDocTexts } from '../../src/cli/docs-usage.ts';
import {
  commandsKey,
  failFastWaits,
  movePorts,
  PORT_SPAN,
  scriptToRun,
  shellBlocks,
  type ShellBlock,
} from './shell-blocks.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const LINKED = ['package.json', 'node_modules', 'bin', 'src', 'agents', 'schemas', 'scripts', 'docs'];
const COPIED = ['scenarios', 'targets'];
const pages = readDocTexts(ROOT)
  .map((doc) => ({ path: doc.path, blocks: shellBlocks(doc.path, doc.text) }))
  .filter((page) => page.blocks.length > 0);
const skipped: string[] = [];

const NPX_STAND_IN = 'npx-stand-in';
/** Made by the first `npx afp` handed to npm's npx; from then on the stand-in runs every `npx afp`. */
const NPM_NPX_RAN = 'npm-npx-ran';
/** The block whose first `npx afp` npm's own npx runs (see the header). */
const NPM_NPX_BLOCK = pages
  .find((page) => page.path === 'README.md')
  ?.blocks.find((block) => block.marker.skip === null && /^npx afp /m.test(block.script));

function workingCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'afp-docs-'));
  for (const name of LINKED) {
    symlinkSync(join(ROOT, name), join(dir, name));
  }
  for (const name of COPIED) cpSync(join(ROOT, name), join(dir, name), { recursive: true });
  return dir;
}

/**
 * The directory of the stand-in `npx` (see the header): `npx afp` runs the copy's local bin, as
 * npm's npx does, except the first one when `npmFirst` (NPM_NPX_BLOCK), which npm's npx runs.
 */
function npxStandIn(dir: string, npmFirst: boolean): string {
  const bin = join(dir, NPX_STAND_IN);
  mkdirSync(bin);
  const ran = join(bin, NPM_NPX_RAN);
  if (!npmFirst) writeFileSync(ran, '');
  const npm = process.env.PATH?.split(':')
    .map((entry) => join(entry, 'npx'))
    .find((file) => existsSync(file));
  const script = [
    '#!/bin/sh',
    `if [ "$1" = afp ] && [ -e '${ran}' ]; then shift; exec '${join(dir, 'node_modules', '.bin', 'afp')}' "$@"; fi`,
    `if [ "$1" = afp ]; then : > '${ran}'; fi`,
    `exec '${npm ?? 'npx'}' "$@"`,
    '',
  ].join('\n');
  writeFileSync(join(bin, 'npx'), script, { mode: 0o755 });
  return bin;
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A base port whose PORT_SPAN ports are all free on 127.0.0.1 (at most 50 tries), below Linux's
 * ephemeral range (32768 up): a port free now must not be handed to another test's outgoing or
 * port-0 socket before the block's server binds it (seen once: EADDRINUSE on a block's P+4).
 */
async function freeBase(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const base = 10_000 + Math.floor(Math.random() * 22_000);
    const checks = await Promise.all(Array.from({ length: PORT_SPAN }, (_, offset) => portFree(base + offset)));
    if (checks.every(Boolean)) return base;
  }
  throw new Error('no 8 free consecutive loopback ports found');
}

/** The copy's target files with the block's listeners moved, so `--target targets/X.yaml` meets them. */
function moveTargetPorts(dir: string, base: number, to: number): void {
  const targets = join(dir, 'targets');
  for (const name of readdirSync(targets).filter((file) => file.endsWith('.yaml'))) {
    const file = join(targets, name);
    writeFileSync(file, movePorts(readFileSync(file, 'utf8'), base, to));
  }
}

interface Ran {
  status: number | null;
  output: string;
  timedOut: boolean;
}

function runScript(script: string, dir: string, block: ShellBlock): Promise<Ran> {
  // This Node first (npx's `afp` runs on it); npx's cache in the copy, offline: `npx afp` links the
  // copy's own package and never reaches a registry.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${npxStandIn(dir, block === NPM_NPX_BLOCK)}:${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
    npm_config_cache: join(dir, '.npm-cache'),
    npm_config_offline: 'true',
    ...block.marker.env,
  };
  // A CI's run variables (the recipes read them with a default) are the marker's or none.
  for (const name of ['GITHUB_RUN_ID', 'GITHUB_RUN_NUMBER']) {
    const value = block.marker.env[name];
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return new Promise((resolve) => {
    // `set -m`: a background job gets its own process group, so `kill %1` stops it with its
    // children, as in a reader's terminal; the block runs in a session of its own (detached), and
    // whatever is left of that session when it ends is killed.
    const child = spawn('bash', ['-c', `set -em\n${script}`], {
      cwd: dir,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString('utf8')).slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killSession(child.pid);
    }, block.marker.timeoutSeconds * 1000);
    child.on('exit', (status) => {
      clearTimeout(timer);
      killSession(child.pid); // a server the block left running in the background
      resolve({ status, output, timedOut });
    });
  });
}

/** Kills every process of the session `sid` (the block's bash and all it started), by pid. */
function killSession(sid: number | undefined): void {
  if (sid === undefined) return;
  const listed = spawnSync('ps', ['-o', 'pid=', '-s', String(sid)], { encoding: 'utf8' });
  for (const pid of listed.stdout
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((pid) => pid > 0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

/** Runs one block in the page's working copy; a failure's message, or null when it held. */
async function runBlock(block: ShellBlock, dir: string): Promise<string | null> {
  const name = `${block.path}:${block.line}`;
  let base: number | null = null;
  if (block.marker.ports !== null) {
    base = await freeBase();
    cpSync(join(ROOT, 'targets'), join(dir, 'targets'), { recursive: true });
    moveTargetPorts(dir, block.marker.ports, base);
  }
  const ran = await runScript(scriptToRun(block, base), dir, block);
  if (ran.timedOut) return `${name} ran past ${block.marker.timeoutSeconds} s:\n${ran.output}`;
  const orExit = block.marker.orExit;
  if (orExit !== null && ran.status === orExit.status && ran.output.includes(orExit.when)) return null;
  if (ran.status !== block.marker.exit) return `${name} exited ${ran.status}, not ${block.marker.exit}:\n${ran.output}`;
  return null;
}

/** Runs `block` in a working copy of its own, removed after: a failure's message, or null. */
async function runInCopy(block: ShellBlock): Promise<string | null> {
  const dir = workingCopy();
  try {
    return await runBlock(block, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One run per commandsKey (see the header), started by the first test that asks for it. */
const runs = new Map<string, Promise<string | null>>();
/** The first block of each commandsKey, to name it beside a block that shares its run. */
const firstOfKey = new Map<string, string>();
const shared: string[] = [];
for (const block of pages.flatMap((page) => page.blocks)) {
  if (block.marker.skip !== null) continue;
  const first = firstOfKey.get(commandsKey(block));
  if (first === undefined) firstOfKey.set(commandsKey(block), `${block.path}:${block.line}`);
  else shared.push(`${block.path}:${block.line}: the commands of ${first}, run once for both`);
}

function runOnce(block: ShellBlock): Promise<string | null> {
  const key = commandsKey(block);
  const ran = runs.get(key) ?? runInCopy(block);
  runs.set(key, ran);
  return ran;
}

// Blocks run side by side, each in its own working copy on its own ports (no block reads what
// another wrote), at most vitest's maxConcurrency at once.
describe('every shell block', () => {
  for (const block of pages.flatMap((page) => page.blocks)) {
    const name = `${block.path}:${block.line}`;
    if (block.marker.skip !== null) {
      skipped.push(`${name}: ${block.marker.skip}`);
      it.skip(`${name} (skipped: ${block.marker.skip})`, () => undefined);
      continue;
    }
    it.concurrent(
      `${name} runs as pasted${block.marker.exit === 0 ? '' : ` and exits ${block.marker.exit}`}`,
      async () => {
        expect(await runOnce(block)).toBeNull();
      },
      (block.marker.timeoutSeconds + 30) * 1000,
    );
  }
});

describe('the shell blocks', () => {
  it('are found, and every skip names its reason', () => {
    const all = pages.flatMap((page) => page.blocks);
    expect(all.length).toBeGreaterThan(10);
    expect(NPM_NPX_BLOCK?.path, 'a README block runs `npx afp` through npm').toBe('README.md');
    for (const block of all)
      if (block.marker.skip !== null)
        expect(block.marker.skip.length, `${block.path}:${block.line}`).toBeGreaterThan(10);
    console.log(
      `shell blocks: ${all.length}, skipped ${skipped.length}:\n${skipped.map((line) => `  ${line}`).join('\n')}\n` +
        `sharing another block's run: ${shared.length}:\n${shared.map((line) => `  ${line}`).join('\n')}`,
    );
  });
});

describe('a recipe whose background server dies', () => {
  it('ends its wait for the server at once (status 97), not at the block timeout', () => {
    // A server that exits at once (its port taken, say), then the recipes' wait for it.
    const script = failFastWaits('(exit 1) &\nuntil curl -sf http://127.0.0.1:9/health >/dev/null; do sleep 0.2; done');
    const started = Date.now();
    const ran = spawnSync('bash', ['-c', `set -em\n${script}`], { encoding: 'utf8', timeout: 30_000 });
    expect(ran.status, ran.stderr).toBe(97);
    expect(ran.stderr).toContain('the background server exited before it answered');
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
