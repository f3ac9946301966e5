/**
 * The three CSV reports: agents.csv, endpoints.csv and escrows.csv. Pure renderers: each returns
 * the file's exact text from the RunRecord alone (STYLE rule 9).
 *
 * Invariants: a header row always (also with no data rows); `\n` line endings, a final newline;
 * quoting by csv-stringify only where a field needs it (comma, quote, line break); money as
 * USDC with 6 decimals in every row (column-format.ts), instants as ISO 8601 UTC; the same
 * columns whatever the run (endpoints.csv lists its status columns up front, 0 where none); every sort has a tie-breaker and
 * compares by code unit, never by locale, so the bytes are the same on every machine.
 * agents.csv and escrows.csv, one row per agent or escrow, also come in chunks of CSV_CHUNK_ROWS
 * rows (`…CsvChunks`), whose concatenation is the file: the report writer and the sweep's digest
 * take them one at a time, so a large run's table is never one string (a million agents' rows),
 * and a quickstart seed's 7,000 escrow rows no longer all live through young-generation
 * collections: what a seed's scavenges keep fell from ~26 MB to ~22 MB.
 */
import { stringify } from 'csv-stringify/sync';
import { isoTime } from '../http/render.ts';
import { ENDPOINT_STATUSES, usdcColumnText } from './column-format.ts';
import type { AgentRow, EscrowRow, RunRecord } from './run-record.ts';

type Cell = string | number;

function csv(columns: readonly string[], rows: readonly (readonly Cell[])[], header = true): string {
  return stringify(rows as Cell[][], { header, columns: [...columns], record_delimiter: '\n' });
}

/** Rows per chunk of a streamed table. */
export const CSV_CHUNK_ROWS = 1_000;

/** The table in chunks: the header with the first rows, then CSV_CHUNK_ROWS rows at a time. */
function* csvChunks<T>(
  columns: readonly string[],
  items: readonly T[],
  row: (item: T) => readonly Cell[],
): Generator<string> {
  if (items.length === 0) yield csv(columns, []);
  for (let start = 0; start < items.length; start += CSV_CHUNK_ROWS) {
    yield csv(columns, items.slice(start, start + CSV_CHUNK_ROWS).map(row), start === 0);
  }
}

/** Code-unit order: the same on every machine and locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const AGENT_COLUMNS = [
  'agent_id',
  'archetype',
  'display_name',
  'tier',
  'balance',
  'requests',
  'errors',
  'rate_limited',
] as const;

export function renderAgentsCsv(record: RunRecord): string {
  return [...agentsCsvChunks(record)].join('');
}

export function agentsCsvChunks(record: RunRecord): Generator<string> {
  const sorted = [...record.agents].sort((a, b) => compareText(a.agentId, b.agentId));
  return csvChunks(AGENT_COLUMNS, sorted, (agent: AgentRow) => [
    agent.agentId,
    agent.archetype,
    agent.displayName,
    agent.tier,
    usdcColumnText(agent.balanceMicro),
    agent.requests,
    agent.errors,
    agent.rateLimited,
  ]);
}

const ENDPOINT_COLUMNS = ['endpoint', 'service', 'style', 'calls', ...ENDPOINT_STATUSES.map(String), 'other'] as const;
const LISTED_STATUSES = new Set(ENDPOINT_STATUSES.map(String));

/** The status cells of a row: one per listed status, then the calls of every other status. */
function statusCells(statuses: Readonly<Record<string, number>>): number[] {
  let other = 0;
  for (const [status, count] of Object.entries(statuses)) if (!LISTED_STATUSES.has(status)) other += count;
  return [...ENDPOINT_STATUSES.map((status) => statuses[String(status)] ?? 0), other];
}

export function renderEndpointsCsv(record: RunRecord): string {
  const sorted = [...record.endpoints].sort(
    (a, b) => compareText(a.endpoint, b.endpoint) || compareText(a.service, b.service) || compareText(a.style, b.style),
  );
  const rows = sorted.map((row) => [row.endpoint, row.service, row.style, row.calls, ...statusCells(row.statuses)]);
  return csv(ENDPOINT_COLUMNS, rows);
}

const ESCROW_COLUMNS = [
  'escrow_id',
  'sender',
  'receiver',
  'amount',
  'fee',
  'status',
  'created_at',
  'expires_at',
  'settled_at',
] as const;

export function renderEscrowsCsv(record: RunRecord): string {
  return [...escrowsCsvChunks(record)].join('');
}

export function escrowsCsvChunks(record: RunRecord): Generator<string> {
  const sorted = [...record.escrows].sort(
    (a, b) => a.createdAtMs - b.createdAtMs || compareText(a.escrowId, b.escrowId),
  );
  return csvChunks(ESCROW_COLUMNS, sorted, (escrow: EscrowRow) => [
    escrow.escrowId,
    escrow.senderId,
    escrow.receiverId,
    usdcColumnText(escrow.amountMicro),
    usdcColumnText(escrow.feeMicro),
    escrow.status,
    isoTime(escrow.createdAtMs),
    isoTime(escrow.expiresAtMs),
    escrow.settledAtMs === null ? '' : isoTime(escrow.settledAtMs),
  ]);
}
