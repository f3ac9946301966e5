/**
 * `afp target probe URL… [--out FILE] [--force] [--timeout-ms N]`: looks at live URLs with safe
 * GETs only (never a POST), says which service each one is and which dialect each speaks (a table
 * of every endpoint sent, its status and the evidence it gave), and writes a target file for
 * `--target FILE` (src/live/probe/). With --out the table goes to stdout and the file to FILE (an
 * existing FILE only with --force); without it the table goes to stderr and the file to stdout,
 * so `afp target probe URL > target.yaml` works.
 * Exit codes: 0 a target file written; 4 nothing answered (as every live command's unreachable
 * target); 2 bad flags or URLs, FILE exists without --force, or nothing answering is a service of
 * the platform (the URLs given cannot make a target). With --json stdout is one JSON object
 * (json-output.ts): the verdict, the services found and the target file's text; the table goes to stderr.
 * The flags and URLs are checked through the probe's light face (src/live/probe.ts); the probe loads only once they
 * pass, the target-file parser only once there is a file to check.
 */
import {
  applyAnswerLimitFlag,
  armTargetBudget,
  budgetLine,
  budgetSecondsOf,
  disarmTargetBudgets,
} from './target-budget.ts';
import { writeFileAtomic } from '../core/atomic-file.ts';
import { writingTo } from '../core/output-write-error.ts';
import { existsSync } from 'node:fs';
import { assert } from '../core/assert.ts';
import {
  MAX_URLS,
  PROBE_TIMEOUT_MS,
  probeInput,
  renderProbeTable,
  renderTargetText,
  serverLine,
  type ProbeInput,
} from '../live/probe.ts';
import { parseCommand, stringFlag } from './args.ts';
import { usageLine } from './command-definition.ts';
import { definitionOf } from './commands.ts';
import { AUDIT_PROCESS_IO, wholeFlag, runSubcommand, type AuditIo, type Subcommands } from './audit-io.ts';
import { withJsonOutput, type RecordFields } from './json-output.ts';
import { type Ending, invalidInput, PASSED, unsettled } from '../core/command-failure.ts';

export const PROBE_USAGE = usageLine(definitionOf('target', 'probe'));

interface ProbeFlags {
  readonly inputs: readonly ProbeInput[];
  readonly urls: readonly string[];
  readonly out: string | null;
  readonly force: boolean;
  readonly timeoutMs: number;
  /** --max-seconds: the probe's total time budget. */
  readonly budgetSeconds: number;
}

/** --max-seconds of a probe: 42 paths at 4 in flight take seconds; a stalling URL must not take minutes. */
const PROBE_BUDGET_SECONDS = 120;

export function parseProbeArgs(argv: readonly string[]): ProbeFlags | { readonly errors: readonly string[] } {
  const args = parseCommand(argv, definitionOf('target', 'probe'));
  const errors = [...args.errors];
  if (args.positionals.length === 0) errors.push('name at least one URL to probe');
  if (args.positionals.length > MAX_URLS) errors.push(`at most ${MAX_URLS} URLs, got ${args.positionals.length}`);
  const inputs: ProbeInput[] = [];
  for (const given of args.positionals) {
    const input = probeInput(given);
    if ('error' in input) errors.push(input.error);
    else inputs.push(input);
  }
  const timeoutMs = wholeFlag(stringFlag(args, 'timeout-ms'), 'timeout-ms', PROBE_TIMEOUT_MS, 100, 60_000);
  if (typeof timeoutMs === 'string') errors.push(timeoutMs);
  const out = stringFlag(args, 'out') ?? null;
  const force = args.flags['force'] === true;
  if (out !== null && !force && existsSync(out)) errors.push(`${out} exists: pass --force to overwrite it`);
  applyAnswerLimitFlag(args, errors);
  const budgetSeconds = budgetSecondsOf(args, PROBE_BUDGET_SECONDS, errors);
  if (errors.length > 0 || typeof timeoutMs === 'string' || budgetSeconds === null) return { errors };
  return { inputs, urls: args.positionals, out, force, timeoutMs, budgetSeconds };
}

