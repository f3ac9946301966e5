/**
 * `afp audit house-edge ...`, `afp audit fairness ...` and `afp audit money ...`: the auditor's
 * commands (DESIGN.md), a table of three subcommands (their definitions, and so their `--help`, are
 * in commands.ts; the entry answers `--help`). Each parses its flags strictly (every error
 * at once, exit 2) and returns its exit code; house-edge prints its seed first
 * (audit-house-edge.ts), fairness draws no randomness and prints none (audit-fairness.ts).
 * A crash (a bug) is exit 1 with the seed and the error; a target that does not answer is 4.
 */
import { parseFairnessArgs, runFairness, FAIRNESS_USAGE } from './audit-fairness.ts';
import { runHouseEdgeLive } from './audit-house-edge-live.ts';
import { drawSeed, HOUSE_EDGE_USAGE, parseHouseEdgeArgs, runHouseEdgeInProcess } from './audit-house-edge.ts';
import { PROCESS_IO, SYSTEM_LIVE_CLOCK, type AuditIo } from './audit-io.ts';
import { MONEY_USAGE, parseMoneyArgs, runMoney } from './audit-money.ts';
import { EXIT } from '../core/exit-codes.ts';
import { withJsonOutput, type RecordFields } from './json-output.ts';

const USAGE = `usage: ${HOUSE_EDGE_USAGE}\n       ${FAIRNESS_USAGE}\n       ${MONEY_USAGE}`;

const crashMessage = (error: unknown): string =>
  error instanceof Error ? (error.stack ?? error.message) : String(error);

async function houseEdge(argv: readonly string[], io: AuditIo, record: RecordFields): Promise<number> {
  const flags = parseHouseEdgeArgs(argv, drawSeed);
  if ('errors' in flags) {
    record({ errors: flags.errors });
    io.err(`${flags.errors.map((error) => `afp audit house-edge: ${error}`).join('\n')}\n${USAGE}\n`);
    return EXIT.invalidInput;
  }
  record({ seed: flags.seed });
  (flags.format === 'table' ? io.out : io.err)(`seed: ${flags.seed}\n`);
  try {
    return flags.target === null
      ? await runHouseEdgeInProcess(flags, io, record)
      : await runHouseEdgeLive(flags, io, SYSTEM_LIVE_CLOCK, record);
  } catch (error) {
    io.err(`afp audit house-edge: crash: ${crashMessage(error)}\nseed: ${flags.seed}\n`);
    return EXIT.crash;
  }
}

async function fairness(argv: readonly string[], io: AuditIo, record: RecordFields): Promise<number> {
  const flags = parseFairnessArgs(argv, Date.now());
  if ('errors' in flags) {
    record({ errors: flags.errors });
    io.err(`${flags.errors.map((error) => `afp audit fairness: ${error}`).join('\n')}\n${USAGE}\n`);
    return EXIT.invalidInput;
  }
  try {
    return await runFairness(flags, io, SYSTEM_LIVE_CLOCK, record);
  } catch (error) {
    io.err(`afp audit fairness: crash: ${crashMessage(error)}\n`);
    return EXIT.crash;
  }
}

async function money(argv: readonly string[], io: AuditIo, record: RecordFields): Promise<number> {
  const flags = parseMoneyArgs(argv, Date.now());
  if ('errors' in flags) {
    record({ errors: flags.errors });
    io.err(`${flags.errors.map((error) => `afp audit money: ${error}`).join('\n')}\n${USAGE}\n`);
    return EXIT.invalidInput;
  }
  try {
    return await runMoney(flags, io, SYSTEM_LIVE_CLOCK, record);
  } catch (error) {
    io.err(`afp audit money: crash: ${crashMessage(error)}\n`);
    return EXIT.crash;
  }
}

const SUBCOMMANDS: Readonly<
  Record<string, (argv: readonly string[], io: AuditIo, record: RecordFields) => Promise<number>>
> = { 'house-edge': houseEdge, fairness, money };

export async function main(argv: string[], io: AuditIo = PROCESS_IO): Promise<number> {
  const [name, ...rest] = argv;
  const run = name === undefined ? undefined : SUBCOMMANDS[name];
  if (run === undefined) {
    io.err(`afp audit: ${name === undefined ? 'name a subcommand' : `unknown subcommand '${name}'`}\n${USAGE}\n`);
    return EXIT.invalidInput;
  }
  return withJsonOutput(`afp audit ${name}`, rest, io, (human, record) => run(rest, human, record));
}
