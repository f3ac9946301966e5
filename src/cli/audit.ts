/**
 * `afp audit house-edge ...`, `afp audit fairness ...` and `afp audit money ...`: the auditor's
 * commands (docs/design.md), a table of three subcommands (their definitions, and so their `--help`, are
 * in commands.ts; the entry answers `--help`). Each parses its flags strictly (every error
 * at once, exit 2) and returns its ending; house-edge prints its seed first
 * (audit-house-edge.ts), fairness draws no randomness and prints none (audit-fairness.ts).
 * A crash (a bug) is exit 1 with the seed and the error; a target that does not answer is 4.
 * Each subcommand's module is loaded when it runs (house-edge's live half only with --target):
 * an in-process house-edge audit's start does not pay for the live audits' target files, wire
 * dialects and fairness schemes. Fairness and money parse their flags with light imports
 * (audit-fairness-flags.ts, audit-money-flags.ts) and load the audit once they pass.
 */
import type { FairnessFlags } from './audit-fairness-flags.ts';
import type { HouseEdgeFlags } from './audit-house-edge.ts';
import { AUDIT_PROCESS_IO, SYSTEM_LIVE_CLOCK, type AuditIo } from './audit-io.ts';
import type { MoneyFlags } from './audit-money-flags.ts';
import { usageLine } from './command-definition.ts';
import { definitionOf } from './commands.ts';
import { withJsonOutput, type RecordFields } from './json-output.ts';
import { disarmTargetBudgets } from './target-budget.ts';
import { crashed, type Ending, invalidInput } from '../core/command-failure.ts';

const USAGE = `usage: ${['house-edge', 'fairness', 'money'].map((name) => usageLine(definitionOf('audit', name))).join('\n       ')}`;

const crashMessage = (error: unknown): string =>
  error instanceof Error ? (error.stack ?? error.message) : String(error);

interface Refused {
  readonly errors: readonly string[];
}

const refused = <F extends object>(flags: F | Refused): flags is Refused => 'errors' in flags;

/**
 * The one way every audit subcommand runs: flags refused are exit 2 (every error at once, then the
 * usage); else the run, where a crash is exit 1 with its stack (and the seed, for a seeded run).
 */
async function runAudit<F extends object>(
  name: string,
  flags: F | Refused,
  io: AuditIo,
  record: RecordFields,
  run: (flags: F) => Promise<Ending>,
  seedOf: (flags: F) => string | null = () => null,
): Promise<Ending> {
  if (refused(flags)) {
    record({ errors: flags.errors });
    return invalidInput(`${flags.errors.map((error) => `afp audit ${name}: ${error}`).join('\n')}\n${USAGE}`);
  }
  try {
    return await run(flags);
  } catch (error) {
    const seed = seedOf(flags);
    return crashed(`afp audit ${name}: crash: ${crashMessage(error)}${seed === null ? '' : `\nseed: ${seed}`}`);
  }
}

async function houseEdge(argv: readonly string[], io: AuditIo, record: RecordFields): Promise<Ending> {
  const { drawSeed, parseHouseEdgeArgs, runHouseEdgeInProcess } = await import('./audit-house-edge.ts');
  const flags = parseHouseEdgeArgs(argv, drawSeed);
  if (!refused(flags)) {
    record({ seed: flags.seed });
    (flags.format === 'table' ? io.out : io.err)(`seed: ${flags.seed}\n`);
  }
  return runAudit<HouseEdgeFlags>(
    'house-edge',
    flags,
    io,
    record,
    async (parsed) =>
      parsed.target === null
        ? runHouseEdgeInProcess(parsed, io, record)
        : (await import('./audit-house-edge-live.ts')).runHouseEdgeLive(parsed, io, SYSTEM_LIVE_CLOCK, record),
    (parsed) => parsed.seed,
  );
}

async function fairness(argv: readonly string[], io: AuditIo, record: RecordFields): Promise<Ending> {
  const { parseFairnessArgs } = await import('./audit-fairness-flags.ts');
  return runAudit<FairnessFlags>('fairness', parseFairnessArgs(argv, Date.now()), io, record, async (flags) =>
    (await import('./audit-fairness.ts')).runFairness(flags, io, SYSTEM_LIVE_CLOCK, record),
  );
}

async function money(argv: readonly string[], io: AuditIo, record: RecordFields): Promise<Ending> {
  const { parseMoneyArgs } = await import('./audit-money-flags.ts');
  return runAudit<MoneyFlags>('money', parseMoneyArgs(argv, Date.now()), io, record, async (flags) =>
    (await import('./audit-money.ts')).runMoney(flags, io, SYSTEM_LIVE_CLOCK, record),
  );
}

const SUBCOMMANDS: Readonly<
  Record<string, (argv: readonly string[], io: AuditIo, record: RecordFields) => Promise<Ending>>
> = { 'house-edge': houseEdge, fairness, money };

export async function main(argv: string[], io: AuditIo = AUDIT_PROCESS_IO): Promise<Ending> {
  const [name, ...rest] = argv;
  const run = name === undefined ? undefined : SUBCOMMANDS[name];
  if (run === undefined) {
    const problem = name === undefined ? 'name a subcommand' : `unknown subcommand '${name}'`;
    return invalidInput(`afp audit: ${problem}\n${USAGE}`);
  }
  // The hard stop a live audit arms ends with the audit, whatever path it ended on.
  try {
    return await withJsonOutput(`afp audit ${name}`, rest, io, (human, record) => run(rest, human, record));
  } finally {
    disarmTargetBudgets();
  }
}
