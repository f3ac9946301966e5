/**
 * Deposit addresses: one per (agent, chain), derived, never stored, so repeated calls give the
 * same address and two agents (or two chains) practically never share one.
 *
 * Derivation: SHA-256 of `<salt>:<chain id>:<agent id>` (chain ids hold no ':', so the text is
 * unambiguous); EVM chains take `0x` + the first 40 hex of the digest, Solana the base58 text of
 * the 32-byte digest. The salt is drawn once per platform from the casino's rng, so the same seed
 * gives the same addresses and another seed different ones.
 * Non-goals: keys, checksummed (EIP-55) case — addresses are lowercase hex.
 */
import { createHash } from 'node:crypto';
import { base58FromHex } from './base58.ts';
import type { ChainInfo } from './supported-chains.ts';

export function deriveDepositAddress(options: { saltHex: string; agentId: string; chain: ChainInfo }): string {
  const digestHex = createHash('sha256')
    .update(`${options.saltHex}:${options.chain.id}:${options.agentId}`)
    .digest('hex');
  switch (options.chain.addressFormat) {
    case 'evm':
      return `0x${digestHex.slice(0, 40)}`;
    case 'solana':
      return base58FromHex(digestHex);
  }
}
