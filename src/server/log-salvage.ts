/**
 * What is left of a damaged `afp serve --data FILE` (truncated, or bytes flipped in its pages, its
 * log rows or its checkpoints), and its salvage: the intact prefix written into a fresh log.
 *
 * The survey reads a copy of FILE (and of its write-ahead file, if any), never FILE itself. A
 * truncated SQLite file refuses every query (its schema names pages past the end), so the copy is
 * padded with zero pages to the size its header declares: the pages that were cut are then read
 * as damaged pages, where SQLite stops, and everything before them reads as it was.
 * What counts as intact:
 * - the settings (meta): without them nothing can be replayed, so nothing is intact;
 * - log entries 1..N: read in seq order, stopping at the first that cannot be read (an I/O or
 *   "malformed" error), is corrupt (its CRC-32 or its JSON: decodeCommandRow), runs backwards in
 *   time, or leaves a gap in seq — the replay needs every entry before the next;
 * - checkpoints whose every byte checks (checkpointDamage: SHA-256) and that lie within 1..N.
 * The default is to refuse to start, saying all of that (`describeSurvey`); `--salvage` moves FILE
 * aside (FILE.damaged, never deleted) and writes the intact prefix into a fresh FILE: the settings,
 * entries 1..N with their seqs, and the intact checkpoints (with their snapshot images), saying
 * what was dropped. Nothing is dropped silently.
 * Limits: one survey reads the whole log once (streamed) and copies FILE once.
 */
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdtempSync,
  openSync,
  closeSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { syncFile, syncFolder } from '../core/atomic-file.ts';
import { CheckpointStore, type CheckpointHeader } from './checkpoint-store.ts';
import { checkpointDamage } from './checkpoint-load.ts';
import { openCommandLog, type CommandLog, type StoredRow, type LogSettings } from './command-log.ts';

export interface CheckpointSurvey {
  readonly seq: number;
  readonly atMs: number;
  /** null: whole and within the intact log; else why it cannot be used. */
  readonly problem: string | null;
}

export interface LogSurvey {
  readonly file: string;
  /** What went wrong when FILE was served (the error that led here). */
  readonly problem: string;
  /** null when even the settings cannot be read (nothing is intact). */
  readonly settings: LogSettings | null;
  readonly settingsProblem: string | null;
  /** Entries 1..intactEntries are intact; the instant of the last of them. */
  readonly intactEntries: number;
  readonly lastAtMs: number | null;
  /** Why the reading stopped (null: at the end of the log, every entry read). */
  readonly stoppedBy: string | null;
  readonly checkpoints: readonly CheckpointSurvey[];
  /** Set when the checkpoints table itself cannot be read (then none is used). */
  readonly checkpointsProblem: string | null;
}

