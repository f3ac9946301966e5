/**
 * `afp export k6 SCENARIO [--out FILE] [--target URL]`: writes the scenario as a k6 script (an ES
 * module, src/export/k6/k6-script.ts) that runs unmodified on k6: the populations' flows, the
 * `load:` profile as a k6 scenario, the checks and the thresholds. Without --out the script goes
 * to stdout; with it, FILE is written (an existing one is replaced: exporting again is how a
 * script follows its scenario) and one line says so. --target bakes in the default AFP_TARGET.
 * Exit codes: 0 written; 2 bad flags, an unreadable or invalid scenario, or a scenario the export
 * refuses (each reason listed: an archetype k6 cannot run faithfully is named, never faked).
 */
import { writeFile } from 'node:fs/promises';
import { exportK6Script } from '../export/k6/k6-script.ts';
import { readAfpVersion } from '../live/report/afp-version.ts';
import { parseCommand, stringFlag, type ParsedArgs } from './args.ts';
import { loadScenarioFile } from './scenario-file.ts';
import { exportK6UrlScript } from '../export/k6/k6-url-script.ts';
import { parseUrlRun } from './url-flags.ts';
import { usageLine } from './command-definition.ts';
import { definitionOf, URL_ONLY } from './commands.ts';
import { commandLine, PROCESS_IO, runSubcommand, type AuditIo, type Subcommands } from './audit-io.ts';
import { EXIT } from '../core/exit-codes.ts';

export const EXPORT_USAGE = usageLine(definitionOf('export', 'k6'));

async function exportK6(argv: readonly string[], io: AuditIo): Promise<number> {
  const args = parseCommand(argv, definitionOf('export', 'k6'));
  if (stringFlag(args, 'url') !== undefined) return exportK6Url(argv, args, io);
  const errors = [...args.errors];
  const urlFlags = URL_ONLY.filter((name) => args.flags[name] !== undefined);
  if (urlFlags.length > 0 || args.flags['duration'] !== undefined)
    errors.push(
      `${[...urlFlags, ...(args.flags['duration'] === undefined ? [] : ['duration'])].map((name) => `--${name}`).join(', ')} describe a URL run: give --url URL with them (a scenario brings its own load: section)`,
    );
  if (args.positionals.length !== 1) errors.push(`name exactly one scenario file, got ${args.positionals.length}`);
  const file = args.positionals[0];
  if (errors.length > 0 || file === undefined) {
    io.err(`${errors.map((error) => `afp export k6: ${error}`).join('\n')}\nusage: ${EXPORT_USAGE}\n`);
    return EXIT.invalidInput;
  }
  const loaded = await loadScenarioFile('afp export k6', file, io.err);
  if (loaded === null) return EXIT.invalidInput;
  const target = stringFlag(args, 'target') ?? null;
  const command = commandLine(['afp', 'export', 'k6', file, ...(target === null ? [] : ['--target', target])]);
  const result = exportK6Script(loaded.scenario, { target, afpVersion: readAfpVersion() ?? 'unknown', command });
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
  io.out(
    `wrote ${out} (k6 script of scenario ${loaded.scenario.name}, seed ${loaded.scenario.seed}, ${result.endpoints.length} endpoint tags)\n`,
  );
  return EXIT.ok;
}

/** argv without `--out FILE`: where the script went is not part of what it is. */
function withoutOut(argv: readonly string[]): string[] {
  return argv.filter((arg, index) => arg !== '--out' && !arg.startsWith('--out=') && argv[index - 1] !== '--out');
}

/** `afp export k6 --url URL …`: the URL run's flags (url-flags.ts, as `afp load URL` reads them) as a k6 script. */
async function exportK6Url(argv: readonly string[], args: ParsedArgs, io: AuditIo): Promise<number> {
  const errors = [...args.errors];
  if (args.positionals.length > 0)
    errors.push(
      `--url exports a URL run: no SCENARIO with it (got ${args.positionals.map((positional) => `'${positional.slice(0, 200)}'`).join(', ')})`,
    );
  if (stringFlag(args, 'target') !== undefined)
    errors.push("--target names a scenario's platform: a URL run has --url only");
  const parsed = await parseUrlRun({ ...args, positionals: [] });
  errors.push(...parsed.errors);
  const run = parsed.run;
  const exported =
    run === null
      ? null
      : exportK6UrlScript({
          request: run.request,
          section: run.section,
          timeoutMs: run.timeoutMs,
          afpVersion: readAfpVersion() ?? 'unknown',
          command: commandLine(['afp', 'export', 'k6', ...withoutOut(argv)]),
        });
  if (exported !== null && !exported.ok) errors.push(...exported.errors);
  if (errors.length > 0 || exported === null || !exported.ok) {
    io.err(`${errors.map((error) => `afp export k6: ${error}`).join('\n')}\nusage: ${EXPORT_USAGE}\n`);
    return EXIT.invalidInput;
  }
  const out = stringFlag(args, 'out');
  if (out === undefined) {
    io.out(exported.text);
    return EXIT.ok;
  }
  await writeFile(out, exported.text);
  io.out(`wrote ${out} (k6 script of the URL run ${exported.endpoint}, ${run?.section.executor ?? ''})\n`);
  return EXIT.ok;
}

const SUBCOMMANDS: Subcommands = { k6: exportK6 };

export async function main(argv: string[], io: AuditIo = PROCESS_IO): Promise<number> {
  return runSubcommand(argv, io, {
    name: 'export',
    missing: 'name what to export',
    noun: 'format',
    subcommands: SUBCOMMANDS,
    usage: EXPORT_USAGE,
  });
}
