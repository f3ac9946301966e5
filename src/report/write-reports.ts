/**
 * Writes the chosen report files of a run and computes the run's digest, the line `afp run`
 * prints last (`digest: <hex>`): same scenario + same seed = same digest.
 *
 * Digest: SHA-256 over the written files in the fixed order of REPORT_FILES, each contributing
 * its name, a NUL byte and its bytes; lowercase hex. summary.json comes last because it contains
 * the digest of the files before it (and each one's own SHA-256), so the printed digest covers
 * every byte written, summary included — except the reproduce command: it names the scenario
 * file's path as the user typed it, so the files that show it (`namesReproduce`: summary.json,
 * report.html, timeline.html) are digested as rendered with an empty one, and summary.json with
 * those renderings' SHA-256 in its `files` (the written one lists the written bytes' SHA-256). The
 * same scenario and seed give the same digest from any path or working directory.
 * casino.csv and report.html are written only for runs that placed casino bets, orders.csv and
 * positions.csv only for runs that placed trading orders, domains.csv only for runs that
 * registered a domain, referrals.csv only for runs where a referrer earned, wallet.csv only for runs that sent or
 * swapped on a chain (`applies`), so a run without them writes, and digests, exactly the files it
 * always did. timeline.html is written for every run that failed an invariant, whether `reports:`
 * names it or not (`unasked`).
 * Invariants: the order of `which` and repeats in it do not matter; `renderReports` (pure, in
 * memory), `writeReports` (streams events.jsonl in chunks, so ~1M events never become one
 * string) and `digestReports` (the digest alone) give the same bytes and the same digest. The
 * file system is touched only here.
 */
