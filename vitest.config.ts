// Vitest configuration: which files are tests and how they run.
// Invariants: test order is fixed (no shuffle) so a failing run repeats exactly; each test file
// gets its own process (`forks`) so module state never leaks between files. The generous
// timeouts are for whole-scenario simulation tests, not for slow unit tests.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    sequence: { shuffle: false },
  },
});
