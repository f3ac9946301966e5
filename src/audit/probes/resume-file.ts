/**
 * The resume file of the slow probes (`afp audit money --include-slow --resume-file FILE`): the
 * escrows the probes opened and left, with what judging them later needs, so that `afp audit money
 * --resume FILE`, run when they are due (48 h later, from a CI schedule), checks how they settled.
 * Why a file: a real target's dispute window is two days, longer than any CI job.
 *
 * Format: one JSON document, `afp_resume: 1`; the target's casino origin and dialect; the clock its
 * due instants are on (`serve`: a manual afp serve's own, as it answered; `wall`: the wall's, which
 * is a deployment's); the command that resumes it (keys as placeholders); the two accounts' ids
 * (never their keys: the resumed run is given them again, --key and --second-key); per escrow its
 * probe, id, the instant it is due on that clock and on the wall's (when a CI schedule may resume
 * it), what it awaits, the balances read before it,
 * the fee a release takes and the commission its creation stated, the open statuses seen, and the
 * curl lines that made it. Money as micro-USDC decimal strings.
 * Written atomically: a temporary file in the same folder, fsynced, renamed over FILE, mode 0600
 * (it names accounts). Read strictly: a file over RESUME_BYTES_MAX, of another version, for another
 * target or dialect, or with a field missing or of the wrong kind is refused with one line naming
 * what is wrong.
 */
import { readFileSync, statSync } from 'node:fs';
import { writeFileAtomic } from '../../core/atomic-file.ts';
import type { Micro } from '../../core/money.ts';
import type { ReleaseFee } from './escrow-fee.ts';

export const RESUME_VERSION = 1;
export const RESUME_BYTES_MAX = 1_048_576;
const ESCROWS_MAX = 16;

/** One escrow left open, as the resumed run judges it. */
export interface LeftEscrow {
  readonly name: 'escrow-expiry' | 'escrow-dispute';
  readonly escrowId: string;
  /** When its wait ends, on the run's clock (ms since the epoch). */
  readonly dueAtMs: number;
  /** The same instant on the wall clock (the run's wall time + the wait): when a schedule may resume it. */
  readonly dueAtWallMs: number;
  readonly waitMs: number;
  readonly awaited: string;
  readonly creatorBefore: Micro | null;
  readonly secondBefore: Micro | null;
  readonly fee: ReleaseFee | null;
  readonly statedFeeMicro: Micro | null;
  readonly reproduce: string;
  readonly openStatuses: readonly string[];
}

/** The clock a resume file's due instants are on: a manual afp serve's own, or the wall's. */
export type DueClock = 'serve' | 'wall';

export interface ResumeDocument {
  readonly target: string;
  /** The casino's dialect (target.ts DialectName): the resumed run reads the escrows in it. */
  readonly dialect: string;
  readonly dueClock: DueClock;
  /** The command line that judges the file, the keys as placeholders. */
  readonly command: string;
  readonly agentId: string;
  readonly secondAgentId: string;
  readonly writtenAtMs: number;
  readonly escrows: readonly LeftEscrow[];
}

const micro = (value: Micro | null): string | null => (value === null ? null : value.toString());

function feeJson(fee: ReleaseFee | null): Record<string, unknown> | null {
  if (fee === null) return null;
  return fee.known
    ? { known: true, fee_micro: fee.feeMicro.toString(), stated: fee.stated, source: fee.source }
    : { known: false, source: fee.source };
}

/** The document's text (stable key order, one escrow per entry). */
export function renderResume(document: ResumeDocument): string {
  return `${JSON.stringify(
    {
      afp_resume: RESUME_VERSION,
      target: document.target,
      dialect: document.dialect,
      due_clock: document.dueClock,
      command: document.command,
      agent_id: document.agentId,
      second_agent_id: document.secondAgentId,
      written_at: new Date(document.writtenAtMs).toISOString(),
      escrows: document.escrows.map((escrow) => ({
        name: escrow.name,
        escrow_id: escrow.escrowId,
        due_at: new Date(escrow.dueAtMs).toISOString(),
        due_at_ms: escrow.dueAtMs,
        due_at_wall: new Date(escrow.dueAtWallMs).toISOString(),
        wait_ms: escrow.waitMs,
        awaited: escrow.awaited,
        creator_before_micro: micro(escrow.creatorBefore),
        second_before_micro: micro(escrow.secondBefore),
        fee: feeJson(escrow.fee),
        stated_fee_micro: micro(escrow.statedFeeMicro),
        reproduce: escrow.reproduce,
        open_statuses: [...escrow.openStatuses],
      })),
    },
    null,
    2,
  )}\n`;
}

