/**
 * afp's command line, from argv to an exit code: dispatches the rows of the command table
 * (command-modules.ts), each a module exporting `main(argv: string[]): Promise<Ending>` that returns
 * how the command ended (command-failure.ts: a failure carries its code from where it arose). This
 * is the top, the one place that maps an ending to the exit (process-exit.ts's exitCodeOf prints a
 * failure's message and gives its code), once per command line. Why apart from main.ts (the
 * process's entry, which only runs this and sets the exit code): tests reach the same dispatch
 * in-process, without a Node start per command line.
 * `--help`/`-h` is answered here for every command and subcommand, from its definition, before
 * its module is loaded; `afp --help` lists the commands, `afp --version` (`-V`) prints the version.
 * A failure thrown out of a command (src/core/command-failure.ts; a report that could not be
 * written, OutputWriteError, is invalid input naming the path) ends with its code, named by the
 * command, for a command that does not end through json-output.ts (which does the same).
 */
import { readAfpVersion } from '../report/afp-version.ts';
import { commandName, groupHelpText, helpText, rootHelpText, type CommandDefinition } from './command-definition.ts';
import { nearestFlag } from './args.ts';
import { COMMANDS, type CommandRow } from './command-modules.ts';
import { CommandFailure, type Ending, invalidInput, PASSED, printedMessage } from '../core/command-failure.ts';
import { exitCodeOf, failureOf } from './process-exit.ts';

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

export async function dispatch(argv: string[]): Promise<number> {
  const row = rowOf(argv);
  const ending = answeredHere(argv, row);
  const ended =
    ending !== null || row === undefined ? (ending ?? invalidInput('afp: no command')) : await run(row, argv);
  return exitCodeOf(ended, (text) => process.stderr.write(text));
}

/** The command's ending; a failure thrown out of it (not through json-output.ts) as its ending, named by the command. */
async function run(row: CommandRow, argv: readonly string[]): Promise<Ending> {
  const command = await row.load();
  try {
    return await command.main(argv.slice(1));
  } catch (error) {
    const failure = failureOf(error);
    if (failure === null) throw error;
    return new CommandFailure(failure.exitCode, `${commandName(row.definition)}: ${failure.message}`);
  }
}

/** What the dispatcher answers itself, before any command's module is loaded: version, help, an unknown name. */
function answeredHere(argv: readonly string[], row: CommandRow | undefined): Ending | null {
  const [name] = argv;
  if (name === '--version' || name === '-V' || name === 'version') {
    process.stdout.write(`afp ${version()}\n`);
    return PASSED;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    if (name === undefined) return invalidInput(printedMessage(rootHelpText(DEFINITIONS)));
    process.stdout.write(rootHelpText(DEFINITIONS));
    return PASSED;
  }
  const group = DEFINITIONS.some((definition) => definition.path[0] === name);
  if (row === undefined && !group) {
    const near = nearestFlag(name, [...new Set(DEFINITIONS.map((definition) => definition.path[0] as string))]);
    return invalidInput(
      printedMessage(
        `afp: unknown command '${name}'${near === undefined ? '' : ` (did you mean ${near}?)`}\n${rootHelpText(DEFINITIONS)}`,
      ),
    );
  }
  if (asksHelp(argv)) {
    process.stdout.write(row === undefined ? groupHelpText(name, DEFINITIONS) : helpText(row.definition));
    return PASSED;
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
    return invalidInput(printedMessage(`afp ${name}: ${problem}\n${groupHelpText(name, DEFINITIONS)}`));
  }
  return null;
}
