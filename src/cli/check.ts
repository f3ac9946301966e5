/**
 * `afp check [--target URL] [--seed N] [--runs N] [--path P] [--max-commands N] [--defect NAME]`:
 * model-based property checks of faucet, escrow and casino (src/check/run-check.ts), in-process by
 * default, against a live deployment with --target.
 *
 * Output contract: `seed: N` is the first line; then the target and one `note:` line per skipped
 * assertion or disabled command (each with its reason); then `ok: ...`, or on failure the error,
 * the shrunk command sequence, fast-check's counterexample, the seed, the path and the exact
 * reproduce command. Exit codes: 0 every run held · 1 crash or unreachable target · 2 invalid
 * flags · 3 an answer differed from the model.
 * Without --seed a seed is drawn here (the CLI is a door for randomness) and printed first.
 * `--defect` is for tests and demos only: it switches on a deliberate in-process platform defect.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { targetUrlError } from '../client/target.ts';
import { SystemClock } from '../core/clock.ts';
import type { DefectName } from '../services/shared/context.ts';
import { checkOptionErrors, runCheck, RUNS_DEFAULT, type CheckOptions, type CheckResult } from '../check/run-check.ts';
import { MAX_COMMANDS } from '../check/command-table.ts';
import { DEFECT_NAMES } from '../services/shared/context.ts';
import { parseArgs, stringFlag } from './args.ts';
import { EXIT } from './exit-codes.ts';

const USAGE = 'usage: afp check [--target URL] [--seed N] [--runs N] [--path P] [--max-commands N] [--defect NAME[,NAME]]';
const DEFECTS = DEFECT_NAMES;

export interface CheckIo {
  out(text: string): void;
  err(text: string): void;
}

const PROCESS_IO: CheckIo = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) };

function wholeNumber(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  return /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
}

/** The options of the flags, or every error found. */
export function parseCheckArgs(argv: readonly string[], drawSeed: () => number, drawSession: () => string): CheckOptions | { errors: string[] } {
  const args = parseArgs(argv, { target: 'string', seed: 'string', runs: 'string', path: 'string', 'max-commands': 'string', defect: 'string' });
  const errors = [...args.errors, ...args.positionals.map((positional) => `unexpected argument '${positional}'`)];
  const target = stringFlag(args, 'target');
  const targetError = target === undefined ? null : targetUrlError(target);
  if (targetError !== null) errors.push(targetError);
  const defects: DefectName[] = [];
  for (const name of (stringFlag(args, 'defect') ?? '').split(',').filter((text) => text !== '')) {
    if ((DEFECTS as readonly string[]).includes(name)) defects.push(name as DefectName);
    else errors.push(`unknown --defect '${name}'; known: ${DEFECTS.join(', ')}`);
  }
  const path = stringFlag(args, 'path');
  const options: CheckOptions = {
    seed: wholeNumber(stringFlag(args, 'seed'), Number.NaN),
    runs: wholeNumber(stringFlag(args, 'runs'), RUNS_DEFAULT),
    maxCommands: wholeNumber(stringFlag(args, 'max-commands'), MAX_COMMANDS),
    ...(target === undefined ? {} : { target, session: drawSession(), wallClock: new SystemClock() }),
    ...(path === undefined ? {} : { path }),
    ...(defects.length === 0 ? {} : { defects }),
  };
  const seeded: CheckOptions = Number.isNaN(options.seed) && stringFlag(args, 'seed') === undefined ? { ...options, seed: drawSeed() } : options;
  errors.push(...checkOptionErrors(seeded).map((error) => error.replace(/^seed/, '--seed').replace(/^runs/, '--runs').replace(/^max commands/, '--max-commands').replace(/^path/, '--path')));
  return errors.length > 0 ? { errors } : seeded;
}

export async function main(argv: string[], io: CheckIo = PROCESS_IO): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(`${USAGE}\ndefects (in-process only): ${DEFECTS.join(', ')}\n`);
    return EXIT.ok;
  }
  const parsed = parseCheckArgs(argv, () => randomInt(0, 0x7fffffff), () => randomBytes(4).toString('hex'));
  if ('errors' in parsed) {
    io.err(`${parsed.errors.map((error) => `afp check: ${error}`).join('\n')}\n${USAGE}\n`);
    return EXIT.invalidInput;
  }
  io.out(`seed: ${parsed.seed}\n`);
  let result: CheckResult;
  try {
    result = await runCheck(parsed);
  } catch (error) {
    io.err(`afp check: ${error instanceof Error ? error.message : String(error)}\nseed: ${parsed.seed}\n`);
    return EXIT.crash;
  }
  io.out(formatResult(result));
  if (result.failure === undefined) return EXIT.ok;
  return result.failure.kind === 'mismatch' ? EXIT.checkFailed : EXIT.crash;
}

export function formatResult(result: CheckResult): string {
  const lines = [`target: ${result.target}`, ...result.notes.map((note) => `note: ${note}`)];
  const failure = result.failure;
  if (failure === undefined) {
    lines.push(`ok: ${result.runs} runs held (at most ${MAX_COMMANDS} commands each)`);
    return `${lines.join('\n')}\n`;
  }
  lines.push(
    `FAILED: ${failure.kind === 'mismatch' ? 'an answer differs from the model' : 'the check could not run'} (run ${result.runs}, ${result.shrinks} shrinks)`,
    `error: ${failure.error}`,
    `shrunk command sequence (${failure.commands.length} commands; the last one failed):`,
    ...failure.commands.map((command, index) => `  ${index + 1}. ${command}`),
    `counterexample: ${failure.counterexample}`,
    `seed: ${failure.seed}`,
    `path: ${failure.path}`,
    `reproduce: ${failure.reproduce}`,
  );
  return `${lines.join('\n')}\n`;
}
