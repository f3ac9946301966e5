/**
 * A command log's row read back as the entry it holds: its CRC-32 checked, its JSON parsed, each
 * kind's fields checked; a row that fails any of it is kind 'corrupt' with the reason, never read
 * as another command. Why a file of its own: decoding is the recovery side of the framing in
 * log-entries.ts, used by the replay (command-log.ts), the checkpoint worker and the covered scan.
 */
import { ERROR_STATUS, Failure, type ErrorCode, type JsonObject } from '../core/errors.ts';
import { isMount, type Mount } from '../http/route.ts';
import type { Credential } from '../platform/platform.ts';
import type { Tier } from '../services/shared/agents.ts';
import { rowCrc, type LoggedCommand, type LoggedRequest } from './log-entries.ts';

const TIERS: readonly Tier[] = ['free', 'pro', 'enterprise'];

function decodeCredential(value: unknown): Credential | undefined {
  if (value === null) return 'none';
  if (value === 'invalid') return 'invalid';
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value) ? { keyHash: value } : undefined;
}

/** One stored row as the entry it holds (kind 'corrupt' when it cannot be read). */
export function decodeCommandRow(row: Record<string, unknown>): LoggedCommand {
  const seq = Number(row['seq']);
  const atMs = Number(row['at_ms']);
  const corrupt = (reason: string): LoggedCommand => ({ seq, kind: 'corrupt', reason });
  const crc = row['crc'];
  if (
    crc !== null &&
    crc !== undefined &&
    Number(crc) !==
      rowCrc(
        row['at_ms'] as number,
        String(row['kind']),
        String(row['entry']),
        row['body'] === null ? null : String(row['body']),
      )
  )
    return corrupt('its CRC-32 does not match its bytes (damaged)');
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(String(row['entry'])) as Record<string, unknown>;
  } catch {
    return corrupt('entry is not JSON');
  }
  if (!Number.isSafeInteger(atMs) || typeof entry !== 'object' || entry === null) return corrupt('at_ms or entry');
  switch (row['kind']) {
    case 'request':
      return decodeRequest(seq, atMs, entry, row['body']);
    case 'charge':
      return decodeCharge(seq, atMs, entry);
    default: {
      const decode = Object.hasOwn(ADMIN_DECODERS, String(row['kind']))
        ? ADMIN_DECODERS[String(row['kind'])]
        : undefined;
      return decode === undefined
        ? corrupt(`unknown kind '${String(row['kind'])}'`)
        : (decode(seq, atMs, entry) ?? corrupt(`${String(row['kind'])} entry`));
    }
  }
}

/** An admin entry's fields as its command, or null when they are not its shape. */
type AdminDecoder = (seq: number, atMs: number, entry: Record<string, unknown>) => LoggedCommand | null;

function decodeDeposit(seq: number, atMs: number, entry: Record<string, unknown>): LoggedCommand | null {
  const { agent_id: agentId, chain, amount_micro: amount, confirmed } = entry;
  const valid =
    typeof agentId === 'string' &&
    typeof chain === 'string' &&
    typeof amount === 'string' &&
    /^\d{1,20}$/.test(amount) &&
    (confirmed === undefined || confirmed === true);
  return valid
    ? {
        seq,
        kind: 'deposit',
        atMs,
        agentId,
        chain,
        amountMicro: BigInt(amount),
        ...(confirmed === true ? { confirmed: true as const } : {}),
      }
    : null;
}

function decodeWalletMint(seq: number, atMs: number, entry: Record<string, unknown>): LoggedCommand | null {
  const { chain, address, amount, token } = entry;
  const valid =
    typeof chain === 'string' &&
    typeof address === 'string' &&
    typeof amount === 'string' &&
    (token === null || typeof token === 'string');
  return valid ? { seq, kind: 'wallet-mint', atMs, chain, address, amount, token } : null;
}

