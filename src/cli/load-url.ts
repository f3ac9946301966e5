/**
 * `afp load URL (--rate N/s [--max-vus N] | --vus N) [--duration D] [--method M] [--header 'K: V']…
 * [--body TEXT | --body-file FILE] [--check SPEC]… [--threshold 'METRIC: EXPR']… [--timeout D] [--out DIR]
 * [--out prometheus=URL] [--out json=FILE] [--insecure-skip-tls-verify] [--quiet] [--json]` (or
 * `afp load --requests FILE …`: several requests per iteration, each with its checks): any HTTP endpoint under afp's own
 * open-model engine — no scenario, no target file, no keys. The flags become a `load:` section
 * (url-flags.ts), so the plan, the thresholds, the generator, the recorder, the live view, the
 * reports and the metrics outputs are the scenario run's (load-view.ts); only the iterations
 * differ: the requests in order (src/load/url-source.ts), the first's latency from its intended start,
 * every answer judged by its checks (counted as k6 counts check() results).
 *
 * Output: `target:`, `endpoint:` (`METHOD /path`, or a request's `name`: what every report,
 * threshold filter and metric label uses; `endpoints:` for several) and `plan:` lines; the summary, the Little's-law line (against --vus N in a closed
 * loop, else the in-flight measured on the wire), the thresholds and `files:` at the end. The
 * reports (summary.json, latency.csv, timeseries.csv, load.junit.xml, load.html) go to --out DIR
 * (default reports/url-load); no load.json (it exists for `afp load merge` of a scenario's shards).
 * Exit codes, first that applies: 2 bad flags (every problem listed) · 4 nothing listens at the
 * URL (or its https certificate is not trusted, without --insecure-skip-tls-verify), or no request got an answer · 5 a threshold failed · 0.
 * Flags that make no run are refused with light imports; the planner, the thresholds' parser and the
 * run's code (the generator, the live view, the reports) are import()ed where they are first used.
 */
import { join } from 'node:path';
import { parseOutFlags, type OutFlags } from '../load/options.ts';
import { otherFormFlags, parseCommand, type ParsedArgs } from './args.ts';
import { usageLine } from './command-definition.ts';
import { AUTOCANNON_ONLY, definitionOf } from './commands.ts';
import type { RecordFields } from './json-output.ts';
import type { LoadIo } from './load-io.ts';
import { parseUrlRun, type UrlRun } from './url-flags.ts';
import type { reachable as reachableType, LoadPlan, Threshold } from '../load.ts';
import { type Ending, invalidInput, unsettled } from '../core/command-failure.ts';

const USAGE = `usage: ${usageLine(definitionOf('load'))}`;
/** The flags of `afp load` a scenario run has and a URL run has no use for (autocannon's are AUTOCANNON_ONLY). */
const SCENARIO_ONLY = ['target', 'seed', 'shard', 'workers'];
export const URL_OUT_DEFAULT = join('reports', 'url-load');
const REACH_TIMEOUT_MS = 5_000;

