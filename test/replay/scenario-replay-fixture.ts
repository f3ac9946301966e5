// For the tests that record a whole scenario with `afp run --record` and replay it with
// `afp replay` against `afp serve` on 127.0.0.1: the recording (header and exchanges parsed), the
// replay's exit code, printed text and diff.json (or, through a target's dialects, findings.json),
// and a serve configured as `--scenario` does, in the documents' dialect or the deployed one.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { main as replayEnding } from '../../src/cli/replay.ts';
import { main as runEnding } from '../../src/cli/run.ts';
import { loadServeScenario, scenarioServeSettings } from '../../src/cli/serve-settings.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import type { RecordHeader, RecordedExchange } from '../../src/replay/record-format.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import type { Scenario } from '../../src/scenario/scenario.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { coded } from '../cli/ending-code.ts';

const replayMain = coded(replayEnding);
const runMain = coded(runEnding);

export interface Diff {
  readonly sent: number;
  readonly setup_calls: number;
  readonly notes: string[];
  readonly differences_total: number;
  readonly by_kind: Record<string, number>;
  readonly differences: {
    seq: number;
    endpoint: string;
    kind: string;
    pointer: string;
    expected: unknown;
    actual: unknown;
  }[];
}

export interface ScenarioRecording {
  readonly scenario: Scenario;
  readonly recordPath: string;
  readonly header: RecordHeader;
  readonly exchanges: RecordedExchange[];
}

/** Runs `scenarioFile` with `--record` into `directory` (exit 0 expected) and reads the record back. */
export async function recordScenario(
  scenarioFile: string,
  directory: string,
  recordName: string,
): Promise<ScenarioRecording> {
  const loaded = await loadServeScenario(scenarioFile);
  if ('error' in loaded) throw new Error(loaded.error);
  const recordPath = join(directory, recordName);
  const output: string[] = [];
  const code = await runMain([scenarioFile, '--record', recordPath, '--out', join(directory, 'run')], {
    out: (text) => output.push(text),
    err: (text) => output.push(text),
    errIsTty: false,
  });
  expect(code, output.join('')).toBe(0);
  const lines = (await readFile(recordPath, 'utf8')).trimEnd().split('\n');
  return {
    scenario: loaded,
    recordPath,
    header: JSON.parse(lines[0] as string) as RecordHeader,
    exchanges: lines.slice(1).map((line) => JSON.parse(line) as RecordedExchange),
  };
}

/** `afp serve --clock manual --scenario` in-process, on ephemeral loopback ports. */
export function serveFromScenario(scenario: Scenario): Promise<ServeHandle> {
  return startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: ALL_ROUTES,
    port: 0,
    clockMode: 'manual',
    log: () => undefined,
    ...scenarioServeSettings(scenario, { clockMode: 'manual', wallNowMs: Date.now() }),
  });
}

/** `afp serve --dialect deployed --clock manual --scenario` in-process, on ephemeral loopback ports. */
export function serveDeployedFromScenario(scenario: Scenario): Promise<ServeHandle> {
  return startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: DEPLOYED_ROUTES,
    layout: DEPLOYED_LAYOUT,
    port: 0,
    clockMode: 'manual',
    log: () => undefined,
    ...scenarioServeSettings(scenario, { clockMode: 'manual', wallNowMs: Date.now() }),
  });
}

export interface ReplayFinding {
  readonly id: string;
  readonly severity: string;
  readonly title: string;
  readonly evidence: string;
}

/** `afp replay FILE --target URL --speed max --out DIR/NAME` through a target's dialects: exit code, printed text, findings.json's findings. */
export async function replayThroughDialect(
  file: string,
  target: string,
  directory: string,
  name: string,
): Promise<{ code: number; output: string; findings: ReplayFinding[] }> {
  const out = join(directory, name);
  const chunks: string[] = [];
  const code = await replayMain([file, '--target', target, '--speed', 'max', '--out', out], {
    out: (text) => chunks.push(text),
    err: (text) => chunks.push(text),
  });
  const report = JSON.parse(await readFile(join(out, 'findings.json'), 'utf8')) as { findings: ReplayFinding[] };
  return { code, output: chunks.join(''), findings: report.findings };
}

/** `afp replay FILE --target TARGET --speed max --out DIR/NAME`: exit code, printed text, diff.json. */
export async function replayRecord(
  file: string,
  target: string,
  directory: string,
  name: string,
): Promise<{ code: number; output: string; diff: Diff }> {
  const out = join(directory, name);
  const chunks: string[] = [];
  const code = await replayMain([file, '--target', target, '--speed', 'max', '--out', out], {
    out: (text) => chunks.push(text),
    err: (text) => chunks.push(text),
  });
  return { code, output: chunks.join(''), diff: JSON.parse(await readFile(join(out, 'diff.json'), 'utf8')) as Diff };
}
