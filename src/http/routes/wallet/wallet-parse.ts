/**
 * Request parsing shared by the wallet's rows (primary /v1, style A, style B): chains per call,
 * amounts in whole units of the asset, token contract addresses (a symbol → 400), the send's keys
 * (monero: from, view_key, spend_key; others: private_key). Every field is checked before anything
 * runs, so bad input moves nothing.
 *
 * Replay of the command log: the log keeps a send's body with its keys replaced by the marker
 * `redacted:<sender address>` (the send rows' `logBody`, `logSendBody` here). Only a dispatcher
 * replaying its own log (`context.replaying`) accepts that marker, as the sender it verified when
 * it served the request; a live request carrying it is an ill-formed key (400).
 */
import { fail, isFailure, type Failure } from '../../../core/errors.ts';
import { addressOfKey } from '../../../services/wallet/keys/wallet-keys.ts';
import {
  assetByAddress,
  nativeAsset,
  parseAmount,
  parseChain,
  WALLET_CHAIN_NAMES,
  type Asset,
} from '../../../services/wallet/wallet-assets.ts';
import type { WalletTx } from '../../../services/wallet/chain-book.ts';
import type { SendCommand } from '../../../services/wallet/wallet.ts';
import type { SenderKey } from '../../../services/wallet/wallet-signing.ts';
import { keyChainOf, SIM_CHAIN_NAMES, type SimChain } from '../../../services/wallet/wallet-config.ts';
import type { RouteContext } from '../../route.ts';
import { objectBody, optionalString, requiredString, type Fields } from '../../validate.ts';

export const ADDRESS_TEXT_MAX = 128;
export const KEY_TEXT_MAX = 256;
export const MEMO_TEXT_MAX = 256;
/** The marker a logged send keeps instead of its keys (see the header). */
export const REDACTED_PREFIX = 'redacted:';
/** Body fields that carry secrets: never logged, recorded or stored. */
export const SECRET_FIELDS: readonly string[] = ['private_key', 'view_key', 'spend_key', 'mnemonic'];

export const SEND_FIELDS: readonly string[] = [
  'chain',
  'to',
  'amount',
  'private_key',
  'token',
  'from',
  'view_key',
  'spend_key',
  'memo',
];

/** The asset a send moves: the chain's native coin, or the token at `token` (a contract address). */
function sendAsset(chain: SimChain, token: string | undefined): Asset | Failure {
  if (token === undefined) return nativeAsset(chain);
  const asset = assetByAddress(chain, token, 'token');
  if (isFailure(asset)) return asset;
  if (asset.token === null)
    return fail('BAD_REQUEST', `token must be a token contract on ${chain}; leave it out to send ${asset.symbol}`, {
      field: 'token',
    });
  return asset;
}

/** The key a send signs with: private_key, or monero's view_key + spend_key (+ from). */
function senderKey(
  chain: SimChain,
  fields: Fields,
  context: RouteContext,
): { key: SenderKey; from: string | null } | Failure {
  const from = optionalString(fields['from'], 'from', ADDRESS_TEXT_MAX);
  if (isFailure(from)) return from;
  if (chain === 'monero') {
    if (from === undefined)
      return fail('BAD_REQUEST', 'monero sends need from (the primary address), view_key and spend_key', {
        field: 'from',
      });
    if ((fields['private_key'] ?? null) !== null)
      return fail('BAD_REQUEST', 'monero sends take view_key and spend_key, not private_key', { field: 'private_key' });
    const viewKey = requiredString(fields['view_key'], 'view_key', KEY_TEXT_MAX);
    if (isFailure(viewKey)) return viewKey;
    const spendKey = requiredString(fields['spend_key'], 'spend_key', KEY_TEXT_MAX);
    if (isFailure(spendKey)) return spendKey;
    if (viewKey.startsWith(REDACTED_PREFIX) || spendKey.startsWith(REDACTED_PREFIX))
      return (
        replayed(spendKey, context, from) ??
        fail('BAD_REQUEST', 'view_key and spend_key must be hex keys', { field: 'spend_key' })
      );
    return { key: { kind: 'monero', viewKey, spendKey }, from };
  }
  if ((fields['view_key'] ?? null) !== null || (fields['spend_key'] ?? null) !== null)
    return fail('BAD_REQUEST', `${chain} sends take private_key, not view_key or spend_key`, { field: 'view_key' });
  const key = requiredString(fields['private_key'], 'private_key', KEY_TEXT_MAX);
  if (isFailure(key)) return key;
  if (key.startsWith(REDACTED_PREFIX))
    return (
      replayed(key, context, from ?? null) ??
      fail('BAD_REQUEST', `private_key is not a valid ${chain} private key`, { field: 'private_key' })
    );
  return { key: { kind: 'key', key }, from: from ?? null };
}

