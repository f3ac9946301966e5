// Exit codes are decided where a failure arises, never by the command files (docs/design.md, "Exit
// codes"): a failure carries its code (src/core/command-failure.ts) and one file of the command
// line, src/cli/process-exit.ts, turns an ending into the process's exit. This scans src/cli and
// fails on any other file that names a code from the table (`EXIT.`) or ends the process itself
// (`process.exit`, `process.exitCode`), so the code of a cause ("an unanswered probe exits 4")
// cannot be picked again, command by command. The scan is shown to bite on planted lines.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

const CLI = 'src/cli';
/** The one place that maps an ending to the process's exit. */
const MAPPING_PLACE = 'src/cli/process-exit.ts';
const PICKING = /\bEXIT\.|\bprocess\.exit(Code)?\b/g;

/** The lines of `text` that pick an exit code or end the process, as `line: text`. */
function pickingLines(text: string): string[] {
  return text
    .split('\n')
    .map((line, index) => ({ line, number: index + 1 }))
    .filter(({ line }) => line.match(PICKING) !== null)
    .map(({ line, number }) => `${number}: ${line.trim()}`);
}

/** Every .ts file under `folder`, its path from the repository's root. */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(folder, name))
    .sort();
}

describe('exit codes are decided in one place', () => {
  test('no file of src/cli but process-exit.ts names an exit code or ends the process', () => {
    const files = sourceFiles(CLI);
    expect(files).toContain(MAPPING_PLACE);
    const offenders = files
      .filter((file) => file !== MAPPING_PLACE)
      .flatMap((file) => pickingLines(readFileSync(file, 'utf8')).map((line) => `${file}:${line}`));
    expect(offenders).toEqual([]);
  });

  test('the mapping place does map: it sets the exit code and reads it from the ending', () => {
    const text = readFileSync(MAPPING_PLACE, 'utf8');
    expect(text).toContain('process.exitCode = ');
    expect(text).toContain('return ending.exitCode;');
  });

  test('the scan bites on each way of picking a code, and passes the endings that carry one', () => {
    expect(pickingLines('  return EXIT.liveness;')).toEqual(['1: return EXIT.liveness;']);
    expect(pickingLines('x\n    process.exitCode = 4;')).toEqual(['2: process.exitCode = 4;']);
    expect(pickingLines('process.exit(2);')).toHaveLength(1);
    expect(pickingLines('  return unsettled(`afp load: ${message}`);')).toEqual([]);
    expect(pickingLines('  return findingsEnding(findings, failOn).exitCode;')).toEqual([]);
    expect(pickingLines("const exits: readonly ExitName[] = ['crash', 'invalidInput'];")).toEqual([]);
  });
});
