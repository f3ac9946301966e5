// Vitest configuration: which files are tests, which project each belongs to, and how they run.
// Two projects (so a file nobody classified is never misfiled, integration is the default):
//   unit         the files listed in test/unit-files.ts: no socket, no child process, no worker
//                thread, and quick (seconds). test/unit-guard.ts refuses the first three and fails
//                the file, so the rule holds by itself. `npm run test:unit` runs this project alone.
//   integration  every other `test/**/*.test.ts`: servers on 127.0.0.1, `afp` as a child process,
//                workers, and whole-scenario simulations too slow for the inner loop. A new test
//                file is integration until someone lists it in test/unit-files.ts.
// Invariants: test order is fixed (no shuffle) so a failing run repeats exactly. Both projects
// share their worker processes between files (`forks`, isolate: false): re-importing src for each
// file was a large part of the CPU — unit 110 → 60 CPU s; integration, test/http + test/live
// measured side by side, 71 → 50 CPU s (-29%) — so a test file restores what it changes
// (process.env, spies) and closes the servers and children it starts, and leaves no module state
// another file could see. The guard's setup file runs again for every unit file.
// Workers: 4 on a 2-core machine (cores + 2). Many integration files wait on sockets and
// children, leaving a core idle with only one file per core; vitest's default (cores - 1) left the
// second core of a 2-core machine unused. A fresh clone's suite on the idle 2-core VM: 310.7 s with
// 3 workers, 280.1 s with 4 (both all passed). AFP_TEST_WORKERS overrides it (a number).
// Node's compile cache (NODE_COMPILE_CACHE, in node_modules/.cache) is on for the tests: the
// workers (one Node per test file) and the `afp` children they start (dozens) then reuse compiled
// code instead of parsing it again, about 0.4 s of CPU per `afp` start. It is keyed by file
// content, so it is never stale.
// Temporary files: each run has its own temporary folder (test/temp-folder.ts, a globalSetup that
// sets TMPDIR before the workers start), removed when the run ends.
// The generous default timeouts (5 min) are bounds on a hang, not budgets: a CPU-bound test on a
// machine shared with other work (load 14 on 2 cores was seen) takes many times its idle time.
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { UNIT_FILES } from './test/unit-files.ts';

// Set here, before the pool starts, so the workers (each test file's own Node) inherit it too.
process.env['NODE_COMPILE_CACHE'] ??= join(import.meta.dirname, 'node_modules', '.cache', 'node-compile-cache');

// The costliest files start first, by their cost alone (CPU s, measured one file at a time on an
// idle machine): shell-blocks 40, pack-install 35, bench 31, replay-shipped 22, check/live 19, then
// 7-15 each (pack-install early, as it is slower on a fresh clone than with a warm npm cache). The
// k6 comparisons (k6-shipped, about 150 s of wall, mostly waiting on their windows) start fifth,
// beside the CPU-bound files, once the first files (and on a fresh clone most of the cold type
// check and lint) have had the cores: their windows keep time less well on a crowded machine;
// cli/load-shipped-scenarios (11 CPU s in 38-53 s of wall, mostly waiting) right after, as it
// started at 195 s and was the main group's tail; the other files that mostly wait (k6-segments, cli/load,
// float-money, load-url: 3-6 CPU s in 12-15 s of wall) are spread between CPU-bound ones, since
// two of them side by side left a core idle. Vitest orders by the durations of earlier runs when
// it has them, else by file size, largest first; a fresh clone (CI) has none, and a small file of
// long simulations would start last and be the run's tail on one core. The list only orders the
// run: a stale entry changes nothing else.
const START_FIRST = [
  'test/docs/shell-blocks.test.ts',
  'test/replay/replay-shipped-scenarios.test.ts',
  'test/bench/bench.test.ts',
  'test/cli/hostile-target.test.ts',
  'test/export/k6-shipped.test.ts',
  'test/cli/load-shipped-scenarios.test.ts',
  'test/package/pack-install.test.ts',
  'test/replay/replay-tiers-faults.test.ts',
  'test/check/casino/casino-run.test.ts',
  'test/export/k6-segments.test.ts',
  'test/live/audit/rule-perturbation.property.test.ts',
  'test/check/domains/domains-check.test.ts',
  'test/shrink/every-defect-property.test.ts',
  'test/cli/load.test.ts',
  'test/check/live.test.ts',
  'test/cli/exit-codes.test.ts',
  'test/cli/float-money.test.ts',
  'test/server/crash-durability.test.ts',
  'test/check/wallet/wallet-defect.test.ts',
  'test/cli/load-url.test.ts',
  'test/cli/run.test.ts',
  'test/cli/audit-deployed.test.ts',
  'test/shrink/every-defect-casino.test.ts',
  'test/services/casino/games/card-video-poker.test.ts',
  'test/conformance/target-conformance.test.ts',
];

/**
 * Files run after every other, by themselves (a project of their own, a later group): million.yaml
 * on the real k6 compares its per-endpoint counts with afp load's, and beside the suite's CPU-bound
 * files k6's VUs fell behind on its 1,000,000-agent ring (15 or 17 registrations where afp load
 * sent 23, none dropped), while alone it passed every time. About 20 s of wall, mostly waiting.
 * The other shipped scenarios (k6-shipped.test.ts) kept the schedule beside the CPU-bound files
 * and run in the integration project, started early.
 */
const ALONE_FILES = ['test/export/k6-shipped-million.test.ts'];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    if (sorted.some((spec) => this.ctx.cache.getTestSpecificationResult(spec) !== undefined)) return sorted;
    const rank = (spec: TestSpecification): number => {
      const index = START_FIRST.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
      return index === -1 ? START_FIRST.length : index;
    };
    return sorted
      .map((spec, order) => ({ spec, order }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.order - b.order)
      .map(({ spec }) => spec);
  }
}

function workers(): number {
  const fromEnvironment = Number(process.env['AFP_TEST_WORKERS']);
  if (Number.isSafeInteger(fromEnvironment) && fromEnvironment >= 1) return fromEnvironment;
  return availableParallelism() + 2;
}

export default defineConfig({
  test: {
    environment: 'node',
    pool: 'forks',
    maxWorkers: workers(),
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // Shared workers: spies and stubbed variables are undone after every test.
    restoreMocks: true,
    unstubEnvs: true,
    reporters: ['default'],
    sequence: { shuffle: false, sequencer: LongestFirst },
    globalSetup: ['test/temp-folder.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: [...UNIT_FILES], setupFiles: ['test/unit-guard.ts'], isolate: false },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...UNIT_FILES, ...ALONE_FILES],
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'alone', include: [...ALONE_FILES], isolate: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