/** The decoder of each admin kind; a corrupt entry's reason is `<kind> entry` unless it names a field. */
const ADMIN_DECODERS: Readonly<Record<string, AdminDecoder>> = {
  clock: (seq, atMs, entry) =>
    Number.isSafeInteger(entry['from_ms'])
      ? { seq, kind: 'clock', atMs, fromMs: entry['from_ms'] as number }
      : { seq, kind: 'corrupt', reason: 'clock entry without from_ms' },
  tier: (seq, atMs, entry) => {
    const { agent_id: agentId, tier } = entry;
    return typeof agentId === 'string' && TIERS.includes(tier as Tier)
      ? { seq, kind: 'tier', atMs, agentId, tier: tier as Tier }
      : null;
  },
  deposit: decodeDeposit,
  'wallet-mint': decodeWalletMint,
  snapshot: (seq, atMs, entry) =>
    typeof entry['id'] === 'string'
      ? { seq, kind: 'snapshot', atMs, id: entry['id'] }
      : { seq, kind: 'corrupt', reason: 'snapshot entry without id' },
  revert: (seq, atMs, entry) =>
    typeof entry['id'] === 'string' && Number.isSafeInteger(entry['from_ms'])
      ? { seq, kind: 'revert', atMs, id: entry['id'], fromMs: entry['from_ms'] as number }
      : null,
  reset: (seq, atMs, entry) =>
    Number.isSafeInteger(entry['from_ms']) ? { seq, kind: 'reset', atMs, fromMs: entry['from_ms'] as number } : null,
};

/** A logged `body_failure` (a Failure as JSON): undefined when absent, null when malformed. */
function decodeFailure(value: unknown): Failure | undefined | null {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { ok, status, code, message, extra } = value as Record<string, unknown>;
  const knownCode = typeof code === 'string' && Object.hasOwn(ERROR_STATUS, code);
  const extraOk = extra === undefined || (typeof extra === 'object' && extra !== null && !Array.isArray(extra));
  if (ok !== false || typeof status !== 'number' || !knownCode || typeof message !== 'string' || !extraOk) return null;
  return new Failure(status, code as ErrorCode, message, extra as JsonObject | undefined);
}

function decodeRequest(seq: number, atMs: number, entry: Record<string, unknown>, body: unknown): LoggedCommand {
  const { mount, method, path, query, ip } = entry;
  const credential = decodeCredential(entry['auth']);
  const bodyFailure = decodeFailure(entry['body_failure']);
  const knownMount = isMount(mount);
  const fieldsOk =
    typeof method === 'string' &&
    typeof path === 'string' &&
    typeof ip === 'string' &&
    typeof query === 'object' &&
    query !== null;
  if (!knownMount || !fieldsOk || credential === undefined || !(body === null || typeof body === 'string'))
    return { seq, kind: 'corrupt', reason: 'request entry' };
  if (bodyFailure === null) return { seq, kind: 'corrupt', reason: 'body_failure' };
  const door = entry['door'];
  if (door !== undefined && door !== 'mcp') return { seq, kind: 'corrupt', reason: 'door' };
  const request: LoggedRequest = {
    mount: mount as Mount,
    method,
    path,
    query: query as Record<string, string>,
    ip,
    credential,
    bodyText: body,
    bodyFailure,
    ...(door === undefined ? {} : { door }),
  };
  return { seq, kind: 'request', atMs, request };
}

function decodeCharge(seq: number, atMs: number, entry: Record<string, unknown>): LoggedCommand {
  const { mount, method, path, ip } = entry;
  const credential = decodeCredential(entry['auth']);
  if (
    !isMount(mount) ||
    typeof method !== 'string' ||
    typeof path !== 'string' ||
    typeof ip !== 'string' ||
    credential === undefined
  )
    return { seq, kind: 'corrupt', reason: 'charge entry' };
  return { seq, kind: 'charge', atMs, request: { mount, method, path, ip, credential } };
}
