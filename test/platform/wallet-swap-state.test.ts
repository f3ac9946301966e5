// A platform that has made a wallet swap holds the aggregator's DepositKeyring. The state codec
// must take it like any other state: the digest (GET /_afp/digest) and a checkpoint are written,
// and a platform restored from the checkpoint has the same digest and derives the same next
// deposit address. Before the keyring kept only its seed, the codec refused the library's key
// objects: the digest answered 500 and every checkpoint of a serve with --data failed.
import { describe, expect, test } from 'vitest';
import { Platform } from '../../src/platform/platform.ts';
import { PLATFORM_TRANSIENT, stateClassRegistry } from '../../src/platform/state-classes.ts';
import { platformDigest } from '../../src/platform/state-digest.ts';
import { decodeCheckpoint, encodeCheckpoint } from '../../src/server/checkpoint-codec.ts';
import { generateMnemonic } from '../../src/services/wallet/keys/mnemonic.ts';
import { deriveWallet } from '../../src/services/wallet/keys/wallet-keys.ts';
import { nativeAsset } from '../../src/services/wallet/wallet-assets.ts';
import { Rng } from '../../src/core/rng.ts';

const START = Date.parse('2025-03-01T00:00:00Z');

function swapped(platform: Platform, label: string): string {
  const wallet = deriveWallet(generateMnemonic(new Rng(label)));
  const eth = nativeAsset('base');
  expect(platform.wallet.mint(eth, wallet.addresses.base, 10n ** 19n, START).ok).toBe(true);
  const placed = platform.wallet.swap(
    { from: eth, to: nativeAsset('solana'), amount: 10n ** 18n, toAddress: wallet.addresses.solana },
    START,
    label,
  );
  if (!placed.ok) throw new Error(placed.message);
  return placed.value.depositAddress;
}

describe('the state of a platform after a wallet swap', () => {
  test('digests, checkpoints and restores; the restored keyring derives the same next address', () => {
    const platform = new Platform({ seed: 'swap-state', startMs: START });
    const first = swapped(platform, 'a');
    const digest = platformDigest(platform);
    expect(digest).toMatch(/^[0-9a-f]{16,}$/);
    const registry = stateClassRegistry();
    const bytes = encodeCheckpoint(platform, registry, PLATFORM_TRANSIENT);
    const restored = decodeCheckpoint(bytes, registry) as Platform;
    expect(platformDigest(restored)).toBe(digest);
    // The twin that never checkpointed and the restored platform go on alike.
    const next = swapped(platform, 'b');
    expect(swapped(restored, 'b')).toBe(next);
    expect(next).not.toBe(first);
    expect(platformDigest(restored)).toBe(platformDigest(platform));
  });
});