/**
 * The verified sender of a logged send, while the dispatcher replays its log; null otherwise. The
 * `from` the body names stays the claim it was: a key that did not control it was refused 403 when
 * served, and is refused 403 again (the marker names the address the key controls).
 */
function replayed(
  text: string,
  context: RouteContext,
  claimedFrom: string | null,
): { key: SenderKey; from: string | null } | null {
  if (context.replaying !== true || !text.startsWith(REDACTED_PREFIX)) return null;
  const sender = text.slice(REDACTED_PREFIX.length);
  // An empty sender: the key was ill-formed when served (400 then, 400 now).
  if (sender === '') return null;
  return { key: { kind: 'verified', from: sender }, from: claimedFrom ?? sender };
}

/** A send body (primary and style A): chain, to, amount, keys, token?, memo?. */
export function parseSend(
  body: unknown,
  context: RouteContext,
  allowed: readonly SimChain[] = WALLET_CHAIN_NAMES,
  defaultChain: SimChain | null = null,
): SendCommand | Failure {
  const fields = objectBody(body, SEND_FIELDS);
  if (isFailure(fields)) return fields;
  const chain =
    fields['chain'] === undefined && defaultChain !== null
      ? defaultChain
      : parseChain(fields['chain'], 'chain', allowed);
  if (isFailure(chain)) return chain;
  const to = requiredString(fields['to'], 'to', ADDRESS_TEXT_MAX);
  if (isFailure(to)) return to;
  const token = optionalString(fields['token'], 'token', ADDRESS_TEXT_MAX);
  if (isFailure(token)) return token;
  const asset = sendAsset(chain, token);
  if (isFailure(asset)) return asset;
  if (fields['amount'] === undefined) return fail('BAD_REQUEST', 'amount is required', { field: 'amount' });
  const amount = parseAmount(fields['amount'], asset.decimals, 'amount');
  if (isFailure(amount)) return amount;
  const memo = optionalString(fields['memo'], 'memo', MEMO_TEXT_MAX);
  if (isFailure(memo)) return memo;
  const key = senderKey(chain, fields, context);
  if (isFailure(key)) return key;
  return { asset, from: key.from, to, amount, key: key.key, memo: memo ?? null };
}

/**
 * The body a log or a record keeps of a request: every secret field replaced by the marker, the
 * private key by `redacted:<the address it controls>` (so a replay sends from the same sender);
 * anything else untouched. Bodies without secrets are returned as they are (the same object).
 */
export function redactSecrets(body: unknown, senderOf: (chain: SimChain, fields: Fields) => string | null): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const fields = body as Fields;
  if (!SECRET_FIELDS.some((name) => fields[name] !== undefined)) return body;
  // Style B's send has no chain field: ethereum by default.
  const chain =
    fields['chain'] === undefined || fields['chain'] === null
      ? 'ethereum'
      : (SIM_CHAIN_NAMES.find((one) => one === fields['chain']) ?? null);
  const sender = chain === null ? null : senderOf(chain, fields);
  const out: Record<string, unknown> = { ...fields };
  for (const name of SECRET_FIELDS) if (out[name] !== undefined) out[name] = `${REDACTED_PREFIX}${sender ?? ''}`;
  return out;
}

/**
 * The send rows' `logBody` (RouteSpec): the body with its keys replaced by `redacted:<sender>`. The
 * sender is the sent transaction's, derived once when the send was served; a refused send's is
 * derived from its key here (its replay must refuse the same way).
 */
export function logSendBody(body: unknown, sent: WalletTx | undefined): unknown {
  return redactSecrets(body, (chain, fields) => sent?.from ?? senderOfFields(chain, fields));
}

/**
 * The sender a send body's keys control (monero: the address of its view and spend keys, else the
 * private key's address); null when ill-formed. Never the `from` the body names: a key that does not
 * control it must be refused again on replay (logged as its claim, a refused send came back accepted).
 */
export function senderOfFields(chain: SimChain, fields: Fields): string | null {
  if (chain === 'monero') {
    const viewKey = fields['view_key'];
    const spendKey = fields['spend_key'];
    if (typeof viewKey !== 'string' || typeof spendKey !== 'string' || spendKey.startsWith(REDACTED_PREFIX))
      return null;
    const answer = addressOfKey('monero', { viewKey, spendKey });
    return answer.ok ? answer.address : null;
  }
  const key = fields['private_key'];
  if (typeof key !== 'string' || key.startsWith(REDACTED_PREFIX)) return null;
  const answer = addressOfKey(keyChainOf(chain), key);
  return answer.ok ? answer.address : null;
}

/** A copy of `value` with every secret field, at any depth, replaced by `redacted` (records of traffic). */
export function redactSecretsDeep(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || depth > 32) return value;
  if (Array.isArray(value)) return value.map((item) => redactSecretsDeep(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value))
    out[name] =
      SECRET_FIELDS.includes(name) && item !== null && item !== undefined
        ? 'redacted'
        : redactSecretsDeep(item, depth + 1);
  return out;
}
