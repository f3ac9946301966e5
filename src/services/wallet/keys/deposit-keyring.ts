/**
 * DepositKeyring: the swap aggregator's deposit addresses, one per order, from ONE master mnemonic
 * the aggregator draws once (docs/decisions/wallet.md "Wallet"). A new wallet per order cost a PBKDF2
 * (2,048 rounds) and six chains' derivations, ~100 ms; here the seed and each chain's account node
 * are computed once, and an order's address is one child step:
 *
 * | chain                   | deposit address of order `index`                          |
 * | EVM (ethereum, base…)   | BIP-32 m/44'/60'/0'/0/index (non-hardened: one point add)  |
 * | bitcoin                 | BIP-84 m/84'/0'/0'/0/index                                 |
 * | tron                    | BIP-32 m/44'/195'/0'/0/index                               |
 * | solana                  | SLIP-10 m/44'/501'/index'/0' (hardened only: two HMACs)    |
 * | monero                  | subaddress (0, index + 1) of the master's monero keys      |
 *
 * Real keys: each address is what a wallet restoring the master mnemonic derives at that path
 * (index 0 of the BIP-32/SLIP-10 chains is the mnemonic's own address of deriveWallet), so a
 * deposit can be checked against the aggregator's key. The keyring holds the aggregator's own
 * secrets (not a user's) in memory and never hands them out.
 * State: the master seed only. The account nodes are a cache derived from it on first use
 * (`nodes`, a transient field of the state codec: written as null, derived again after a restore),
 * so a platform holding a keyring encodes, digests and checkpoints like any other (the nodes are
 * objects of an outside library, which the codec does not know).
 */
import { HDKey } from '@scure/bip32';
import { assert } from '../../../core/assert.ts';
import type { Rng } from '../../../core/rng.ts';
import { p2wpkhAddress } from './bitcoin-address.ts';
import { evmAddressOfPublicKey } from './evm-address.ts';
import { generateMnemonic, mnemonicSeed } from './mnemonic.ts';
import { moneroScalarsOfSeed, publicKeyOfScalar } from './monero-keys.ts';
import { moneroSubaddress } from './monero-subaddress.ts';
import { toUncompressed } from './secp256k1-signature.ts';
import { slip10Derive, slip10HardenedChild, type Slip10Node } from './slip10-ed25519.ts';
import { solanaAddressOfSeed } from './solana-address.ts';
import { tronAddressOfPublicKey } from './tron-address.ts';
import type { WalletChain } from './wallet-chain.ts';

const HARDENED_OFFSET = 0x8000_0000;
/** Non-hardened BIP-32 children and hardened SLIP-10 ones both take an index below 2^31. */
export const DEPOSIT_INDEX_MAX = HARDENED_OFFSET - 2;

/** The derivation path of order `index`'s deposit address on `chain` (monero: its subaddress index). */
export function depositPath(chain: WalletChain, index: number): string {
  switch (chain) {
    case 'ethereum':
    case 'base':
      return `m/44'/60'/0'/0/${index}`;
    case 'bitcoin':
      return `m/84'/0'/0'/0/${index}`;
    case 'tron':
      return `m/44'/195'/0'/0/${index}`;
    case 'solana':
      return `m/44'/501'/${index}'/0'`;
    case 'monero':
      return `subaddress (0, ${index + 1})`;
  }
}

/** Each chain's account node, derived from the master seed. */
interface AccountNodes {
  readonly evm: HDKey;
  readonly bitcoin: HDKey;
  readonly tron: HDKey;
  readonly solana: Slip10Node;
  readonly moneroView: bigint;
  readonly moneroPublicSpend: Uint8Array;
}

function accountNodes(seed: Uint8Array): AccountNodes {
  const root = HDKey.fromMasterSeed(seed);
  const monero = moneroScalarsOfSeed(seed);
  return {
    evm: root.derive("m/44'/60'/0'/0"),
    bitcoin: root.derive("m/84'/0'/0'/0"),
    tron: root.derive("m/44'/195'/0'/0"),
    solana: slip10Derive(seed, "m/44'/501'"),
    moneroView: monero.view,
    moneroPublicSpend: publicKeyOfScalar(monero.spend),
  };
}

export class DepositKeyring {
  private readonly seed: Uint8Array;
  /** Derived from `seed` on first use; transient in the state codec (state-classes.ts). */
  private nodes: AccountNodes | null = null;

  /** The master from `rng`'s next mnemonic (one PBKDF2, once per platform). */
  static fromRng(rng: Rng): DepositKeyring {
    return new DepositKeyring(mnemonicSeed(generateMnemonic(rng)));
  }

  constructor(seed: Uint8Array) {
    this.seed = seed;
  }

  /** The deposit address of order `index` on `chain` (the path of `depositPath`). */
  address(chain: WalletChain, index: number): string {
    assert(Number.isInteger(index) && index >= 0 && index <= DEPOSIT_INDEX_MAX, 'a deposit index is below 2^31');
    this.nodes ??= accountNodes(this.seed);
    const nodes = this.nodes;
    switch (chain) {
      case 'ethereum':
      case 'base':
        return evmAddressOfPublicKey(toUncompressed(childPublicKey(nodes.evm, index)));
      case 'bitcoin':
        return p2wpkhAddress(childPublicKey(nodes.bitcoin, index));
      case 'tron':
        return tronAddressOfPublicKey(toUncompressed(childPublicKey(nodes.tron, index)));
      case 'solana': {
        const account = slip10HardenedChild(nodes.solana, index + HARDENED_OFFSET);
        return solanaAddressOfSeed(slip10HardenedChild(account, HARDENED_OFFSET).key);
      }
      case 'monero':
        return moneroSubaddress(nodes.moneroView, nodes.moneroPublicSpend, 0, index + 1);
    }
  }
}

/** The compressed public key of the non-hardened child `index` of `node`. */
function childPublicKey(node: HDKey, index: number): Uint8Array {
  const publicKey = node.deriveChild(index).publicKey;
  assert(publicKey !== null, 'a derived BIP-32 node has its public key');
  return publicKey;
}
