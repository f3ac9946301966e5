/**
 * Shrinking a whole failing run: a scenario file whose run fails an invariant, or its liveness
 * check (scenario key `liveness`), is made smaller — less virtual time, fewer populations, fewer
 * agents, fewer fault windows, closures and price shocks — for as long as the same invariant
 * still fails first (the liveness check still fails, and no invariant before it). A run stopped by
 * another limit (the wake-up bound) is not shrunk: nothing says a smaller run would meet it. Why on the YAML document and not
 * on the parsed Scenario: the result must be a scenario file a person reads and `afp run`
 * reproduces, with the author's comments and spelling kept; each candidate is re-validated by the
 * same parser `afp run` uses, so a shrink can never produce a file `afp run` refuses.
 * How: greedy passes in the manner of delta debugging, cheapest reductions first: the time after
 * the failure, whole populations, each count from the end, then from the front (`first`), faults,
 * then a one-agent property population's action list (shrink-actions.ts). Each pass tries
 * its candidates from the smallest up and keeps the first that still fails the same way; passes
 * repeat until one full round changes nothing or the run budget is spent.
 * Invariants: deterministic (the same file, seed and defects shrink to the same bytes); every kept
 * candidate was run and failed the same way; at most `maxRuns` runs.
 * Size: the scenario's agents and virtual time as written, and the requests and events its run made
 * until the failure; the result gives both for the original and the shrunk file.
 * Memory: each candidate's events go to a temporary file as they happen (issue 19), removed as soon
 * as the candidate is dropped; the kept run's file stays for its reports (the caller's to dispose).
 */
import { isMap, isSeq, parseDocument, type Document } from 'yaml';
import { AGENT_NAMES, AGENTS } from '../../agents/index.ts';
import type { RunRecord } from '../report/run-record.ts';
import type { DefectName } from '../services/shared/context.ts';
import { runSimulationWith, type SimulationResult, isLivenessLimit } from '../sim.ts';
import { formatDuration, parseDuration } from '../scenario/duration.ts';
import { formatScenarioErrors, parseScenario, type Scenario } from '../scenario/scenario.ts';
import { shrinkPropertyActions } from './shrink-actions.ts';
import { SHRINK_RUNS_DEFAULT } from './shrink-budget.ts';

export { SHRINK_RUNS_DEFAULT, SHRINK_RUNS_MAX } from './shrink-budget.ts';

export interface RunShape {
  readonly requests: number;
  readonly agents: number;
  readonly durationMs: number;
  readonly events: number;
}

export interface ShrinkOptions {
  readonly text: string;
  readonly fileName: string;
  readonly seed: string;
  readonly defects: readonly DefectName[];
  readonly maxRuns?: number;
  /** Called after every candidate run (progress). */
  readonly onRun?: (runs: number, kept: RunShape) => void;
}

export interface ShrinkFailure {
  /** The invariant that failed first; null for a liveness failure. */
  readonly invariant: string | null;
  readonly message: string;
  readonly atMs: number;
}

/** How the run fails: an invariant (which one fails first) or the liveness check. */
export type FailedCheck = 'invariant' | 'liveness';

export type ShrinkResult =
  | { readonly kind: 'invalid'; readonly message: string }
  | { readonly kind: 'holds'; readonly original: RunShape }
  /** Stopped by a limit other than the liveness check: not shrunk. */
  | { readonly kind: 'limit'; readonly message: string; readonly original: RunShape }
  | {
      readonly kind: 'shrunk';
      readonly failed: FailedCheck;
      /** The invariant that still fails first; null when the liveness check is what fails. */
      readonly invariant: string | null;
      readonly original: RunShape;
      readonly shrunk: RunShape;
      readonly text: string;
      readonly failure: ShrinkFailure;
      readonly runs: number;
      readonly budgetSpent: boolean;
      readonly steps: readonly string[];
      readonly scenario: Scenario;
      readonly record: RunRecord;
    };