async function probe(argv: readonly string[], io: AuditIo): Promise<Ending> {
  // The hard stop a probe arms ends with the probe, whatever path it ended on.
  try {
    return await withJsonOutput('afp target probe', argv, io, (human, record) => probeCommand(argv, human, record));
  } finally {
    disarmTargetBudgets();
  }
}

async function probeCommand(argv: readonly string[], io: AuditIo, record: RecordFields): Promise<Ending> {
  const flags = parseProbeArgs(argv);
  if ('errors' in flags) {
    record({ errors: flags.errors });
    return invalidInput(
      `${flags.errors.map((error) => `afp target probe: ${error}`).join('\n')}\nusage: ${PROBE_USAGE}`,
    );
  }
  // The probe (the dialects, the classifier) loads once the flags pass; the target-file parser once
  // there is a file to check (zod, yaml and the scenario readers: a URL that does not answer needs none).
  const { KEYS_ENV, probeTarget } = await import('../live/probe/probe-target.ts');
  io.err(`${budgetLine(flags.budgetSeconds)}\n`);
  armTargetBudget({
    command: 'target probe',
    target: flags.urls.join(' '),
    seconds: flags.budgetSeconds,
    write: io.err,
  });
  const outcome = await probeTarget(flags.inputs, { timeoutMs: flags.timeoutMs });
  const table = renderProbeTable(outcome);
  const report = flags.out === null ? io.err : io.out;
  report(table);
  record({
    urls: flags.urls,
    answered: outcome.verdicts.filter((verdict) => verdict.answered).map((verdict) => verdict.url),
    services: outcome.chosen.map((chosen) => ({ service: chosen.service, url: chosen.url, dialect: chosen.dialect })),
    // Every verdict's object has the same keys: no target file was written unless one is set below.
    out: null,
    target_file: null,
  });
  if (!outcome.verdicts.some((verdict) => verdict.answered)) {
    return unsettled(`afp target probe: nothing answers at ${flags.inputs.map((input) => input.url).join(', ')}`);
  }
  if (outcome.file === null) {
    const answered = outcome.verdicts.filter((verdict) => verdict.answered);
    const lines = answered.map((verdict) => `  ${verdict.url}: ${serverLine(verdict.server)}\n`);
    const url = answered[0]?.url ?? 'URL';
    record({ servers: answered.map((verdict) => ({ url: verdict.url, ...verdict.server })) });
    return invalidInput(
      `afp target probe: no service of the platform recognized at what answered:\n${lines.join('')}` +
        `To load it as a plain HTTP endpoint, no target file needed: afp load ${url}/ --rate 100/s --duration 10s\n` +
        'For a deployment of the platform that the probe does not recognize, write a target file by hand (see targets/deployed.yaml)',
    );
  }
  const text = renderTargetText(outcome.file, {
    urls: flags.urls,
    chosen: outcome.chosen,
    limitSources: outcome.limitSources,
  });
  // The written file must load: a probe that writes one that does not is a bug.
  const { parseTargetFile } = await import('../live/target-file.ts');
  const check = parseTargetFile(text, { fileName: flags.out ?? 'target.yaml', env: { [KEYS_ENV]: 'afp-probe-check' } });
  assert(check.ok, `afp target probe wrote a target file that does not load: ${check.ok ? '' : check.message}`);
  record({ out: flags.out, target_file: text });
  if (flags.out === null) {
    io.out(text);
    return PASSED;
  }
  // Whole or not at all (core/atomic-file.ts); without --force it never replaces a file (EEXIST).
  const out = flags.out;
  writingTo(out, () => writeFileAtomic(out, text, 0o644, { replace: flags.force }));
  io.out(`wrote ${flags.out}\n`);
  return PASSED;
}

const SUBCOMMANDS: Subcommands = { probe };

export async function main(argv: string[], io: AuditIo = AUDIT_PROCESS_IO): Promise<Ending> {
  return runSubcommand(argv, io, {
    name: 'target',
    missing: 'name a subcommand',
    noun: 'subcommand',
    subcommands: SUBCOMMANDS,
    usage: PROBE_USAGE,
  });
}
