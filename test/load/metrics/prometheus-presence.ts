// Whether the Prometheus round trip of `--out prometheus=URL` runs, and if not, why. Debian's
// `prometheus` (/usr/bin/prometheus) receives the remote writes. Rules, as for Chromium
// (test/report/chromium-presence.ts): with CI set the test always runs and a missing binary fails
// it (.ci/run installs it, so a skip there would hide a broken install); elsewhere it is skipped,
// with this reason, when the binary is missing.
import { accessSync, constants } from 'node:fs';

export const PROMETHEUS_BINARY = '/usr/bin/prometheus';

export function prometheusPresent(): boolean {
  try {
    accessSync(PROMETHEUS_BINARY, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Why the Prometheus test is skipped on this machine, or undefined when it runs. */
export function prometheusSkipReason(): string | undefined {
  if (process.env.CI !== undefined && process.env.CI !== '') return undefined;
  if (!prometheusPresent())
    return `${PROMETHEUS_BINARY} is missing (Debian: apt-get install prometheus; .ci/run installs it)`;
  return undefined;
}
