// Whether the browser checks of afp's HTML reports run, and if not, why: one answer shared by the
// tests (test/report/chromium.ts) and by `npm test`'s runner (scripts/test.ts), which prints the
// reason as one line before its summary.
// Rules: under .ci/run (which sets AFP_REQUIRE_CHROMIUM=1) they always run, and a missing Chromium
// fails them: .ci/run installs it, so a skip there would hide a broken install. Elsewhere, `CI`
// set or not (a fresh clone's `npm test` runs with CI=true on machines without Chromium), they
// run when Debian's `chromium` is on PATH, and are skipped when it is not or when AFP_SKIP_CHROMIUM=1.
// Free of vitest, so that the runner can import it.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export function findChromium(): string | undefined {
  for (const directory of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(directory, 'chromium');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/** Set by .ci/run, which installs Chromium: there a skip would hide a broken install. */
export function chromiumRequired(): boolean {
  return process.env.AFP_REQUIRE_CHROMIUM === '1';
}

/** Why the browser checks are skipped on this machine, or undefined when they run. */
export function chromiumSkipReason(): string | undefined {
  if (chromiumRequired()) return undefined;
  if (process.env.AFP_SKIP_CHROMIUM === '1') return 'AFP_SKIP_CHROMIUM=1';
  if (findChromium() === undefined)
    return 'chromium is not on PATH (Debian: apt-get install chromium; .ci/run installs it)';
  return undefined;
}
