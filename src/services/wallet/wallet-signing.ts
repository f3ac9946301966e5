/**
 * Signing a send with the key the caller supplied, and forgetting the key. The service derives
 * the sender from the key (`addressOfKey`), builds the transaction's bytes (chain, from, to, asset,
 * amount, fee, nonce), signs them (`signMessage`: secp256k1 for EVM, bitcoin and tron, ed25519 for
 * solana, the spend key for monero) and checks the signature against the sender's address
 * (`verifySignature`) before anything moves. A key that is ill-formed → 400; one that does not
 * control the `from` the caller named → 403; nothing moves either way.
 *
 * Non-custodial: the key lives only in this call's arguments. Neither the key nor the signature is
 * kept; the transaction hash is the SHA-256 of the signed bytes (so it needs no key to recompute).
 * `verified` is the one key form without a key: the command log's replay of a send that was
 * verified when it was served (the log keeps the sender, never the key: src/server/recovery.ts);
 * route rows build it only while replaying.
 */
import { createHash } from 'node:crypto';
import { fail, succeed, type Outcome } from '../../core/errors.ts';
import { addressKey } from './chain-book.ts';
import { addressOfKey, signMessage, verifySignature } from './keys/wallet-keys.ts';
import { isEvmChain, keyChainOf, type SimChain } from './wallet-config.ts';

export type SenderKey =
  | { readonly kind: 'key'; readonly key: string }
  | { readonly kind: 'monero'; readonly viewKey: string; readonly spendKey: string }
  | { readonly kind: 'verified'; readonly from: string };

export interface TxFields {
  readonly chain: SimChain;
  readonly to: string;
  readonly asset: string;
  readonly amount: bigint;
  readonly fee: bigint;
  readonly memo: string | null;
}

/** The canonical bytes of a transfer: what is signed, and what its hash is taken of. */
export function transferBytes(fields: TxFields, from: string, nonce: number): Uint8Array {
  const text = [
    'afp-wallet-tx-v1',
    fields.chain,
    from,
    fields.to,
    fields.asset,
    fields.amount.toString(),
    fields.fee.toString(),
    String(nonce),
    fields.memo ?? '',
  ].join('\n');
  return new TextEncoder().encode(text);
}

/** The transaction hash of signed bytes: `0x` + 64 hex on EVM chains, 64 hex elsewhere. */
export function transferHash(chain: SimChain, bytes: Uint8Array): string {
  const hex = createHash('sha256').update(bytes).digest('hex');
  return isEvmChain(chain) ? `0x${hex}` : hex;
}

/** The address `key` controls on `chain`; 400 when the key is ill-formed. */
export function senderOf(chain: SimChain, key: SenderKey): Outcome<string> {
  if (key.kind === 'verified') return succeed(key.from);
  const answer =
    key.kind === 'key'
      ? addressOfKey(keyChainOf(chain), key.key)
      : chain === 'monero'
        ? addressOfKey(chain, { viewKey: key.viewKey, spendKey: key.spendKey })
        : null;
  if (answer === null) return fail('BAD_REQUEST', `${chain} sends take private_key`, { field: 'private_key' });
  if (!answer.ok)
    return fail(
      'BAD_REQUEST',
      chain === 'monero'
        ? `view_key and spend_key are not a valid monero key pair (${answer.reason})`
        : `private_key is not a valid ${chain} private key (${answer.reason})`,
      { field: chain === 'monero' ? 'spend_key' : 'private_key' },
    );
  return succeed(answer.address);
}

/** The sender, checked against the `from` the caller named (if any); 403 when the key does not control it. */
export function authorizedSender(chain: SimChain, key: SenderKey, claimedFrom: string | null): Outcome<string> {
  const sender = senderOf(chain, key);
  if (!sender.ok) return sender;
  if (claimedFrom !== null && addressKey(chain, claimedFrom) !== addressKey(chain, sender.value)) {
    return fail('FORBIDDEN', `the key supplied does not control ${claimedFrom} on ${chain}`, { field: 'from' });
  }
  return sender;
}

/**
 * Signs the transfer's bytes with the key and verifies the signature against `from`: a real
 * signature, so a key for another address fails here. `verified` (replay) signs nothing.
 */
export function signTransfer(chain: SimChain, key: SenderKey, from: string, bytes: Uint8Array): Outcome<null> {
  if (key.kind === 'verified') return succeed(null);
  const signingKey = key.kind === 'key' ? key.key : { viewKey: key.viewKey, spendKey: key.spendKey };
  const signature = signMessage(keyChainOf(chain), signingKey, bytes);
  if (!verifySignature(keyChainOf(chain), from, bytes, signature))
    return fail('FORBIDDEN', `the signature made with the key supplied does not verify for ${from} on ${chain}`, {
      field: 'private_key',
    });
  return succeed(null);
}