/** Surveys FILE (through a padded copy); `problem` is what serving it ran into. */
export async function surveyLog(file: string, problem: string): Promise<LogSurvey> {
  const directory = mkdtempSync(join(tmpdir(), 'afp-survey-'));
  const copy = join(directory, 'survey.afp');
  try {
    copyFileSync(file, copy);
    if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`);
    padToDeclaredSize(copy);
    const opened = await openCommandLog(copy, { knownDefects: [] });
    if ('error' in opened || opened.settings === null) {
      const settingsProblem = 'error' in opened ? opened.error.replace(copy, file) : 'it holds no settings';
      return {
        file,
        problem,
        settings: null,
        settingsProblem,
        intactEntries: 0,
        lastAtMs: null,
        stoppedBy: null,
        checkpoints: [],
        checkpointsProblem: null,
      };
    }
    try {
      const read = readIntact(opened);
      return {
        file,
        problem,
        settings: opened.settings,
        settingsProblem: null,
        ...read,
        ...surveyCheckpoints(opened, read.intactEntries),
      };
    } finally {
      opened.close();
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** A SQLite file shorter than its header says, padded with zeros (the cut pages then read as damaged pages). */
function padToDeclaredSize(file: string): void {
  const header = Buffer.alloc(100);
  const fd = openSync(file, 'r');
  let read: number;
  try {
    read = readSync(fd, header, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  if (read < 100) return;
  const pageSizeField = header.readUInt16BE(16);
  const pageSize = pageSizeField === 1 ? 65_536 : pageSizeField;
  const declaredBytes = pageSize * header.readUInt32BE(28);
  if (declaredBytes > statSync(file).size && declaredBytes <= 2 ** 40) truncateSync(file, declaredBytes);
}

function readIntact(log: CommandLog): { intactEntries: number; lastAtMs: number | null; stoppedBy: string | null } {
  let intactEntries = 0;
  let lastAtMs: number | null = null;
  try {
    for (const command of log.commands()) {
      if (command.seq !== intactEntries + 1)
        return {
          intactEntries,
          lastAtMs,
          stoppedBy: `entry ${intactEntries + 1} is missing (the next is ${command.seq})`,
        };
      if (command.kind === 'corrupt')
        return { intactEntries, lastAtMs, stoppedBy: `entry ${command.seq} is damaged (${command.reason})` };
      if (lastAtMs !== null && command.atMs < lastAtMs)
        return { intactEntries, lastAtMs, stoppedBy: `entry ${command.seq} runs backwards in time (damaged)` };
      intactEntries = command.seq;
      lastAtMs = command.atMs;
    }
  } catch (error) {
    return {
      intactEntries,
      lastAtMs,
      stoppedBy: `the file cannot be read past entry ${intactEntries} (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  return { intactEntries, lastAtMs, stoppedBy: null };
}

function surveyCheckpoints(
  log: CommandLog,
  intactEntries: number,
): { checkpoints: CheckpointSurvey[]; checkpointsProblem: string | null } {
  let headers: CheckpointHeader[];
  try {
    headers = new CheckpointStore(log.database).newestFirst();
  } catch (error) {
    return {
      checkpoints: [],
      checkpointsProblem: `the checkpoints table cannot be read (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  const store = new CheckpointStore(log.database);
  const checkpoints = headers.map((header) => {
    let problem: string | null;
    try {
      problem =
        header.seq > intactEntries
          ? `it follows entry ${header.seq}, past the intact log`
          : (checkpointDamage(store, header)?.problem ?? null);
    } catch (error) {
      problem = `cannot be read (${error instanceof Error ? error.message : String(error)})`;
    }
    return { seq: header.seq, atMs: header.atMs, problem };
  });
  return { checkpoints, checkpointsProblem: null };
}

/** The survey as the lines `afp serve` prints. */
export function describeSurvey(survey: LogSurvey): string[] {
  const lines = [`--data ${survey.file} is damaged: ${survey.problem}`, 'what is intact:'];
  if (survey.settings === null) {
    lines.push(
      `  nothing: its settings cannot be read (${survey.settingsProblem ?? 'unknown'}), so no entry can be replayed`,
    );
    return lines;
  }
  lines.push('  the settings (seed, start, config)');
  const upTo =
    survey.lastAtMs === null ? '' : `, up to ${new Date(survey.lastAtMs).toISOString()} (at_ms ${survey.lastAtMs})`;
  lines.push(`  log entries 1..${survey.intactEntries} (${survey.intactEntries} commands${upTo})`);
  lines.push(
    survey.stoppedBy === null
      ? '  (every entry of the log reads; the damage is elsewhere)'
      : `  then: ${survey.stoppedBy}; nothing after it is used`,
  );
  for (const checkpoint of survey.checkpoints) {
    lines.push(
      `  checkpoint after entry ${checkpoint.seq} (${new Date(checkpoint.atMs).toISOString()}): ${checkpoint.problem === null ? 'whole' : `unusable — ${checkpoint.problem}`}`,
    );
  }
  if (survey.checkpointsProblem !== null)
    lines.push(`  no checkpoint: ${survey.checkpointsProblem} (a salvage replays the entries from the start)`);
  else if (survey.checkpoints.length === 0)
    lines.push('  no checkpoint (a salvage replays the entries from the start)');
  return lines;
}

/**
 * Writes the intact prefix of a surveyed FILE into a fresh FILE; FILE (and its write-ahead file)
 * is moved to FILE.damaged (or FILE.damaged-<n>). Returns the lines saying what was kept and dropped.
 */
export async function salvageLog(survey: LogSurvey): Promise<{ lines: string[] } | { error: string }> {
  if (survey.settings === null)
    return { error: `--data ${survey.file}: nothing to salvage (its settings cannot be read)` };
  const directory = mkdtempSync(join(tmpdir(), 'afp-salvage-'));
  const copy = join(directory, 'source.afp');
  try {
    copyFileSync(survey.file, copy);
    if (existsSync(`${survey.file}-wal`)) copyFileSync(`${survey.file}-wal`, `${copy}-wal`);
    padToDeclaredSize(copy);
    const source = await openCommandLog(copy, { knownDefects: [] });
    if ('error' in source) return { error: source.error };
    // Built beside FILE under another name, then swapped in: a salvage cut short leaves FILE as it was.
    const building = `${survey.file}.salvaging`;
    rmSync(building, { force: true });
    rmSync(`${building}-wal`, { force: true });
    let kept: number[];
    try {
      const target = await openCommandLog(building, { knownDefects: [] });
      if ('error' in target) return { error: target.error };
      try {
        target.adopt(survey.settings);
        copyRows(source, target, survey.intactEntries);
        kept = copyCheckpoints(source, target, survey);
      } finally {
        target.close();
      }
    } finally {
      source.close();
    }
    const aside = asideName(survey.file);
    swapIn(survey.file, building, aside);
    return { lines: salvageLines(survey, aside, kept) };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * FILE kept as `aside` and the salvaged log (`building`, flushed first) renamed over it, so a path
 * FILE is there at every instant and a kill leaves the damaged FILE or the salvaged one, never none:
 * a hard link keeps FILE as `aside` (a file system without hard links: FILE is renamed aside, as
 * before), and FILE's write-ahead file is moved beside `aside` before the rename (the fresh log must
 * not meet the damaged one's frames).
 */
function swapIn(file: string, building: string, aside: string): void {
  syncFile(building);
  try {
    linkSync(file, aside);
  } catch {
    renameSync(file, aside);
  }
  if (existsSync(`${file}-wal`)) renameSync(`${file}-wal`, `${aside}-wal`);
  renameSync(building, file);
  syncFolder(dirname(file));
}

/** Entries 1..intactEntries, in batches, read as a stream that stops at the last (the page after it may be damaged). */
function copyRows(source: CommandLog, target: CommandLog, intactEntries: number): void {
  let batch: StoredRow[] = [];
  if (intactEntries === 0) return;
  for (const row of source.rowStream(0)) {
    batch.push(row);
    if (batch.length === SALVAGE_ROWS || row.seq >= intactEntries) {
      target.insertRows(batch);
      batch = [];
    }
    if (row.seq >= intactEntries) return;
  }
}

const SALVAGE_ROWS = 10_000;

function asideName(file: string): string {
  for (let index = 0; index < 1_000; index++) {
    const name = index === 0 ? `${file}.damaged` : `${file}.damaged-${index}`;
    if (!existsSync(name)) return name;
  }
  throw new Error(`--data ${file}: 1,000 damaged copies already lie beside it`);
}

/** The intact checkpoints, oldest first, with the images they name; their seqs. */
function copyCheckpoints(source: CommandLog, target: CommandLog, survey: LogSurvey): number[] {
  const from = new CheckpointStore(source.database);
  const to = new CheckpointStore(target.database);
  const kept: number[] = [];
  for (const checkpoint of [...survey.checkpoints].reverse()) {
    if (checkpoint.problem !== null) continue;
    const header = from.newestFirst().find((candidate) => candidate.seq === checkpoint.seq);
    const state = from.state(checkpoint.seq);
    if (header === undefined || state === undefined) continue;
    const held = (JSON.parse(header.travel) as { held: Array<{ id: string }> }).held.map((entry) => entry.id);
    to.write({ ...header, state }, held, (id) => from.image(id)?.state ?? new Uint8Array());
    kept.push(checkpoint.seq);
  }
  return kept;
}

function salvageLines(survey: LogSurvey, aside: string, kept: readonly number[]): string[] {
  const dropped = survey.checkpoints.filter((checkpoint) => checkpoint.problem !== null);
  return [
    `salvaged --data ${survey.file}: kept log entries 1..${survey.intactEntries}${survey.lastAtMs === null ? '' : ` (up to ${new Date(survey.lastAtMs).toISOString()})`} and ${kept.length} checkpoint(s)${kept.length > 0 ? ` (after entries ${kept.join(', ')})` : ''}`,
    `dropped: ${survey.stoppedBy === null ? 'no log entry' : `every log entry after ${survey.intactEntries} (${survey.stoppedBy})`}${dropped.length > 0 ? `; ${dropped.map((checkpoint) => `the checkpoint after entry ${checkpoint.seq} (${checkpoint.problem ?? ''})`).join('; ')}` : ''}${survey.checkpointsProblem === null ? '' : `; every checkpoint (${survey.checkpointsProblem})`}`,
    `the damaged file is kept as ${aside}`,
  ];
}
