// The shared flag parser: strict errors, and a suggestion for an unknown flag close to a known one;
// and the entry's conventions every command shares (`--version`, `COMMAND --help` exiting 0).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { nearestFlag, parseArgs } from '../../src/cli/args.ts';

const root = join(import.meta.dirname, '..', '..');

function afp(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, ['src/cli/main.ts', ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
}

describe('parseArgs', () => {
  test('an unknown flag near a known one names it; a far one does not', () => {
    const spec = { seed: 'string', duration: 'string', out: 'string', quiet: 'boolean' } as const;
    expect(parseArgs(['--sed', '1'], spec).errors).toEqual(['unknown flag --sed (did you mean --seed?)']);
    expect(parseArgs(['--sede=1'], spec).errors).toEqual(['unknown flag --sede (did you mean --seed?)']);
    expect(parseArgs(['--dur', '5s'], spec).errors).toEqual(['unknown flag --dur (did you mean --duration?)']);
    expect(parseArgs(['--quite'], spec).errors).toEqual(['unknown flag --quite (did you mean --quiet?)']);
    expect(parseArgs(['--bogus'], spec).errors).toEqual(['unknown flag --bogus']);
    expect(parseArgs(['--x'], spec).errors).toEqual(['unknown flag --x']);
  });

  test('nearestFlag: prefixes win when unique, ties go to the first known name, huge names are not compared', () => {
    expect(nearestFlag('s', ['seed', 'speed'])).toBeUndefined();
    expect(nearestFlag('sp', ['seed', 'speed'])).toBe('speed');
    expect(nearestFlag('sed', ['seed', 'sees'])).toBe('seed');
    expect(nearestFlag('a'.repeat(10_000), ['seed'])).toBeUndefined();
    expect(nearestFlag('', ['seed'])).toBeUndefined();
  });

  test('values, booleans and positionals as before', () => {
    const parsed = parseArgs(['file.yaml', '--seed=7', '--quiet', '--out', 'dir'], {
      seed: 'string',
      out: 'string',
      quiet: 'boolean',
    });
    expect(parsed).toEqual({
      flags: { seed: '7', quiet: true, out: 'dir' },
      lists: {},
      positionals: ['file.yaml'],
      errors: [],
    });
    expect(parseArgs(['--quiet=1', '--seed'], { seed: 'string', quiet: 'boolean' }).errors).toEqual([
      '--quiet takes no value',
      '--seed needs a value',
    ]);
    expect(parseArgs(['--seed='], { seed: 'string' }).errors).toEqual(['--seed needs a value']);
  });

  test('repeatable flags keep every value; -- ends the flags; an unknown short flag is an error', () => {
    const parsed = parseArgs(['--defect', 'a', '--defect=b', '--', '--not-a-flag'], { defect: 'strings' });
    expect(parsed.lists).toEqual({ defect: ['a', 'b'] });
    expect(parsed.flags['defect']).toBe('b');
    expect(parsed.positionals).toEqual(['--not-a-flag']);
    expect(parseArgs(['-x'], { seed: 'string' }).errors).toEqual(['unknown flag -x']);
    expect(parseArgs(['-q'], { quiet: 'boolean' }, { q: 'quiet' }).flags).toEqual({ quiet: true });
  });
});

describe('the entry', () => {
  test("--version prints package.json's version and exits 0", () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const result = afp(flag);
      expect(result.status).toBe(0);
      expect(result.stdout).toBe(`afp ${manifest.version}\n`);
    }
  });

  test('every command answers --help and -h with its usage, exit 0', () => {
    const commands = ['run', 'serve', 'load', 'replay', 'check', 'audit', 'export', 'target'];
    for (const [index, command] of commands.entries()) {
      const flag = index % 2 === 0 ? '--help' : '-h'; // one process a command: each costs a Node start
      const result = afp(command, flag);
      expect(result.status, `${command} ${flag}: ${result.stderr}`).toBe(0);
      expect(result.stdout, `${command} ${flag}`).toMatch(new RegExp(`afp ${command}`));
    }
  });
});
