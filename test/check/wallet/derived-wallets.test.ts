// The check model's remembered wallet derivations (src/check/wallet/derived-wallets.ts): the same
// answer as deriveWallet, derived once per mnemonic.
import { describe, expect, test } from 'vitest';
import { derivedWallet } from '../../../src/check/wallet/derived-wallets.ts';
import { deriveWallet } from '../../../src/services/wallet/keys/wallet-keys.ts';

const TEST_MNEMONIC = `${'abandon '.repeat(23)}art`;

describe('derivedWallet', () => {
  test("is deriveWallet's wallet, and the same object the second time", () => {
    const first = derivedWallet(TEST_MNEMONIC);
    expect(first).toEqual(deriveWallet(TEST_MNEMONIC));
    expect(derivedWallet(TEST_MNEMONIC)).toBe(first);
  });
});
