/**
 * `afp export k6 SCENARIO [--out FILE] [--target URL]`: writes the scenario as a k6 script (an ES
 * module, src/export/k6/k6-script.ts) that runs unmodified on k6: the populations' flows, the
 * `load:` profile as a k6 scenario, the checks and the thresholds. Without --out the script goes
 * to stdout; with it, FILE is written (an existing one is replaced: exporting again is how a
 * script follows its scenario) and one line says so. --target bakes in the default AFP_TARGET.
 * With --k8s N the k6-operator's ConfigMap and TestRun go beside it; the TestRun's runner env carries
 * AFP_TARGET and AFP_TARGET_<SERVICE> for every mount the agents send to, learnt once here from
 * --target (an afp serve's /_afp/mounts, or a target file: k8s-urls.ts); an export that cannot
 * learn one is refused (exit 2) with the fix, never written to fail in the pods.
 * Exit codes: 0 written; 2 bad flags, an unreadable or invalid scenario, or a scenario the export
 * refuses (each reason listed: an archetype k6 cannot run faithfully is named, never faked).
 * `afp export k6 URL …` (or `--url URL`) writes the URL run `afp load URL` runs with the same flags.
 * The exporters, the agents and the YAML writer are import()ed where they are used, once the flags
 * and the scenario have passed: a typo in a flag is refused without them.
 */
import { writeFileAtomic } from '../core/atomic-file.ts';
import { mkdir } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { PARALLELISM_MAX } from '../export/k6/k6-parallelism.ts';
import { readAfpVersion } from '../report/afp-version.ts';
import { otherFormFlags, parseCommand, stringFlag, type ParsedArgs } from './args.ts';
import { loadScenarioFile } from './scenario-file.ts';
import { parseUrlRun, urlCredentials } from './url-flags.ts';
import { readProfileFlags } from './profile-flags.ts';
import { parseTagFlags, profileSourceNote } from '../load/options.ts';
import { profileOfScenario } from './scenario-profile-flags.ts';
import type { Scenario } from '../scenario/scenario.ts';
import type { AnyAgentDefinition } from '../agent/agent.ts';
import type { K8sUrls } from '../export/k6/k8s-urls.ts';
import { usageLine } from './command-definition.ts';
import { definitionOf, URL_ONLY } from './commands.ts';
import { commandLine } from '../core/shell-words.ts';
import { AUDIT_PROCESS_IO, runSubcommand, type AuditIo, type Subcommands } from './audit-io.ts';
import { seedFlagError } from '../core/seed-text.ts';
import { CommandFailure, type Ending, invalidInput, PASSED } from '../core/command-failure.ts';

export const EXPORT_USAGE = usageLine(definitionOf('export', 'k6'));

