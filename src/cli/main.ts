/**
 * afp's command-line entry: dispatches the rows of the command table (command-modules.ts), each a module
 * exporting `main(argv: string[]): Promise<number>` that returns the exit code (exit-codes.ts:
 * 0 ok, 1 crash, 2 invalid input, 3 check failed, 4 liveness, 5 load threshold).
 * `--help`/`-h` is answered here for every command and subcommand, from its definition, before
 * its module is loaded; `afp --help` lists the commands, `afp --version` (`-V`) prints the version.
 * A report that could not be written (OutputWriteError) is invalid input (exit 2) naming the path,
 * for a command that does not end through json-output.ts (which says the same).
 */
import { readAfpVersion } from '../live/report/afp-version.ts';
import { commandName, groupHelpText, helpText, rootHelpText, type CommandDefinition } from './command-definition.ts';
import { nearestFlag } from './args.ts';
import { COMMANDS, type CommandRow } from './command-modules.ts';
import { EXIT } from '../core/exit-codes.ts';
import { OutputWriteError } from '../core/output-write-error.ts';

const DEFINITIONS: readonly CommandDefinition[] = COMMANDS.map((row) => row.definition);

/** afp's version, as its package.json says (found by walking up: src/cli in a clone, dist/src/cli installed). */
function version(): string {
  return readAfpVersion() ?? 'unknown';
}

/** The row whose path is the longest prefix of argv (`load merge` before `load`). */
function rowOf(argv: readonly string[]): CommandRow | undefined {
  let best: CommandRow | undefined;
  for (const row of COMMANDS) {
    const path = row.definition.path;
    if (path.every((word, index) => argv[index] === word) && path.length > (best?.definition.path.length ?? 0))
      best = row;
  }
  return best;
}

/** Whether argv asks for help: `--help` or `-h` before any `--`. */
function asksHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  const flags = end === -1 ? argv : argv.slice(0, end);
  return flags.includes('--help') || flags.includes('-h');
}

async function main(argv: string[]): Promise<number> {
  const [name] = argv;
  if (name === '--version' || name === '-V' || name === 'version') {
    process.stdout.write(`afp ${version()}\n`);
    return EXIT.ok;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? process.stderr : process.stdout).write(rootHelpText(DEFINITIONS));
    return name === undefined ? EXIT.invalidInput : EXIT.ok;
  }
  const row = rowOf(argv);
  const group = DEFINITIONS.some((definition) => definition.path[0] === name);
  if (row === undefined && !group) {
    const near = nearestFlag(name, [...new Set(DEFINITIONS.map((definition) => definition.path[0] as string))]);
    process.stderr.write(
      `afp: unknown command '${name}'${near === undefined ? '' : ` (did you mean ${near}?)`}\n${rootHelpText(DEFINITIONS)}`,
    );
    return EXIT.invalidInput;
  }
  if (asksHelp(argv)) {
    process.stdout.write(row === undefined ? groupHelpText(name, DEFINITIONS) : helpText(row.definition));
    return EXIT.ok;
  }
  if (row === undefined) {
    const sub = argv[1];
    const subs = DEFINITIONS.filter((definition) => definition.path[0] === name).map(
      (definition) => definition.path[1] ?? '',
    );
    const near = sub === undefined ? undefined : nearestFlag(sub, subs);
    const problem =
      sub === undefined
        ? 'name a subcommand'
        : `unknown subcommand '${sub}'${near === undefined ? '' : ` (did you mean ${near}?)`}`;
    process.stderr.write(`afp ${name}: ${problem}\n${groupHelpText(name, DEFINITIONS)}`);
    return EXIT.invalidInput;
  }
  const command = await row.load();
  try {
    return await command.main(argv.slice(1));
  } catch (error) {
    if (!(error instanceof OutputWriteError)) throw error;
    process.stderr.write(`${commandName(row.definition)}: ${error.message}\n`);
    return EXIT.invalidInput;
  }
}

/**
 * A reader that goes away (`afp run … | head -1`) ends afp's printing, not its work: the command
 * goes on, writes its reports and exits with its own code. Unhandled, the first write to the closed
 * pipe threw EPIPE as an 'error' event: a stack trace and exit 1, afp's code for its own crash.
 * Later writes to the closed stream fail quietly (Node reports a destroyed stream's error once). Any
 * other error of the stream is still thrown.
 */
function endPrintingOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

endPrintingOnClosedPipe(process.stdout);
endPrintingOnClosedPipe(process.stderr);

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`afp: crash: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = EXIT.crash;
  },
);
