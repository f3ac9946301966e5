/**
 * ReplayKeyring: re-signing recorded wallet sends on replay (issue 21). A record keeps no key
 * (recorder.ts writes `redacted` for private_key, view_key, spend_key and mnemonic), so a recorded
 * send cannot be resent as it was. But replay creates each recorded wallet again on the target,
 * and the target's answer holds the new wallet's mnemonic: the keyring derives that wallet's keys
 * and keeps them IN MEMORY ONLY, by the target's address. A recorded send whose keys are redacted
 * is then sent with the key of its live sender:
 *   - monero: `from` (already rebound to the target's address by provenance);
 *   - otherwise the recorded answer's `from`, through the bindings (the recorded create answer's
 *     addresses were bound to the target's when it was compared);
 *   - otherwise (style B answers name no sender) the caller's latest wallet on the target.
 * A recorded send refused for its key's form (400) keeps the marker, which the target refuses the
 * same way. One refused because the key was another's (403: a well-formed key that does not sign
 * for the sender) is sent with the keys of a stranger's wallet (STRANGER_MNEMONICS: public test
 * mnemonics, never the sender's), so the target refuses it for the same reason; the marker drew a
 * 400 instead, a false difference. A monero balance's view_key (a query field) is the live view
 * key of the address in its path; a stranger's where the recorded balance was refused (403).
 *
 * Non-custodial: nothing here writes, logs or returns a key except inside the request handed to
 * the transport; the session compares redacted answers (replay-session.ts), so neither the diff
 * nor its report can hold one. Limits: at most WALLETS_MAX wallets; beyond, sends keep the marker.
 */
import { redactSecretsDeep, REDACTED_PREFIX, SECRET_FIELDS } from '../http/routes/wallet/wallet-parse.ts';
import {
  deriveWallet,
  isValidMnemonic,
  WALLET_CHAINS,
  type DerivedWallet,
  type WalletChain,
} from '../services/wallet/keys/wallet-keys.ts';
import { addressKey } from '../services/wallet/chain-book.ts';
import { keyChainOf, SIM_CHAIN_NAMES } from '../services/wallet/wallet-config.ts';
import type { Bindings } from './bindings.ts';
import type { RecordedExchange } from './record-format.ts';

const WALLETS_MAX = 100_000;
/** What the recorder writes for a secret (redactSecretsDeep). */
const REDACTED = 'redacted';
/** Two BIP-39 test mnemonics: their keys are well-formed and sign for no agent's wallet; the second stands in where the first is the sender. */
const STRANGER_MNEMONICS = [
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
  'zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo wrong',
] as const;

type Keys = { readonly privateKey: string } | { readonly viewKey: string; readonly spendKey: string };

export class ReplayKeyring {
  /** `${chain}|${address key}` → the keys that sign for it on the target. */
  private readonly keys = new Map<string, Keys>();
  /** Live authorization header → the addresses of the latest wallet it created on the target. */
  private readonly latest = new Map<string, Readonly<Record<WalletChain, string>>>();
  private wallets = 0;
  /** The strangers' wallets, derived when a refused key is first replayed. */
  private strangers: readonly DerivedWallet[] | null = null;

  get size(): number {
    return this.wallets;
  }

  /** Learns the wallet a live answer created (its mnemonic), for the caller that asked for it. */
  learn(authorization: string | undefined, body: unknown): void {
    if (body === null || typeof body !== 'object' || this.wallets >= WALLETS_MAX) return;
    const mnemonic = (body as { mnemonic?: unknown }).mnemonic;
    if (typeof mnemonic !== 'string' || !isValidMnemonic(mnemonic)) return;
    const wallet = deriveWallet(mnemonic);
    this.wallets++;
    for (const chain of WALLET_CHAINS) {
      const keys: Keys =
        chain === 'monero'
          ? { viewKey: wallet.monero.viewKey, spendKey: wallet.monero.spendKey }
          : { privateKey: wallet.privateKeys[chain] };
      this.keys.set(`${chain}|${addressKey(chain, wallet.addresses[chain])}`, keys);
    }
    if (authorization !== undefined) this.latest.set(authorization, wallet.addresses);
  }