async function exportK6(argv: readonly string[], io: AuditIo): Promise<Ending> {
  const args = parseCommand(argv, definitionOf('export', 'k6'));
  if (isUrlExport(args)) return exportK6Url(argv, args, io);
  const errors = [
    ...args.errors,
    ...otherFormFlags(args, URL_ONLY, "a URL run: give the URL with them (a scenario's agents send its requests)"),
    ...otherFormFlags(args, ['tag'], "a URL run's export (a scenario's script tags each request by its endpoint)"),
  ];
  // As afp load SCENARIO reads them (the profile, -d a constant profile's duration): the same plan on both engines.
  const profileFlags = readProfileFlags(args, errors);
  if (args.positionals.length !== 1) errors.push(`name exactly one scenario file, got ${args.positionals.length}`);
  const file = args.positionals[0];
  if (errors.length > 0 || file === undefined) {
    return invalidInput(`${errors.map((error) => `afp export k6: ${error}`).join('\n')}\nusage: ${EXPORT_USAGE}`);
  }
  const parsed = await profiledScenario(file, profileFlags);
  if (parsed instanceof CommandFailure) return parsed;
  const target = stringFlag(args, 'target') ?? null;
  const seed = stringFlag(args, 'seed') ?? parsed.scenario.seed;
  const k8s = k8sFlag(args, target);
  const seedError = seedFlagError(seed);
  const flagErrors = [...(seedError === null ? [] : [seedError]), ...k8s.errors];
  if (flagErrors.length > 0) {
    return invalidInput(`${flagErrors.map((error) => `afp export k6: ${error}`).join('\n')}\nusage: ${EXPORT_USAGE}`);
  }
  const command = commandLine(['afp', 'export', 'k6', ...withoutOut(argv.slice(0))]);
  const [{ AGENTS }, { exportK6Script }] = await Promise.all([
    import('../../agents/index.ts'),
    import('../export/k6/k6-script.ts'),
  ]);
  const urls = k8s.parallelism === null || target === null ? null : await learnUrls(target, parsed.scenario, AGENTS);
  if (urls instanceof CommandFailure) return urls;
  const result = await exportK6Script(parsed.scenario, {
    target: urls?.api ?? target,
    afpVersion: readAfpVersion() ?? 'unknown',
    command,
    seed,
    agents: AGENTS,
  });
  if (!result.ok) {
    return invalidInput(
      `afp export k6: ${file} cannot be exported:\n${result.errors.map((error) => `  - ${error}`).join('\n')}`,
    );
  }
  return writeScenarioScript(
    stringFlag(args, 'out'),
    {
      text: result.text,
      scenario: parsed.scenario.name,
      seed,
      endpoints: result.endpoints.length,
      operator: k8s.parallelism === null || urls === null ? null : { parallelism: k8s.parallelism, urls },
      notes: [...(parsed.note === null ? [] : [parsed.note]), guardsNote(result.guards)],
    },
    io,
  );
}

/**
 * The scenario file with its profile (its load: section, else the one derived from it, the profile
 * flags over either: as afp load reads them) and -d applied; the failure when refused (its reason).
 */
async function profiledScenario(
  file: string,
  profileFlags: ReturnType<typeof readProfileFlags>,
): Promise<{ readonly scenario: Scenario; readonly note: string | null } | CommandFailure> {
  const loaded = await loadScenarioFile('afp export k6', file);
  if (loaded instanceof CommandFailure) return loaded;
  const profile = profileOfScenario(loaded.scenario, loaded.agents, profileFlags);
  const scenario = withDuration({ ...loaded.scenario, load: profile.load }, profileFlags.durationMs);
  if (scenario !== null) return { scenario, note: profileSourceNote(profile) };
  return invalidInput(
    `afp export k6: --duration sets a constant profile's duration; ${file}'s load: section ramps (its stages say how long it runs): shorten its stages instead`,
  );
}

/**
 * --k8s: the URLs the TestRun carries, learnt once from --target (k8s-urls.ts) for the mounts the
 * scenario's agents send to; invalid input (the reason and its fix) when they cannot be learnt.
 */
async function learnUrls(
  target: string,
  scenario: Scenario,
  agents: Readonly<Record<string, AnyAgentDefinition>>,
): Promise<K8sUrls | CommandFailure> {
  const [{ k8sUrls }, { mountsNeeded }] = await Promise.all([
    import('../export/k6/k8s-urls.ts'),
    import('../export/k6/k6-mounts.ts'),
  ]);
  const learnt = await k8sUrls(target, mountsNeeded(scenario.populations, agents));
  if (learnt.ok) return { api: learnt.api, services: learnt.services };
  return invalidInput(`afp export k6: --k8s: ${learnt.message}`);
}

/** What the export added to the thresholds, said once (k6-options.ts GUARDED_METRICS). */
function guardsNote(guards: readonly string[]): string {
  return guards.length === 0
    ? "thresholds: the scenario's own on dropped_iterations and afp_late_agent_steps (no guard added)"
    : `thresholds: ${guards.map((metric) => `${metric} count==0`).join(', ')} added (a run that cannot keep its schedule fails; relax it in load.thresholds)`;
}