interface Trial {
  readonly scenario: Scenario;
  readonly result: SimulationResult;
}

/**
 * What "fails the same way" compares: the first invariant to fail, or 'liveness' for a failed
 * liveness phase (it runs only after a run that held every invariant); null when the run held or
 * stopped at another limit.
 */
function failedAs(result: SimulationResult): string | null {
  if (result.failure !== null) return `invariant ${result.failure.invariant}`;
  return isLivenessLimit(result.limit) ? 'liveness' : null;
}

function parse(text: string, fileName: string): Scenario | string {
  const parsed = parseScenario(text, {
    fileName,
    agentParams: (name) => AGENTS[name]?.params,
    knownAgents: AGENT_NAMES,
  });
  return parsed.ok ? parsed.scenario : formatScenarioErrors(fileName, parsed.errors);
}

/** The scenario's size (its agents and virtual time, as written) and its run's until the failure. */
function shapeOf(trial: Trial): RunShape {
  const agents = trial.scenario.populations.reduce((total, population) => total + population.count, 0);
  return {
    requests: trial.result.record.totals.requests,
    agents,
    durationMs: trial.scenario.durationMs,
    events: trial.result.record.events.count,
  };
}

function sequenceLength(document: Document, key: string): number {
  const node = document.get(key);
  return isSeq(node) ? node.items.length : 0;
}

function populationCount(document: Document, index: number): number {
  const value = document.getIn(['populations', index, 'count']);
  return typeof value === 'number' ? value : 1;
}

/**
 * The windows the parser checks against the run's length (scenario.ts), each with the key of its
 * start: fault windows, game and market closures, price shocks.
 */
const WINDOWS = [
  { path: ['faults'], start: 'from' },
  { path: ['casino', 'closures'], start: 'from' },
  { path: ['trading', 'closures'], start: 'from' },
  { path: ['trading', 'shocks'], start: 'at' },
] as const;
type WindowList = (typeof WINDOWS)[number]['path'];

/**
 * Sets the run's length, and drops the windows that would start at or after the new end: they can
 * take no part in the run, and the parser refuses a window outside the run. Without this, a cut
 * that a late window makes invalid waits for the window passes below, and every candidate before
 * them runs the whole uncut length (house-edge's dice closure at 6 h: a run that no longer fails
 * went on for 14 virtual hours instead of 27 minutes).
 */
function endRunAt(copy: Document, durationMs: number, text: string): void {
  copy.set('duration', text);
  for (const [path, index] of windowsFrom(copy, durationMs).reverse()) copy.deleteIn([...path, index]);
}

/** The windows (path and index, in file order) that start at or after `durationMs`. */
function windowsFrom(document: Document, durationMs: number): [WindowList, number][] {
  const found: [WindowList, number][] = [];
  for (const { path, start } of WINDOWS) {
    const node = document.getIn(path);
    if (!isSeq(node)) continue;
    for (let index = 0; index < node.items.length; index++) {
      const from: unknown = document.getIn([...path, index, start]);
      const fromMs = typeof from === 'string' ? parseDuration(from) : undefined;
      if (typeof fromMs === 'number' && fromMs >= durationMs) found.push([path, index]);
    }
  }
  return found;
}

/** The step's name: the duration, and the windows it drops (they started after the new end). */
function durationStep(document: Document, durationMs: number, text: string): string {
  const dropped = windowsFrom(document, durationMs).map(([path, index]) => `${path.join('.')}[${index}]`);
  return dropped.length === 0 ? `duration ${text}` : `duration ${text} (without ${dropped.join(', ')}, after the end)`;
}

/** A shrink under way: the smallest failing document so far, its run, and the runs spent. */
interface Shrinking {
  readonly maxRuns: number;
  readonly steps: string[];
  document: Document;
  best: Trial;
  /** Runs the edited copy; keeps it when it still fails the same way (failedAs). */
  readonly attempt: (edit: (copy: Document) => void, step: string) => Promise<boolean>;
  readonly canRun: () => boolean;
}

