// Why: one temporary folder per test run. Every `tmpdir()` of the run (test files' scratch
// folders, the `afp` children, worker threads, Chromium, k6) lands in it through TMPDIR, and it is
// removed when the run ends, so what a test or a killed child leaves there (a crash test's
// SIGKILL, a record a test never disposed) does not pile up in the machine's temp folder
// run after run (about 56 folders a run before this).
// A vitest globalSetup: it runs in vitest's own process before the workers start, which inherit
// the variable.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function setup(): () => void {
  const folder = mkdtempSync(join(tmpdir(), 'afp-tests-'));
  const previous = process.env['TMPDIR'];
  process.env['TMPDIR'] = folder;
  return () => {
    if (previous === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = previous;
    rmSync(folder, { recursive: true, force: true });
  };
}