/** Writes `text` to `path` atomically (core/atomic-file.ts), readable by its owner only; an error's message, or null. */
export function writeResumeFile(path: string, text: string): string | null {
  try {
    writeFileAtomic(path, text, 0o600);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

type Read<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

/** What the resumed run is pointed at: a file for another casino or dialect is refused. */
export interface ResumeTarget {
  readonly origin: string;
  readonly dialect: string;
}

/** The resume file at `path` for the target whose casino is at `target.origin`, speaking `target.dialect`. */
export function readResumeFile(path: string, target: ResumeTarget): Read<ResumeDocument> {
  let text: string;
  try {
    if (statSync(path).size > RESUME_BYTES_MAX)
      return { ok: false, message: `${path}: over ${RESUME_BYTES_MAX} bytes: not a resume file afp wrote` };
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return { ok: false, message: `${path}: ${error instanceof Error ? error.message : String(error)}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, message: `${path}: not JSON` };
  }
  const parsed = documentOf(json);
  if (typeof parsed === 'string') return { ok: false, message: `${path}: ${parsed}` };
  if (parsed.target !== target.origin)
    return { ok: false, message: `${path}: written for ${parsed.target}, not this target (${target.origin})` };
  if (parsed.dialect !== target.dialect)
    return {
      ok: false,
      message: `${path}: written for the ${parsed.dialect} dialect; this target's casino speaks ${target.dialect}`,
    };
  return { ok: true, value: parsed };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A string field of at most TEXT_MAX characters, or null when it is missing or is not one. */
const TEXT_MAX = 10_000;
const textOf = (value: unknown): string | null =>
  typeof value === 'string' && value.length <= TEXT_MAX ? value : null;

function microOf(value: unknown, field: string): Micro | null | string {
  if (value === null) return null;
  return typeof value === 'string' && /^-?\d{1,20}$/.test(value) ? BigInt(value) : `${field} is not micro-USDC`;
}

/** An ISO instant's milliseconds, or NaN. */
const instantOf = (value: unknown): number =>
  typeof value === 'string' && value.length <= 40 ? Date.parse(value) : Number.NaN;

function documentOf(json: unknown): ResumeDocument | string {
  if (!isObject(json)) return 'not an object';
  if (json['afp_resume'] !== RESUME_VERSION)
    return `afp_resume is ${JSON.stringify(json['afp_resume'] ?? null)?.slice(0, 40)}, not ${RESUME_VERSION}`;
  const [target, dialect, command, agentId, secondAgentId] = [
    'target',
    'dialect',
    'command',
    'agent_id',
    'second_agent_id',
  ].map((field) => textOf(json[field]));
  if (target == null || dialect == null || command == null || agentId == null || secondAgentId == null)
    return 'target, dialect, command, agent_id and second_agent_id are strings';
  const dueClock = json['due_clock'];
  if (dueClock !== 'serve' && dueClock !== 'wall') return 'due_clock is "serve" or "wall"';
  const writtenAtMs = instantOf(json['written_at']);
  if (!Number.isFinite(writtenAtMs)) return 'written_at is not an instant';
  const escrows = json['escrows'];
  if (!Array.isArray(escrows) || escrows.length === 0 || escrows.length > ESCROWS_MAX)
    return `escrows is a list of 1 to ${ESCROWS_MAX}`;
  const left: LeftEscrow[] = [];
  for (const [index, entry] of escrows.entries()) {
    const escrow = escrowOf(entry);
    if (typeof escrow === 'string') return `escrows[${index}]: ${escrow}`;
    left.push(escrow);
  }
  return { target, dialect, dueClock, command, agentId, secondAgentId, writtenAtMs, escrows: left };
}

function feeOf(value: unknown): ReleaseFee | null | string {
  if (value === null) return null;
  if (!isObject(value) || typeof value['source'] !== 'string') return 'fee is null or { known, source, … }';
  if (value['known'] === false)
    return { known: false, source: value['source'], creatorDeltaMicro: 0n, counterpartyDeltaMicro: 0n };
  const feeMicro = microOf(value['fee_micro'], 'fee.fee_micro');
  if (typeof feeMicro === 'string' || feeMicro === null || typeof value['stated'] !== 'boolean')
    return 'fee.fee_micro and fee.stated are given where the fee is known';
  return {
    known: true,
    feeMicro,
    stated: value['stated'],
    source: value['source'],
    creatorDeltaMicro: 0n,
    counterpartyDeltaMicro: 0n,
  };
}

function escrowOf(entry: unknown): LeftEscrow | string {
  if (!isObject(entry)) return 'not an object';
  const name = entry['name'];
  if (name !== 'escrow-expiry' && name !== 'escrow-dispute') return 'name is escrow-expiry or escrow-dispute';
  const [escrowId, awaited, reproduce] = ['escrow_id', 'awaited', 'reproduce'].map((field) => textOf(entry[field]));
  if (escrowId == null || awaited == null || reproduce == null) return 'escrow_id, awaited and reproduce are strings';
  const dueAtMs = entry['due_at_ms'];
  const waitMs = entry['wait_ms'];
  if (!Number.isSafeInteger(dueAtMs) || !Number.isSafeInteger(waitMs) || (waitMs as number) < 0)
    return 'due_at_ms and wait_ms are whole milliseconds';
  const dueAtWallMs = instantOf(entry['due_at_wall']);
  if (!Number.isFinite(dueAtWallMs)) return 'due_at_wall is not an instant';
  const creatorBefore = microOf(entry['creator_before_micro'], 'creator_before_micro');
  const secondBefore = microOf(entry['second_before_micro'], 'second_before_micro');
  const statedFeeMicro = microOf(entry['stated_fee_micro'], 'stated_fee_micro');
  const fee = feeOf(entry['fee']);
  for (const read of [creatorBefore, secondBefore, statedFeeMicro, fee]) if (typeof read === 'string') return read;
  const statuses = entry['open_statuses'];
  if (!Array.isArray(statuses) || !statuses.every((status) => typeof status === 'string') || statuses.length > 64)
    return 'open_statuses is a list of strings';
  return {
    name,
    escrowId,
    dueAtMs: dueAtMs as number,
    dueAtWallMs,
    waitMs: waitMs as number,
    awaited,
    creatorBefore: creatorBefore as Micro | null,
    secondBefore: secondBefore as Micro | null,
    fee: fee as ReleaseFee | null,
    statedFeeMicro: statedFeeMicro as Micro | null,
    reproduce,
    openStatuses: statuses as string[],
  };
}