export async function shrinkRun(options: ShrinkOptions): Promise<ShrinkResult> {
  const maxRuns = options.maxRuns ?? SHRINK_RUNS_DEFAULT;
  let runs = 0;
  const trial = async (text: string): Promise<Trial | string> => {
    const scenario = parse(text, options.fileName);
    if (typeof scenario === 'string') return scenario;
    runs++;
    const result = await runSimulationWith(scenario, {
      agents: AGENTS,
      seed: options.seed,
      defects: options.defects,
      streamEvents: true,
    });
    return { scenario, result };
  };

  const first = await trial(options.text);
  if (typeof first === 'string') return { kind: 'invalid', message: first };
  const failed = failedAs(first.result);
  if (failed === null) {
    first.result.record.events.dispose();
    const limit = first.result.limit;
    return limit === null
      ? { kind: 'holds', original: shapeOf(first) }
      : { kind: 'limit', message: limit, original: shapeOf(first) };
  }
  const original = shapeOf(first);
  const document: Document = parseDocument(options.text);
  if (!isMap(document.contents)) return { kind: 'invalid', message: `${options.fileName}: not a mapping` };
  const state: Shrinking = {
    maxRuns,
    steps: [],
    document,
    best: first,
    canRun: () => runs < maxRuns,
    attempt: async (edit, step) => {
      if (runs >= maxRuns) return false;
      const copy = state.document.clone();
      edit(copy);
      const outcome = await trial(copy.toString({ lineWidth: 0 }));
      if (typeof outcome === 'string') return false;
      if (failedAs(outcome.result) !== failed) {
        outcome.result.record.events.dispose();
        return false;
      }
      state.best.result.record.events.dispose();
      state.document = copy;
      state.best = outcome;
      state.steps.push(step);
      options.onRun?.(runs, shapeOf(state.best));
      return true;
    },
  };
  let changed = true;
  while (changed && state.canRun()) {
    changed = await shrinkRound(state, options.seed);
  }
  return shrunkResult(state, { seed: options.seed, original, runs });
}

/** One round of every shrink step, in order; true when any kept an edit. */
async function shrinkRound(state: Shrinking, seed: string): Promise<boolean> {
  let changed = false;
  changed = (await cutDuration(state)) || changed;
  changed = (await dropPopulations(state)) || changed;
  changed = (await bisectCounts(state)) || changed;
  changed = (await dropFrontAgents(state)) || changed;
  changed = (await dropWindows(state)) || changed;
  // Last, a property agent's actions, by fast-check's shrinker (shrink-actions.ts).
  changed =
    (await shrinkPropertyActions({
      document: () => state.document,
      seed,
      attempt: state.attempt,
      canRun: state.canRun,
    })) || changed;
  return changed;
}

/**
 * Time after the failure cannot matter: end the run just after it (the clock's next second). A
 * liveness failure has no instant inside the run (an item left unsettled may be from its first
 * second), so its cuts start at one second.
 */
async function cutDuration(state: Shrinking): Promise<boolean> {
  const { best } = state;
  const failureAtMs = best.result.failure?.violation.atMs ?? best.scenario.startMs;
  const neededMs = Math.max(1_000, Math.ceil((failureAtMs - best.scenario.startMs + 1) / 1_000) * 1_000);
  // Agents may pace themselves by the run's length, so a cut can move the failure: try the
  // failure's own instant, then doubling margins, and keep the first that still fails.
  for (let durationMs = neededMs; durationMs < state.best.scenario.durationMs; durationMs *= 2) {
    const text = formatDuration(durationMs);
    const step = durationStep(state.document, durationMs, text);
    if (await state.attempt((copy) => endRunAt(copy, durationMs, text), step)) return true;
  }
  return false;
}

