// The light faces stay light: each folder's options.ts (.dependency-cruiser.cjs FACES) loads at
// most LIGHT_MAX modules of afp's and no package, counted in a child Node by a load hook over
// everything the import reaches. Why a count and not a list: what a command reads before its flags
// pass may grow a file or two, but one import of a heavy file (the face beside it, a session, a
// parser) brings dozens; each folder's full face is counted too, to show the bound tells them
// apart. Why it matters: Node runs the sources with no tree shaking, so `afp check --bogus` loaded
// 486 modules through the full faces where it needs 32.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const LIGHT_MAX = 30;

// Imports the file named by argv, with a hook that records every file: URL loaded on the way.
const COUNTER = `
import { registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';
const seen = new Set();
registerHooks({ load(url, context, next) { if (url.startsWith('file:')) seen.add(url); return next(url, context); } });
await import(pathToFileURL(process.argv[1]).href);
process.stdout.write(JSON.stringify([...seen]));
`;

/** The files of afp's tree (relative) and the packages that importing `file` loads. */
function loaded(file: string): { readonly own: string[]; readonly packages: string[] } {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', COUNTER, join(root, file)], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const urls = JSON.parse(run.stdout) as string[];
  const paths = urls.map((url) => decodeURIComponent(new URL(url).pathname).slice(root.length + 1));
  return {
    own: paths.filter((path) => !path.startsWith('node_modules/')),
    packages: paths.filter((path) => path.startsWith('node_modules/')),
  };
}

describe('the light faces (issue 72 part 3)', () => {
  test.each([
    ['src/load/options.ts', 'src/load.ts'],
    ['src/check/options.ts', 'src/check.ts'],
    ['src/live/options.ts', 'src/live.ts'],
    ['src/audit/options.ts', 'src/audit/maths.ts'],
  ])('%s loads at most LIGHT_MAX modules and no package; %s more than twice that', (light, full) => {
    const lightLoad = loaded(light);
    expect(lightLoad.packages).toEqual([]);
    expect(lightLoad.own.length).toBeLessThanOrEqual(LIGHT_MAX);
    expect(lightLoad.own).toContain(light);
    const fullLoad = loaded(full);
    expect(fullLoad.own.length + fullLoad.packages.length).toBeGreaterThan(2 * LIGHT_MAX);
  });
});