/** The exported scenario script to stdout, or to `out` (with the k6-operator's files beside it for --k8s), and what was written. */
async function writeScenarioScript(
  out: string | undefined,
  script: {
    readonly text: string;
    readonly scenario: string;
    readonly seed: string;
    readonly endpoints: number;
    readonly operator: { readonly parallelism: number; readonly urls: K8sUrls } | null;
    readonly notes: readonly string[];
  },
  io: AuditIo,
): Promise<Ending> {
  if (out === undefined) {
    io.out(script.text);
    return PASSED;
  }
  const { operator } = script;
  if (operator !== null) {
    const files = { name: script.scenario, script: script.text, urls: operator.urls };
    const refused = await writeOperatorFiles(out, files, operator.parallelism, io);
    if (refused !== null) return refused;
  }
  await writeOut(out, script.text);
  io.out(
    `wrote ${out} (k6 script of scenario ${script.scenario}, seed ${script.seed}, ${script.endpoints} endpoint tags)\n`,
  );
  for (const note of script.notes) io.out(`note: ${note}\n`);
  return PASSED;
}

/** Writes `out`, making its folder first (as `--out DIR` of the other commands does). */
async function writeOut(out: string, text: string): Promise<void> {
  await mkdir(dirname(out), { recursive: true });
  writeFileAtomic(out, text);
}

/**
 * The k6-operator's two files beside the script FILE: FILE.configmap.yaml and FILE.testrun.yaml;
 * null once written, else invalid input saying why the script cannot go into a ConfigMap.
 */
async function writeOperatorFiles(
  out: string,
  script: { readonly name: string; readonly script: string; readonly urls: K8sUrls | null },
  parallelism: number,
  io: AuditIo,
): Promise<CommandFailure | null> {
  const [{ operatorResources }, { mountEnvName }] = await Promise.all([
    import('../export/k6/k6-operator.ts'),
    import('../export/k6/k6-mounts.ts'),
  ]);
  const resources = operatorResources({
    scenarioName: script.name,
    script: script.script,
    fileName: basename(out),
    parallelism,
    urls: script.urls,
    runId: K8S_RUN_ID,
  });
  if (!resources.ok) return invalidInput(`afp export k6: --k8s: ${resources.error}`);
  const base = out.replace(/\.[cm]?js$/, '');
  await writeOut(`${base}.configmap.yaml`, resources.configMap);
  await writeOut(`${base}.testrun.yaml`, resources.testRun);
  const env = script.urls === null ? [] : ['AFP_TARGET', ...Object.keys(script.urls.services).map(mountEnvName)];
  io.out(
    `wrote ${base}.configmap.yaml and ${base}.testrun.yaml (k6-operator TestRun ${resources.name}, parallelism ${parallelism}; ${env.length === 0 ? '' : `runner env ${env.join(', ')}; `}AFP_RUN_ID ${K8S_RUN_ID}: change it for each run)\n`,
  );
  return null;
}

/** The TestRun's AFP_RUN_ID: the same in every pod (the user changes it for each run). */
const K8S_RUN_ID = 'k8s.1';

/**
 * `--k8s N`: 1..PARALLELISM_MAX runner pods; needs --out (files beside the script), and for a
 * scenario --target (what pods reach; a URL run's script holds its URL: `target` is 'url').
 */
function k8sFlag(args: ParsedArgs, target: string | null | 'url'): { parallelism: number | null; errors: string[] } {
  const text = stringFlag(args, 'k8s');
  if (text === undefined) return { parallelism: null, errors: [] };
  const errors: string[] = [];
  const parallelism = /^\d{1,4}$/.test(text) ? Number(text) : NaN;
  if (!(parallelism >= 1 && parallelism <= PARALLELISM_MAX))
    errors.push(`--k8s must be a whole number of runner pods, 1 to ${PARALLELISM_MAX}, got '${text.slice(0, 40)}'`);
  if (stringFlag(args, 'out') === undefined) errors.push('--k8s writes files beside the script: give --out FILE');
  if (target === null)
    errors.push(
      '--k8s needs --target URL|FILE: an afp serve (its /_afp/mounts is read once) or a target file, whose service URLs the TestRun carries',
    );
  return { parallelism: errors.length === 0 ? parallelism : null, errors };
}

/** An argument that is a URL with a password, as lines may show it (user:***@); any other as given. */
function withoutPassword(arg: string): string {
  return /^https?:\/\/[^/]*@/i.test(arg) && URL.canParse(arg) ? urlCredentials(arg).shownUrl : arg;
}

