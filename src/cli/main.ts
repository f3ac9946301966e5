#!/usr/bin/env node
/**
 * afp's command-line entry: a table of commands, each in its own file exporting
 * `main(argv: string[]): Promise<number>` that returns the exit code (DESIGN.md "Exit codes":
 * 0 ok, 1 crash, 2 invalid input, 3 invariant or conformance failure, 4 liveness, 5 load threshold).
 * Commands are loaded lazily so `afp run` does not pay for the HTTP server's imports.
 */
import { readAfpVersion } from '../live/report/afp-version.ts';
import { EXIT } from './exit-codes.ts';

interface CommandRow {
  readonly name: string;
  readonly usage: string;
  readonly load: () => Promise<{ main(argv: string[]): Promise<number> }>;
}

const COMMANDS: readonly CommandRow[] = [
  { name: 'run', usage: 'afp run FILE [--seed N] [--out DIR] [--record FILE] [--defect NAME[,NAME]]', load: () => import('./run.ts') },
  { name: 'serve', usage: 'afp serve [--port P] [--seed N] [--clock wall|manual] [--start ISO] [--scenario FILE] [--data FILE] [--dialect documents|deployed] [--defect NAME]', load: () => import('./serve.ts') },
  { name: 'load', usage: 'afp load SCENARIO --target URL|FILE [--out DIR] [--seed N] [--duration D] [--quiet] | afp load merge FILE... --out DIR [--scenario FILE]', load: () => import('./load.ts') },
  { name: 'sweep', usage: 'afp sweep SCENARIO --seeds 1..N [--workers K] [--shard i/n] [--out DIR] [--defect NAME[,NAME]] [--json] | afp sweep merge FILE... [--out DIR]', load: () => import('./sweep.ts') },
  { name: 'shrink', usage: 'afp shrink SCENARIO [--seed N] [--defect NAME[,NAME]] [--out DIR] [--max-runs N] [--json]', load: () => import('./shrink.ts') },
  { name: 'replay', usage: 'afp replay FILE --target URL [--speed X] [--out DIR]', load: () => import('./replay.ts') },
  { name: 'check', usage: 'afp check [--target URL] [--seed N] [--runs N] [--path P] [--max-commands N]', load: () => import('./check.ts') },
  { name: 'audit', usage: 'afp audit house-edge [--games LIST] [--bets N] [--seed N] [--target URL] ... | afp audit fairness --target URL|FILE --key KEY', load: () => import('./audit.ts') },
  { name: 'export', usage: 'afp export k6 SCENARIO [--out FILE] [--target URL]', load: () => import('./export.ts') },
  { name: 'scenario', usage: 'afp scenario new [FILE] [--name NAME] [--force] | afp scenario check FILE', load: () => import('./scenario.ts') },
  { name: 'agents', usage: 'afp agents [NAME...] [--json]', load: () => import('./agents.ts') },
  { name: 'target', usage: 'afp target probe URL... [--out FILE] [--force] [--timeout-ms N]', load: () => import('./target.ts') },
];

function usage(): string {
  return ['usage:', ...COMMANDS.map((row) => `  ${row.usage}`), '', 'afp --version prints the version; afp COMMAND --help a command\'s usage.', '', 'exit codes: 0 ok · 1 crash · 2 invalid input · 3 check failed · 4 liveness · 5 load threshold'].join('\n');
}

/** afp's version, as its package.json says (found by walking up: src/cli in a clone, dist/src/cli installed). */
function version(): string {
  return readAfpVersion() ?? 'unknown';
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V' || name === 'version') {
    process.stdout.write(`afp ${version()}\n`);
    return EXIT.ok;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${usage()}\n`);
    return name === undefined ? EXIT.invalidInput : EXIT.ok;
  }
  const row = COMMANDS.find((command) => command.name === name);
  if (row === undefined) {
    process.stderr.write(`afp: unknown command '${name}'\n${usage()}\n`);
    return EXIT.invalidInput;
  }
  const command = await row.load();
  return command.main(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`afp: crash: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = EXIT.crash;
  },
);
