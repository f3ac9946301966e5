/**
 * What a shrunk run leaves behind: `shrunk.yaml` (with a header that says where it came from and the
 * command that reproduces it), the run's reports with its event trace, and the lines and JSON fields
 * that describe it. Why one file: `afp shrink` and `afp sweep --shrink` write the same evidence in the
 * same words, so a user who met one knows the other.
 * Invariants: the same shrink result writes the same bytes; nothing here runs a simulation.
 */
import { writeFileAtomic } from '../core/atomic-file.ts';
import { mkdirSync } from 'node:fs';
import { writingTo } from '../core/output-write-error.ts';
import { join } from 'node:path';
import { isoTime } from '../http/render.ts';
import { writeReports } from '../report/write-reports.ts';
import type { DefectName } from '../services/shared/context.ts';
import { commandLine } from '../core/shell-words.ts';
import { formatDuration } from '../scenario/duration.ts';
import type { RunShape, ShrinkResult } from './shrink-run.ts';

export type Shrunk = Extract<ShrinkResult, { kind: 'shrunk' }>;

/** What still fails in the shrunk file, in the header's words. */
const stillFails = (result: Shrunk): string =>
  result.invariant === null ? 'its liveness check still fails' : `invariant ${result.invariant} still fails first`;

export const shapeText = (shape: RunShape): string =>
  `${shape.agents} agents over ${formatDuration(shape.durationMs)}; the run: ${shape.requests} requests, ${shape.events} events to the failure`;

export interface ShrunkFiles {
  readonly file: string;
  readonly reproduce: string;
  readonly files: readonly string[];
  /** How many times fewer agents and requests the shrunk run has. */
  readonly factor: number;
  readonly requestFactor: number;
}

export interface ShrunkSource {
  /** The scenario file that was shrunk, as the user named it. */
  readonly file: string;
  readonly seed: string;
  readonly defects: readonly DefectName[];
}

/** Writes `shrunk.yaml` and the shrunk run's reports (events and summary always) into `outDir`. */
export function writeShrunk(result: Shrunk, source: ShrunkSource, outDir: string): ShrunkFiles {
  writingTo(outDir, () => mkdirSync(outDir, { recursive: true }));
  const file = join(outDir, 'shrunk.yaml');
  const defects = source.defects.length > 0 ? ['--defect', source.defects.join(',')] : [];
  const reproduce = commandLine(['npx', 'afp', 'run', file, ...defects]);
  const header = [
    `# Shrunk by afp shrink from ${source.file} (seed ${source.seed}${source.defects.length > 0 ? `, defects ${source.defects.join(',')}` : ''}): ${stillFails(result)}.`,
    `# ${shapeText(result.original)} -> ${shapeText(result.shrunk)}.`,
    `# Reproduce: ${reproduce}`,
    '',
  ].join('\n');
  writingTo(file, () => writeFileAtomic(file, header + result.text));
  // The candidate runs did not know where the file would go: the reports name the file written here,
  // as `afp run` of it would (its seed is in the file), not the scenario it was shrunk from.
  const { files } = writeReports({ ...result.record, reproduce }, outDir, [
    ...new Set([...result.scenario.reports, 'events' as const, 'summary' as const]),
  ]);
  result.record.events.dispose();
  return {
    file,
    reproduce,
    files,
    factor: result.original.agents / Math.max(1, result.shrunk.agents),
    requestFactor: result.original.requests / Math.max(1, result.shrunk.requests),
  };
}

/** The human account of a shrink, one fact a line (no trailing newline). */
export function shrunkLines(result: Shrunk, written: ShrunkFiles, maxRuns: number, outDir: string): string[] {
  return [
    // As `afp run` says it: an invariant that failed, or the liveness check as the limit reached.
    result.invariant === null ? 'limit reached: liveness' : `invariant failed: ${result.invariant}`,
    `at: ${isoTime(result.failure.atMs)}`,
    `message: ${result.failure.message}`,
    `original: ${shapeText(result.original)}`,
    `shrunk:   ${shapeText(result.shrunk)}`,
    `          ${written.factor.toFixed(1)}x fewer agents, ${written.requestFactor.toFixed(1)}x fewer requests; ${result.runs} runs${result.budgetSpent ? `; --max-runs ${maxRuns} spent, it may shrink further` : ''}`,
    `steps: ${result.steps.join(' · ') || 'none'}`,
    `file: ${written.file} (trace: ${join(outDir, 'events.jsonl')}, time-line: ${join(outDir, 'timeline.html')})`,
    `reproduce: ${written.reproduce}`,
  ];
}

/** The --json fields of a shrink. */
export function shrunkJson(result: Shrunk, written: ShrunkFiles): Record<string, unknown> {
  return {
    failed: result.failed,
    invariant: result.invariant,
    original: result.original,
    shrunk: result.shrunk,
    factor: Number(written.factor.toFixed(2)),
    request_factor: Number(written.requestFactor.toFixed(2)),
    runs: result.runs,
    budget_spent: result.budgetSpent,
    file: written.file,
    reproduce: written.reproduce,
    files: written.files,
  };
}