/**
 * The scenario with its constant load profile run for `durationMs` (afp load SCENARIO --duration,
 * executors.ts); null for a ramping profile, which afp load cuts mid-stage and a k6 stage list
 * cannot cut the same way. No --duration: the scenario as it is.
 */
function withDuration(scenario: Scenario, durationMs: number | undefined): Scenario | null {
  if (durationMs === undefined || scenario.load === null) return scenario;
  const executor = scenario.load.executor ?? 'constant-arrival-rate';
  if (executor !== 'constant-arrival-rate' && executor !== 'constant-vus') return null;
  return { ...scenario, load: { ...scenario.load, duration: durationMs } };
}

/** A URL test as `afp load` names one: a positional http(s) URL, --url, or --requests FILE. */
function isUrlExport(args: ParsedArgs): boolean {
  return (
    stringFlag(args, 'url') !== undefined ||
    stringFlag(args, 'requests') !== undefined ||
    /^https?:\/\//i.test(args.positionals[0] ?? '')
  );
}

/** argv without `--out FILE`: where the script went is not part of what it is. */
function withoutOut(argv: readonly string[]): string[] {
  return argv.filter((arg, index) => arg !== '--out' && !arg.startsWith('--out=') && argv[index - 1] !== '--out');
}

/**
 * `afp export k6 URL …` (or `--url URL`): the URL run's flags (url-flags.ts, as `afp load URL` reads
 * them) as a k6 script. A scenario beside the URL is refused (url-flags.ts: one URL, absolute).
 */
async function exportK6Url(argv: readonly string[], args: ParsedArgs, io: AuditIo): Promise<Ending> {
  const errors = [...args.errors];
  if (stringFlag(args, 'target') !== undefined)
    errors.push("--target names a scenario's platform: a URL run has its URL only");
  if (stringFlag(args, 'seed') !== undefined)
    errors.push("--seed is what a scenario's agents draw from: a URL run sends one request, drawing nothing");
  const k8s = k8sFlag(args, 'url');
  errors.push(...k8s.errors);
  const parsed = await parseUrlRun(args);
  errors.push(...parsed.errors);
  // As afp load's --tag: k6's tags on every metric.
  const tags = parseTagFlags(args.lists['tag'] ?? []);
  errors.push(...tags.errors);
  const run = parsed.run;
  const exported =
    run === null
      ? null
      : (await import('../export/k6/k6-url-script.ts')).exportK6UrlScript({
          requests: run.requests,
          section: run.section,
          timeoutMs: run.timeoutMs,
          tags: tags.tags,
          insecureSkipTlsVerify: run.insecureSkipTlsVerify,
          afpVersion: readAfpVersion() ?? 'unknown',
          // The header's command line shows a URL's password as *** (the script's authorization header carries it).
          command: commandLine(['afp', 'export', 'k6', ...withoutOut(argv).map(withoutPassword)]),
        });
  if (exported !== null && !exported.ok) errors.push(...exported.errors);
  if (errors.length > 0 || exported === null || !exported.ok) {
    return invalidInput(`${errors.map((error) => `afp export k6: ${error}`).join('\n')}\nusage: ${EXPORT_USAGE}`);
  }
  const out = stringFlag(args, 'out');
  if (out === undefined) {
    io.out(exported.text);
    return PASSED;
  }
  if (k8s.parallelism !== null && run !== null) {
    const name = `url-${new URL(run.requests[0]?.url ?? 'http://url/').hostname}`;
    const refused = await writeOperatorFiles(out, { name, script: exported.text, urls: null }, k8s.parallelism, io);
    if (refused !== null) return refused;
  }
  await writeOut(out, exported.text);
  io.out(`wrote ${out} (k6 script of the URL test ${exported.endpoint}, ${run?.section.executor ?? ''})\n`);
  return PASSED;
}

const SUBCOMMANDS: Subcommands = { k6: exportK6 };

export async function main(argv: string[], io: AuditIo = AUDIT_PROCESS_IO): Promise<Ending> {
  return runSubcommand(argv, io, {
    name: 'export',
    missing: 'name what to export',
    noun: 'format',
    subcommands: SUBCOMMANDS,
    usage: EXPORT_USAGE,
  });
}
