// Acceptance of record and replay at full scale (issue: walking skeleton, acceptance 3):
// records the whole quickstart, replays it against a faithful `afp serve` on loopback (expects
// zero differences, exit 0) and against one with a deliberate defect (expects exit 3 and the
// defect named). Prints the figures. Bounded: each step has a time limit; servers are ended by
// the process ids this script started. Run: `node scripts/acceptance-replay.ts` (about 2 minutes).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const main = join(root, 'src', 'cli', 'main.ts');
const work = mkdtempSync(join(tmpdir(), 'afp-acceptance-'));
const record = join(work, 'quickstart.jsonl');

function afp(args: readonly string[], timeoutMs: number): { status: number | null; stdout: string; seconds: number } {
  const started = Date.now();
  const result = spawnSync(process.execPath, [main, ...args], { cwd: root, encoding: 'utf8', timeout: timeoutMs });
  return { status: result.status, stdout: result.stdout + result.stderr, seconds: (Date.now() - started) / 1000 };
}

async function serve(extra: readonly string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      main,
      'serve',
      '--port',
      '0',
      '--trust-proxy',
      '127.0.0.1/32',
      '--seed',
      '42',
      '--clock',
      'manual',
      '--start',
      '2026-01-01T00:00:00Z',
      ...extra,
    ],
    { cwd: root },
  );
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`afp serve did not get ready: ${output}`)), 20_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const api = /^api: (\S+)$/m.exec(output);
      if (api !== null && output.includes('ready')) {
        clearTimeout(timer);
        resolve(api[1] as string);
      }
    });
  });
  return { child, url };
}

function lastLines(text: string, count: number): string {
  return text.trimEnd().split('\n').slice(-count).join('\n');
}

async function main_(): Promise<number> {
  let failures = 0;
  const recorded = afp(['run', 'scenarios/quickstart.yaml', '--out', join(work, 'run'), '--record', record], 120_000);
  console.log(
    `record: exit ${recorded.status} in ${recorded.seconds.toFixed(1)} s, ${readFileSync(record, 'utf8').split('\n').length - 2} exchanges`,
  );
  if (recorded.status !== 0) return 1;
  for (const [label, extra, expected] of [
    ['faithful', [], 0],
    ['defect escrow-fee-2pct', ['--defect', 'escrow-fee-2pct'], 3],
  ] as const) {
    const server = await serve(extra);
    try {
      const replayed = afp(
        ['replay', record, '--target', server.url, '--speed', 'max', '--out', join(work, label.replaceAll(' ', '-'))],
        600_000,
      );
      const verdict = replayed.status === expected ? 'as expected' : `EXPECTED ${expected}`;
      console.log(
        `replay against ${label} serve: exit ${replayed.status} (${verdict}) in ${replayed.seconds.toFixed(1)} s`,
      );
      console.log(lastLines(replayed.stdout.split('\nreproduce:')[0] ?? '', 4));
      if (replayed.status !== expected) failures++;
      if (expected === 3 && !replayed.stdout.includes('body/fee')) {
        console.log('the fee difference was not named');
        failures++;
      }
    } finally {
      server.child.kill('SIGTERM');
    }
  }
  rmSync(work, { recursive: true, force: true });
  console.log(failures === 0 ? 'acceptance-replay: passed' : `acceptance-replay: ${failures} failed`);
  return failures === 0 ? 0 : 3;
}

process.exitCode = await main_();