  /** `body` with its redacted keys replaced by the live sender's; the same body when it has none or no sender is known. */
  sign(exchange: RecordedExchange, body: unknown, authorization: string | undefined, bindings: Bindings): unknown {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
    const fields = body as Record<string, unknown>;
    const redacted = SECRET_FIELDS.filter(
      (name) =>
        fields[name] === REDACTED ||
        (typeof fields[name] === 'string' && (fields[name] as string).startsWith(REDACTED_PREFIX)),
    );
    if (redacted.length === 0 || exchange.response.status === 400) return body;
    const chain = sendChain(fields);
    if (chain === null) return body;
    const sender = this.senderOf(exchange, fields, chain, authorization, bindings);
    const keys =
      exchange.response.status === 403
        ? this.strangerKeys(chain, sender)
        : sender === null
          ? undefined
          : this.keys.get(`${chain}|${addressKey(chain, sender)}`);
    if (keys === undefined) return body;
    const signed: Record<string, unknown> = { ...fields };
    if ('privateKey' in keys) signed['private_key'] = keys.privateKey;
    else Object.assign(signed, { view_key: keys.viewKey, spend_key: keys.spendKey });
    return signed;
  }

  /** The view and spend keys of a live monero address the replay created, or null. */
  moneroKeys(liveAddress: string): { readonly viewKey: string; readonly spendKey: string } | null {
    const keys = this.keys.get(`monero|${addressKey('monero', liveAddress)}`);
    return keys === undefined || 'privateKey' in keys ? null : keys;
  }

  /** The live address a recorded send goes out from (as `sign` finds it), or null when none is known. */
  sender(
    exchange: RecordedExchange,
    body: unknown,
    authorization: string | undefined,
    bindings: Bindings,
  ): string | null {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
    const fields = body as Record<string, unknown>;
    const chain = sendChain(fields);
    return chain === null ? null : this.senderOf(exchange, fields, chain, authorization, bindings);
  }

  /**
   * `query` with a redacted view_key (a monero balance) replaced by the live view key of the path's
   * address; by a stranger's where the recorded balance was refused for its key (403).
   */
  signQuery(
    exchange: RecordedExchange,
    path: string,
    query: Readonly<Record<string, string>>,
  ): Readonly<Record<string, string>> {
    if (query['view_key'] !== REDACTED || exchange.response.status === 400) return query;
    const address = decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
    const keys =
      exchange.response.status === 403 ? this.strangerKeys('monero', address) : this.keys.get(`monero|${address}`);
    return keys === undefined || 'privateKey' in keys ? query : { ...query, view_key: keys.viewKey };
  }

  /** Well-formed keys on `chain` that do not sign for `sender` (a stranger's). */
  private strangerKeys(chain: WalletChain, sender: string | null): Keys {
    this.strangers ??= STRANGER_MNEMONICS.map((mnemonic) => deriveWallet(mnemonic));
    const [first, second] = this.strangers as readonly [DerivedWallet, DerivedWallet];
    const isSender = sender !== null && addressKey(chain, first.addresses[chain]) === addressKey(chain, sender);
    const wallet = isSender ? second : first;
    return chain === 'monero'
      ? { viewKey: wallet.monero.viewKey, spendKey: wallet.monero.spendKey }
      : { privateKey: wallet.privateKeys[chain] };
  }

  private senderOf(
    exchange: RecordedExchange,
    fields: Record<string, unknown>,
    chain: WalletChain,
    authorization: string | undefined,
    bindings: Bindings,
  ): string | null {
    if (chain === 'monero') return typeof fields['from'] === 'string' ? fields['from'] : null;
    const recordedFrom = (exchange.response.body as { from?: unknown } | null)?.from;
    if (typeof recordedFrom === 'string') return bindings.live(recordedFrom) ?? recordedFrom;
    return authorization === undefined ? null : (this.latest.get(authorization)?.[chain] ?? null);
  }
}

/** The key chain a send body names (ethereum when it names none), or null for a chain afp does not simulate. */
function sendChain(fields: Record<string, unknown>): WalletChain | null {
  const chainName =
    fields['chain'] === undefined || fields['chain'] === null
      ? 'ethereum'
      : SIM_CHAIN_NAMES.find((one) => one === fields['chain']);
  return chainName === undefined ? null : keyChainOf(chainName);
}

/** A live answer as the diff and the report may see it: every secret field redacted, as the record has it. */
export function redactedAnswer<T extends { readonly body: unknown }>(answer: T): T {
  const body = redactSecretsDeep(answer.body);
  return body === answer.body ? answer : { ...answer, body };
}