import { createHash, type Hash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { writingTo } from '../core/output-write-error.ts';
import { AtomicFile, writeFileAtomic } from '../core/atomic-file.ts';
import { join } from 'node:path';
import { renderCasinoCsv } from './casino-csv.ts';
import { renderCasinoHtml } from './casino-html.ts';
import { agentsCsvChunks, escrowsCsvChunks, renderEndpointsCsv } from './csv-tables.ts';
import { renderDomainsCsv } from './domains-csv.ts';
import { renderReferralsCsv } from './referrals-csv.ts';
import { renderWalletCsv } from './wallet-csv.ts';
import { renderOrdersCsv, renderPositionsCsv } from './trading-csv.ts';
import type { ReportName } from './report-names.ts';
import type { RunRecord } from './run-record.ts';
import { renderSummaryJson } from './summary-json.ts';
import { hasTimeline, renderTimelineHtml } from './timeline-html.ts';

interface DataReport {
  readonly name: Exclude<ReportName, 'summary'> | 'timeline';
  readonly file: string;
  /** False when the run has nothing for this file (it is then neither written nor digested). */
  applies?(record: RunRecord): boolean;
  /** For a file not named in `reports:`: written whenever this holds, whatever the list says. */
  unasked?(record: RunRecord): boolean;
  chunks(record: RunRecord): Iterable<string | Uint8Array>;
  /** The file shows `record.reproduce` (digested as rendered without it). */
  readonly namesReproduce?: true;
}

const placedCasinoBets = (record: RunRecord): boolean => (record.casino?.bets ?? 0) > 0;
const placedTradingOrders = (record: RunRecord): boolean => (record.trading?.orders.length ?? 0) > 0;

/** The digest's order; summary.json (which digests these) always comes after them. */
export const REPORT_FILES: readonly DataReport[] = [
  { name: 'agents', file: 'agents.csv', chunks: agentsCsvChunks },
  { name: 'endpoints', file: 'endpoints.csv', chunks: (record) => [renderEndpointsCsv(record)] },
  { name: 'escrows', file: 'escrows.csv', chunks: escrowsCsvChunks },
  { name: 'events', file: 'events.jsonl', chunks: (record) => record.events.jsonlChunks() },
  { name: 'casino', file: 'casino.csv', applies: placedCasinoBets, chunks: (record) => [renderCasinoCsv(record)] },
  {
    name: 'html',
    file: 'report.html',
    applies: placedCasinoBets,
    namesReproduce: true,
    chunks: (record) => [renderCasinoHtml(record)],
  },
  { name: 'orders', file: 'orders.csv', applies: placedTradingOrders, chunks: (record) => [renderOrdersCsv(record)] },
  {
    name: 'positions',
    file: 'positions.csv',
    applies: placedTradingOrders,
    chunks: (record) => [renderPositionsCsv(record)],
  },
  {
    name: 'domains',
    file: 'domains.csv',
    applies: (record) => record.domains !== undefined,
    chunks: (record) => [renderDomainsCsv(record.domains ?? [])],
  },
  {
    name: 'referrals',
    file: 'referrals.csv',
    applies: (record) => record.referrals !== undefined,
    chunks: (record) => [renderReferralsCsv(record.referrals ?? [])],
  },
  {
    name: 'wallet',
    file: 'wallet.csv',
    applies: (record) => record.wallet !== undefined,
    chunks: (record) => [renderWalletCsv(record.wallet ?? [])],
  },
  // Every run that fails an invariant gets its time-line: the file to open first when one fails.
  {
    name: 'timeline',
    file: 'timeline.html',
    unasked: (record) => record.outcome === 'invariant-failed' && hasTimeline(record),
    namesReproduce: true,
    chunks: (record) => [renderTimelineHtml(record)],
  },
];
export const SUMMARY_FILE = 'summary.json';
/** A summary.json larger than this is no afp run's (a million-agent run's is a few KB): its files are left alone. */
const EARLIER_SUMMARY_BYTES_MAX = 16 * 1024 * 1024;

export interface ReportFile {
  readonly file: string;
  readonly text: string;
}

/**
 * Feeds the files' bytes through the running digest in order, handing each chunk to `sink`
 * (an empty chunk first, so even an empty file is created), then renders summary.json (when
 * chosen) from the digests so far. Shared by the three entry points. Chunks are hashed as bytes:
 * hashing a string re-encodes it on every update, several times slower on large runs.
 */
function produce(
  record: RunRecord,
  which: readonly ReportName[],
  sink: (file: string, chunk: Uint8Array) => void,
): string {
  const running: Hash = createHash('sha256');
  const files: Record<string, string> = {};
  /** `files` as the path-free rendering has them: what summary.json is digested with. */
  const freeFiles: Record<string, string> = {};
  const empty = Buffer.alloc(0);
  const pathFree: RunRecord = { ...record, reproduce: '' };
  for (const report of REPORT_FILES) {
    const wanted =
      report.unasked === undefined ? (which as readonly string[]).includes(report.name) : report.unasked(record);
    if (!wanted || report.applies?.(record) === false) continue;
    const own = createHash('sha256');
    running.update(`${report.file}\0`);
    sink(report.file, empty);
    for (const piece of report.chunks(record)) {
      const chunk = bytesOf(piece);
      if (report.namesReproduce !== true) running.update(chunk);
      own.update(chunk);
      sink(report.file, chunk);
    }
    const ownHex = own.digest('hex');
    files[report.file] = ownHex;
    freeFiles[report.file] = ownHex;
    if (report.namesReproduce === true) {
      const free = createHash('sha256');
      for (const piece of report.chunks(pathFree)) {
        const chunk = bytesOf(piece);
        running.update(chunk);
        free.update(chunk);
      }
      freeFiles[report.file] = free.digest('hex');
    }
  }
  if (which.includes('summary')) {
    const digest = running.copy().digest('hex');
    const chunk = Buffer.from(renderSummaryJson(record, { files, digest }), 'utf8');
    running.update(`${SUMMARY_FILE}\0`);
    running.update(Buffer.from(renderSummaryJson(pathFree, { files: freeFiles, digest }), 'utf8'));
    sink(SUMMARY_FILE, empty);
    sink(SUMMARY_FILE, chunk);
  }
  return running.digest('hex');
}

const bytesOf = (piece: string | Uint8Array): Uint8Array =>
  typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;

/** Pure: every chosen file's text, in digest order, and the digest. */
export function renderReports(
  record: RunRecord,
  which: readonly ReportName[],
): { files: ReportFile[]; digest: string } {
  const parts = new Map<string, Uint8Array[]>();
  const digest = produce(record, which, (file, chunk) => {
    const list = parts.get(file) ?? [];
    list.push(chunk);
    parts.set(file, list);
  });
  return { files: [...parts].map(([file, list]) => ({ file, text: Buffer.concat(list).toString('utf8') })), digest };
}

/**
 * The digest alone, as `renderReports` and `writeReports` compute it, holding no file: what a
 * sweep keeps of each seed's reports (a quickstart seed's files are about 5.5 MB).
 */
export function digestReports(record: RunRecord, which: readonly ReportName[]): string {
  return produce(record, which, () => {});
}

/**
 * The digest of files given in order (name + NUL + bytes each): what `produce` computes over a
 * run's files as rendered with an empty reproduce command (`{ ...record, reproduce: '' }`).
 */
export function reportDigest(files: readonly ReportFile[]): string {
  const hash = createHash('sha256');
  for (const { file, text } of files) hash.update(`${file}\0`).update(Buffer.from(text, 'utf8'));
  return hash.digest('hex');
}

/** The first bytes of a swarm.yaml afp wrote (src/sim/swarm.ts): the evidence that the file is afp's. */
const SWARM_HEADER = '# Drawn by afp --swarm';

/** The text of `path` when it is a file of at most `bytesMax` bytes, else null. */
function smallText(path: string, bytesMax: number): string | null {
  try {
    if (statSync(path).size > bytesMax) return null;
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/**
 * The files an earlier afp run wrote into `outDir`, as far as the folder proves it: the report
 * files its summary.json lists (`files`, among REPORT_FILES' names) and that summary.json itself
 * (one with `files` and `digest`, as afp writes it), and a swarm.yaml that opens with afp's
 * header. None when nothing proves it: a file of another's, named as afp's, is left alone. Read
 * before any file is replaced. Not proven: the files of an earlier run that wrote no summary.json.
 */
function earlierReports(outDir: string): string[] {
  const earlier: string[] = [];
  const swarm = smallText(join(outDir, 'swarm.yaml'), EARLIER_SUMMARY_BYTES_MAX);
  if (swarm?.startsWith(SWARM_HEADER) === true) earlier.push('swarm.yaml');
  const text = smallText(join(outDir, SUMMARY_FILE), EARLIER_SUMMARY_BYTES_MAX);
  if (text === null) return earlier;
  try {
    const summary = JSON.parse(text) as { files?: unknown; digest?: unknown };
    const files = summary.files;
    if (files === null || typeof files !== 'object' || Array.isArray(files) || typeof summary.digest !== 'string')
      return earlier;
    const known = new Set(REPORT_FILES.map((report) => report.file));
    return [...earlier, ...Object.keys(files).filter((name) => known.has(name)), SUMMARY_FILE];
  } catch {
    return earlier;
  }
}

/**
 * Writes the chosen files into `outDir` (created if needed), then the `beside` ones (swarm.yaml:
 * neither digested nor listed); returns the reports' paths and the digest. A file an earlier run
 * wrote there (earlierReports says which) and this run does not write is removed: a folder of
 * reports is one run's, never a failed run's timeline.html beside a passing run's summary, nor
 * an old summary.json beside a new events.jsonl. Nothing else in the folder is touched. A file
 * that cannot be written (a directory in its place, a full disk) is an OutputWriteError naming it.
 */
export function writeReports(
  record: RunRecord,
  outDir: string,
  which: readonly ReportName[],
  beside: readonly ReportFile[] = [],
): { files: string[]; digest: string } {
  writingTo(outDir, () => mkdirSync(outDir, { recursive: true }));
  const earlier = earlierReports(outDir);
  // The old summary goes first and the new one is written last: a folder with a summary.json holds
  // that run's whole set, each file renamed into place whole (core/atomic-file.ts).
  const summary = join(outDir, SUMMARY_FILE);
  writingTo(summary, () => rmSync(summary, { force: true }));
  const paths: string[] = [];
  const open: { file: string; atomic: AtomicFile | null } = { file: '', atomic: null };
  try {
    const digest = produce(record, which, (file, chunk) => {
      const path = join(outDir, file);
      writingTo(path, () => {
        if (open.file !== file) {
          const previous = open.atomic;
          open.atomic = null;
          if (previous !== null) writingTo(previous.path, () => previous.commit());
          open.atomic = new AtomicFile(path);
          open.file = file;
          paths.push(path);
        }
        open.atomic?.write(chunk);
      });
    });
    for (const { file, text } of beside) {
      const path = join(outDir, file);
      writingTo(path, () => writeFileAtomic(path, text));
    }
    const written = new Set([...paths, ...beside.map(({ file }) => join(outDir, file))]);
    for (const name of earlier) {
      const path = join(outDir, name);
      if (!written.has(path)) writingTo(path, () => rmSync(path, { force: true }));
    }
    // The last file produced (summary.json, when chosen) is renamed into place after everything
    // else, the earlier run's leftovers removed included: its presence means the set is whole.
    const last = open.atomic;
    open.atomic = null;
    if (last !== null) writingTo(last.path, () => last.commit());
    return { files: paths, digest };
  } finally {
    open.atomic?.abort();
  }
}
