/**
 * A command log's entries as rows: the shapes of what is logged (a whole request, a charge, an
 * admin action), the columns they are stored in, and how each becomes its row — entry JSON, body
 * text, the row's CRC-32 and its place in the chain. Why a file of its own: the framing of an entry
 * is one concept shared by the writer (command-log.ts), the salvage and the checkpoint worker;
 * reading a row back is log-entry-decode.ts.
 */
import { crc32 } from 'node:zlib';
import type { Failure } from '../core/errors.ts';
import type { ApiRequest } from '../http/dispatcher.ts';
import type { Mount } from '../http/route.ts';
import type { Credential } from '../platform/platform.ts';
import type { Tier } from '../services/shared/agents.ts';
import type { AdminCommand } from './admin-command.ts';

/** A request as logged: the dispatcher's ApiRequest without its headers (only the credential counts). */
export interface LoggedRequest {
  readonly mount: Mount;
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly ip: string;
  readonly credential: Credential;
  /** The body's JSON text (parsed again on replay: the exact value the edge parsed); null = no body. */
  readonly bodyText: string | null;
  readonly bodyFailure: Failure | undefined;
  /** `mcp` for a tool call of a /mcp endpoint; absent for HTTP. */
  readonly door?: 'mcp';
}

/** A request as a 'charge' entry keeps it: what the limiter reads, nothing else. */
export interface LoggedCharge {
  readonly mount: Mount;
  readonly method: string;
  readonly path: string;
  readonly ip: string;
  readonly credential: Credential;
}

/** What of a request the log keeps: all of it ('whole'), or what the limiter reads ('charge'). */
export type RequestShape = 'whole' | 'charge';

/** One entry, in log order; `atMs` is the instant the command took effect (never decreasing). */
export type LoggedCommand =
  | { readonly seq: number; readonly kind: 'request'; readonly atMs: number; readonly request: LoggedRequest }
  | { readonly seq: number; readonly kind: 'charge'; readonly atMs: number; readonly request: LoggedCharge }
  | { readonly seq: number; readonly kind: 'clock'; readonly atMs: number; readonly fromMs: number }
  | {
      readonly seq: number;
      readonly kind: 'tier';
      readonly atMs: number;
      readonly agentId: string;
      readonly tier: Tier;
    }
  | {
      readonly seq: number;
      readonly kind: 'deposit';
      readonly atMs: number;
      readonly agentId: string;
      readonly chain: string;
      readonly amountMicro: bigint;
      readonly confirmed?: true;
    }
  | {
      readonly seq: number;
      readonly kind: 'wallet-mint';
      readonly atMs: number;
      readonly chain: string;
      readonly address: string;
      readonly amount: string;
      readonly token: string | null;
    }
  | { readonly seq: number; readonly kind: 'snapshot'; readonly atMs: number; readonly id: string }
  | {
      readonly seq: number;
      readonly kind: 'revert';
      readonly atMs: number;
      readonly fromMs: number;
      readonly id: string;
    }
  | { readonly seq: number; readonly kind: 'reset'; readonly atMs: number; readonly fromMs: number }
  | { readonly seq: number; readonly kind: 'corrupt'; readonly reason: string };

/** A request handed to the log; `bodyText` when the HTTP edge still has the text it parsed. */
export type RequestToLog = ApiRequest & { readonly bodyText?: string };

/** An entry as stored: the commands table's columns (what the checkpoint worker is handed). */
export interface StoredRow {
  readonly seq: number;
  readonly at_ms: number;
  readonly kind: string;
  readonly entry: string;
  readonly body: string | null;
  readonly crc: number | null;
  /** rowChain's value; null in rows written before it (and where a read leaves it out). */
  readonly chain?: number | null;
}

/**
 * The chain value of entry `seq` whose CRC-32 is `crc`, after the entry before it whose chain is
 * `previous` (0 for the first entry, or when that entry has none: written before the chain).
 */
export function rowChain(previous: number, seq: number, crc: number): number {
  return crc32(`${seq}:${crc}`, previous);
}

/** The CRC-32 a row carries: of its instant, kind, entry and body (seq is the row's key: a gap shows a lost one). */
export function rowCrc(atMs: number | bigint, kind: string, entry: string, body: string | null): number {
  return crc32(`${atMs}\u0000${kind}\u0000${entry}\u0000${body ?? '\u0001'}`);
}

/** One entry waiting in the open batch: the row's columns. */
export interface PendingRow {
  readonly atMs: number;
  readonly kind: 'request' | 'charge' | 'clock' | 'tier' | 'deposit' | 'wallet-mint' | 'snapshot' | 'revert' | 'reset';
  readonly entry: string;
  readonly body: string | null;
}

export function encodeCredential(credential: Credential): string | null {
  if (credential === 'none') return null;
  return credential === 'invalid' ? 'invalid' : credential.keyHash;
}

/** The row of a request the dispatcher handled at `atMs`: whole, or as a charge (what the limiter reads: no query, no body). */
export function requestRow(
  request: RequestToLog,
  credential: Credential,
  atMs: number,
  shape: RequestShape,
): PendingRow {
  if (shape === 'charge') {
    const charge = {
      mount: request.mount,
      method: request.method,
      path: request.path,
      ip: request.ip,
      auth: encodeCredential(credential),
    };
    return { atMs, kind: 'charge', entry: JSON.stringify(charge), body: null };
  }
  const entry: Record<string, unknown> = {
    mount: request.mount,
    method: request.method,
    path: request.path,
    query: request.query,
    ip: request.ip,
    auth: encodeCredential(credential),
  };
  if (request.bodyFailure !== undefined) entry['body_failure'] = request.bodyFailure;
  if (request.door !== undefined) entry['door'] = request.door;
  const bodyText = request.bodyText ?? (request.body === undefined ? null : JSON.stringify(request.body));
  return { atMs, kind: 'request', entry: JSON.stringify(entry), body: bodyText };
}

/** The row of a state-changing admin action (clock move, tier set, deposit, mint, time travel). */
export function adminRow(command: AdminCommand): PendingRow {
  switch (command.kind) {
    case 'clock':
      return { atMs: command.toMs, kind: 'clock', entry: JSON.stringify({ from_ms: command.fromMs }), body: null };
    case 'tier':
      return {
        atMs: command.atMs,
        kind: 'tier',
        entry: JSON.stringify({ agent_id: command.agentId, tier: command.tier }),
        body: null,
      };
    case 'deposit':
      return {
        atMs: command.atMs,
        kind: 'deposit',
        entry: JSON.stringify({
          agent_id: command.agentId,
          chain: command.chain,
          amount_micro: String(command.amountMicro),
          ...(command.confirmed === true ? { confirmed: true } : {}),
        }),
        body: null,
      };
    case 'wallet-mint':
      return {
        atMs: command.atMs,
        kind: 'wallet-mint',
        entry: JSON.stringify({
          chain: command.chain,
          address: command.address,
          amount: command.amount,
          token: command.token,
        }),
        body: null,
      };
    case 'snapshot':
      return { atMs: command.atMs, kind: 'snapshot', entry: JSON.stringify({ id: command.id }), body: null };
    case 'revert':
      return {
        atMs: command.toMs,
        kind: 'revert',
        entry: JSON.stringify({ id: command.id, from_ms: command.fromMs }),
        body: null,
      };
    case 'reset':
      return { atMs: command.toMs, kind: 'reset', entry: JSON.stringify({ from_ms: command.fromMs }), body: null };
  }
}
