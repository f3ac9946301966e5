// An address's history lists each of its transactions once: a send to oneself (found by afp check's
// wallet history command, which listed it twice) is one entry, newest first among the others.
import { describe, expect, test } from 'vitest';
import { Rng } from '../../../src/core/rng.ts';
import { Platform } from '../../../src/platform/platform.ts';
import { deriveWallet, generateMnemonic } from '../../../src/services/wallet/keys/wallet-keys.ts';
import { nativeAsset } from '../../../src/services/wallet/wallet-assets.ts';

const START = Date.UTC(2026, 0, 1);

describe('wallet history', () => {
  test('a send to oneself appears once in the address history, pending and confirmed', () => {
    const platform = new Platform({ seed: 'wallet-history', startMs: START });
    const alice = deriveWallet(generateMnemonic(new Rng('wallet-history-keys')));
    const eth = nativeAsset('base');
    const mint = platform.wallet.mint(eth, alice.addresses.base, 10n ** 18n, START);
    const self = platform.wallet.send(
      {
        asset: eth,
        from: null,
        to: alice.addresses.base.toLowerCase(),
        amount: 10n ** 15n,
        key: { kind: 'key', key: alice.privateKeys.base },
        memo: null,
      },
      START + 1,
    );
    if (!mint.ok || !self.ok) throw new Error('minted and sent');
    const hashes = (): string[] =>
      platform.wallet.chains.historyOf('base', alice.addresses.base, 10).map((tx) => tx.hash);
    expect(hashes()).toEqual([self.value.hash, mint.value.hash]);
    platform.advanceTo(START + 2_000);
    expect(self.value.status).toBe('confirmed');
    expect(hashes()).toEqual([self.value.hash, mint.value.hash]);
  });
});