export async function urlMain(argv: readonly string[], io: LoadIo, record: RecordFields): Promise<Ending> {
  const planned = await planUrlLoad(argv, record);
  if (!('plan' in planned)) return planned;
  const { args, run, outs, plan, thresholds } = planned;
  const [{ runMetricsOutputs }, { reachable }, { runUrlLoad }, { concludeRun, runWithView }, { describePlan }] =
    await Promise.all([
      import('../load/metrics/metrics-outputs.ts'),
      import('../load/url-reach.ts'),
      import('../load/url-load.ts'),
      import('./load-view.ts'),
      import('../load/executors.ts'),
    ]);
  const outputs = runMetricsOutputs(outs.outputs, io.clock, { tags: outs.tags });
  const prepared = await outputs?.prepare();
  if (typeof prepared === 'string') {
    return invalidInput(`afp load: ${prepared}`);
  }
  const unreachable = await firstUnreachable(run, reachable);
  if (unreachable !== null) {
    return unsettled(`afp load: ${unreachable}`);
  }
  const endpoints = [...new Set(run.requests.map((request) => request.name))].join(', ');
  io.out(`target: ${run.shownUrl}\nendpoint${run.requests.length === 1 ? '' : 's'}: ${endpoints}\n`);
  io.out(`plan: ${describePlan(plan)}\n`);
  record({ target: run.shownUrl, endpoint: endpoints });
  const result = await runWithView({
    plan,
    io,
    quiet: args.flags['quiet'] === true || args.flags['json'] === true,
    thresholds,
    outputs,
    run: (hooks) => runUrlLoad({ ...run, plan, clock: io.clock, ...hooks }),
  });
  const stopReason = result.outcome.stopReason;
  return concludeRun({
    io,
    result,
    out: outs.dir ?? URL_OUT_DEFAULT,
    written: [],
    thresholds,
    outputs,
    record,
    report: {
      scenario: 'url',
      target: { name: run.shownUrl, source: 'url' },
      engine: 'afp',
      ...(stopReason === null ? {} : { stopReason }),
      ...(run.vus === null ? {} : { concurrency: { value: run.vus, source: 'configured VUs' } }),
    },
  });
}

/** The URL run's flags checked, then its plan and thresholds; every error at once (and in --json's `errors`), then the usage. */
async function planUrlLoad(
  argv: readonly string[],
  record: RecordFields,
): Promise<
  { args: ParsedArgs; run: UrlRun; outs: OutFlags; plan: LoadPlan; thresholds: readonly Threshold[] } | Ending
> {
  // Parsed with every flag of `afp load`: another form's flag is named with its form, and its value is not taken for a URL.
  const args = parseCommand(argv, definitionOf('load'));
  const parsed = await parseUrlRun(args);
  const outs = parseOutFlags(args.lists['out'] ?? [], args.lists['tag'] ?? []);
  const errors = [
    ...args.errors,
    ...otherFormFlags(args, SCENARIO_ONLY, 'a scenario run (afp load SCENARIO --target URL)'),
    ...otherFormFlags(args, AUTOCANNON_ONLY, 'a run of --engine autocannon (afp load URL --engine autocannon)'),
    ...parsed.errors,
    ...outs.errors,
  ];
  const run = parsed.run;
  if (run === null) {
    record({ errors });
    return invalidInput(`${errors.map((error) => `afp load: ${error}`).join('\n')}\n${USAGE}`);
  }
  // The planner, the thresholds' parser and the run's code load only for flags that make a run.
  const { resolveLoadPlan } = await import('../load/executors.ts');
  const planned = resolveLoadPlan({ load: run.section, scenarioDurationMs: run.durationMs });
  if (!planned.ok) errors.push(...planned.errors);
  // Checked by parseUrlRun (its errors are above); parsed again here for the run.
  const thresholds = (await import('../load/thresholds.ts')).parseThresholds(run.section.thresholds);
  if (errors.length > 0 || !planned.ok || !thresholds.ok) {
    record({ errors });
    return invalidInput(`${errors.map((error) => `afp load: ${error}`).join('\n')}\n${USAGE}`);
  }
  return { args, run, outs, plan: planned.plan, thresholds: thresholds.thresholds };
}

/** Each origin the requests name, asked once (a --requests file may name several): why the first that cannot be reached cannot, or null. */
async function firstUnreachable(run: UrlRun, reachable: typeof reachableType): Promise<string | null> {
  for (const origin of new Set(run.requests.map((request) => new URL(request.url).origin))) {
    const reach = await reachable(origin, REACH_TIMEOUT_MS, run.insecureSkipTlsVerify);
    if (!reach.ok) return `${run.requests.length === 1 ? run.shownUrl : origin} is not reachable: ${reach.message}`;
  }
  return null;
}
