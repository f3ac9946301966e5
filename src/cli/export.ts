/**
 * `afp export k6 SCENARIO [--out FILE] [--target URL]`: writes the scenario as a k6 script (an ES
 * module, src/export/k6/k6-script.ts) that runs unmodified on k6: the populations' flows, the
 * `load:` profile as a k6 scenario, the checks and the thresholds. Without --out the script goes
 * to stdout; with it, FILE is written (an existing one is replaced: exporting again is how a
 * script follows its scenario) and one line says so. --target bakes in the default AFP_TARGET.
 * Exit codes: 0 written; 2 bad flags, an unreadable or invalid scenario, or a scenario the export
 * refuses (each reason listed: an archetype k6 cannot run faithfully is named, never faked).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { AGENT_NAMES, AGENTS } from '../../agents/index.ts';
import { exportK6Script } from '../export/k6/k6-script.ts';
import { readAfpVersion } from '../live/report/afp-version.ts';
import { formatScenarioErrors, parseScenario } from '../sim/scenario.ts';
import { parseCommand, stringFlag } from './args.ts';
import { usageLine } from './command-definition.ts';
import { definitionOf } from './commands.ts';
import { commandLine, PROCESS_IO, runSubcommand, type AuditIo, type Subcommands } from './audit-io.ts';
import { EXIT } from './exit-codes.ts';

export const EXPORT_USAGE = usageLine(definitionOf('export', 'k6'));


async function exportK6(argv: readonly string[], io: AuditIo): Promise<number> {
  const args = parseCommand(argv, definitionOf('export', 'k6'));
  const errors = [...args.errors];
  if (args.positionals.length !== 1) errors.push(`name exactly one scenario file, got ${args.positionals.length}`);
  const file = args.positionals[0];
  if (errors.length > 0 || file === undefined) {
    io.err(`${errors.map((error) => `afp export k6: ${error}`).join('\n')}\nusage: ${EXPORT_USAGE}\n`);
    return EXIT.invalidInput;
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    io.err(`afp export k6: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.invalidInput;
  }
  const parsed = parseScenario(text, { fileName: file, agentParams: (name) => AGENTS[name]?.params, knownAgents: AGENT_NAMES });
  if (!parsed.ok) {
    io.err(`${formatScenarioErrors(file, parsed.errors)}\n`);
    return EXIT.invalidInput;
  }
  const target = stringFlag(args, 'target') ?? null;
  const command = commandLine(['afp', 'export', 'k6', file, ...(target === null ? [] : ['--target', target])]);
  const result = exportK6Script(parsed.scenario, { target, afpVersion: readAfpVersion() ?? 'unknown', command });
  if (!result.ok) {
    io.err(`afp export k6: ${file} cannot be exported:\n${result.errors.map((error) => `  - ${error}`).join('\n')}\n`);
    return EXIT.invalidInput;
  }
  const out = stringFlag(args, 'out');
  if (out === undefined) {
    io.out(result.text);
    return EXIT.ok;
  }
  await writeFile(out, result.text);
  io.out(`wrote ${out} (k6 script of scenario ${parsed.scenario.name}, seed ${parsed.scenario.seed}, ${result.endpoints.length} endpoint tags)\n`);
  return EXIT.ok;
}

const SUBCOMMANDS: Subcommands = { k6: exportK6 };

export async function main(argv: string[], io: AuditIo = PROCESS_IO): Promise<number> {
  return runSubcommand(argv, io, { name: 'export', missing: 'name what to export', noun: 'format', subcommands: SUBCOMMANDS, usage: EXPORT_USAGE });
}