/** Whole populations, last first, while more than one is left. */
async function dropPopulations(state: Shrinking): Promise<boolean> {
  let changed = false;
  for (
    let index = sequenceLength(state.document, 'populations') - 1;
    index >= 0 && sequenceLength(state.document, 'populations') > 1;
    index--
  ) {
    const agent = String(state.document.getIn(['populations', index, 'agent']));
    changed =
      (await state.attempt((copy) => copy.deleteIn(['populations', index]), `without the ${agent} population`)) ||
      changed;
  }
  return changed;
}

/**
 * Each count by bisection: the smallest count found that still fails (failures need not be
 * monotone in the count, so this finds a small one, not always the smallest).
 */
async function bisectCounts(state: Shrinking): Promise<boolean> {
  let changed = false;
  for (let index = 0; index < sequenceLength(state.document, 'populations'); index++) {
    const agent = String(state.document.getIn(['populations', index, 'agent']));
    let low = 1;
    let high = populationCount(state.document, index); // fails at `high`
    while (low < high && state.canRun()) {
      const middle = Math.floor((low + high) / 2);
      if (await state.attempt((copy) => copy.setIn(['populations', index, 'count'], middle), `${middle} ${agent}`)) {
        high = middle;
        changed = true;
      } else {
        low = middle + 1;
      }
    }
  }
  return changed;
}

/**
 * Then the agents before the ones that matter: `first` skips them and keeps the rest's identities
 * (agent-numbering.ts), so a failure caused by agent 281 of 500 can shrink to that agent alone.
 */
async function dropFrontAgents(state: Shrinking): Promise<boolean> {
  let changed = false;
  for (let index = 0; index < sequenceLength(state.document, 'populations'); index++) {
    const agent = String(state.document.getIn(['populations', index, 'agent']));
    const count = populationCount(state.document, index);
    const firstValue = state.document.getIn(['populations', index, 'first']);
    const first = typeof firstValue === 'number' ? firstValue : 0;
    let low = 0; // dropping `low` agents from the front still fails
    let high = count - 1;
    while (low < high && state.canRun()) {
      const middle = Math.ceil((low + high) / 2);
      const kept = await state.attempt(
        (copy) => {
          copy.setIn(['populations', index, 'first'], first + middle);
          copy.setIn(['populations', index, 'count'], count - middle);
        },
        `${agent} from index ${first + middle} (${count - middle})`,
      );
      if (kept) {
        low = middle;
        changed = true;
      } else {
        high = middle - 1;
      }
    }
  }
  return changed;
}

/** Fault windows, closures and shocks: drop each. */
async function dropWindows(state: Shrinking): Promise<boolean> {
  let changed = false;
  for (const { path } of WINDOWS) {
    const length = (): number => {
      const node = state.document.getIn(path);
      return isSeq(node) ? node.items.length : 0;
    };
    for (let index = length() - 1; index >= 0; index--) {
      changed =
        (await state.attempt((copy) => copy.deleteIn([...path, index]), `without ${path.join('.')}[${index}]`)) ||
        changed;
    }
  }
  return changed;
}

/** The shrunk run, as the result says it. Every kept run failed as the first did (attempt), so `best` still does. */
function shrunkResult(
  state: Shrinking,
  spent: { readonly seed: string; readonly original: RunShape; readonly runs: number },
): ShrinkResult {
  const { best, document } = state;
  const violation = best.result.failure;
  const failure: ShrinkFailure =
    violation === null
      ? { invariant: null, message: best.result.limit ?? '', atMs: best.result.record.endMs }
      : { invariant: violation.invariant, message: violation.violation.message, atMs: violation.violation.atMs };
  // The file names its seed, so `afp run` of it alone reproduces the failure (with the defects' flag).
  document.set('seed', spent.seed);
  return {
    kind: 'shrunk',
    failed: failure.invariant === null ? 'liveness' : 'invariant',
    invariant: failure.invariant,
    original: spent.original,
    shrunk: shapeOf(best),
    text: document.toString({ lineWidth: 0 }),
    failure,
    runs: spent.runs,
    budgetSpent: spent.runs >= state.maxRuns,
    steps: state.steps,
    scenario: best.scenario,
    record: best.result.record,
  };
}
