/**
 * The casino part of a full `npm run bench`, measured in a child process of its own.
 *
 * Why: the traffic mix runs faucet and escrow rows through the one dispatcher first, and V8 keeps
 * what it learnt there (call sites of parse, run and render that have seen twenty row shapes), so a
 * casino phase run after it in the same process measures that history as much as the bet path
 * (0.28 after the mix against 0.30–0.32 alone). Each part now starts from a fresh process; the
 * casino's own ratio is still measured within one process, its bet and HMAC rounds alternated.
 * The child is this same script with `--only casino` and AFP_BENCH_CHILD=casino, which makes it
 * print its raw result as one JSON line instead of the report. The load part (load-phase.ts) runs
 * in a child of its own the same way (`partInChild('load', …)`).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CasinoResult } from './bench-report.ts';

export const CHILD_ENV = 'AFP_BENCH_CHILD';

export interface CasinoChildResult {
  readonly result: CasinoResult;
  readonly refused: number;
}

/** A part of the bench that a full run measures in a fresh process of its own. */
export type ChildPart = 'casino' | 'load';

/** Runs the casino part in a fresh process with the same flags; its progress goes to our stderr. */
export function casinoInChild(argv: readonly string[]): Promise<CasinoChildResult> {
  return partInChild<CasinoChildResult>('casino', argv);
}

/**
 * Runs `part` in a fresh process (this script with `--only <part>` and AFP_BENCH_CHILD=<part>),
 * which prints its raw result as one JSON line; the load part runs there for the casino's reason.
 */
export function partInChild<T>(part: ChildPart, argv: readonly string[]): Promise<T> {
  const script = fileURLToPath(new URL('./main.ts', import.meta.url));
  const args = [...process.execArgv, script, ...argv.filter((arg) => arg !== '--json'), '--only', part];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, [CHILD_ENV]: part },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) {
        reject(new Error(`the ${part} bench child exited ${String(code)}`));
        return;
      }
      try {
        resolve(JSON.parse(output) as T);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}
