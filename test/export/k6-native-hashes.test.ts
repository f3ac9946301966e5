// The k6 bundle's hashing and key shims (src/export/k6/shims/noble-*.ts: SHA-256, SHA-512,
// HMAC-SHA512 and PBKDF2 by k6's own Go code; src/services/wallet/keys/bip32-private.ts: the BIP-32 without the public keys
// nobody reads) give the bytes Node gives with the libraries they stand in for: a bundle of the
// same calls runs on the real k6 and prints its answers, compared with Node's here. The wallet a
// mnemonic derives (every chain's address and key) is the sharpest check: one wrong bit anywhere
// changes an address.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HDKey } from '@scure/bip32';
import { hmac } from '@noble/hashes/hmac.js';
import { pbkdf2 } from '@noble/hashes/pbkdf2.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { afterAll, describe, expect, test } from 'vitest';
import { bundleK6Script, rootModule } from '../../src/export/k6/k6-bundle.ts';
import { HDKey as LeanHDKey } from '../../src/services/wallet/keys/bip32-private.ts';
import { deriveWallet } from '../../src/services/wallet/keys/derive-wallet.ts';
import { mnemonicSeed } from '../../src/services/wallet/keys/mnemonic.ts';
import { k6ForTests } from '../fixtures/k6-binary.ts';

const { path: K6, skip: K6_SKIP } = k6ForTests();

const DIR = mkdtempSync(join(tmpdir(), 'afp-k6-hashes-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const MNEMONICS = [
  `${'abandon '.repeat(23)}art`,
  'legal winner thank year wave sausage worth useful legal winner thank year wave sausage worth useful legal winner thank year wave sausage worth title',
];
const PATHS = ["m/44'/60'/0'/0/0", "m/84'/0'/0'/0/0", "m/44'/195'/0'/0/7", "m/0/2147483647'/1/2147483646'/2"];

/**
 * The answers, computed by whatever `@noble/hashes`, `@scure/bip32` and the key code resolve to:
 * one text, run by Node here and bundled into the k6 script (the libraries as `lib`).
 */
const ANSWERS = `(lib) => {
  const { HDKey, hmac, pbkdf2, sha256, sha512, bytesToHex, utf8ToBytes, deriveWallet, mnemonicSeed } = lib;
  const message = utf8ToBytes('afp'.repeat(100));
  const seed = mnemonicSeed(MNEMONICS[1]);
  return {
    sha256: bytesToHex(sha256(message)),
    sha512: bytesToHex(sha512(message)),
    sha512Streamed: bytesToHex(sha512.create().update(message).update(message).digest()),
    hmacSha512: bytesToHex(hmac(sha512, utf8ToBytes('key'), message)),
    hmacSha512LongKey: bytesToHex(hmac(sha512, message, message)),
    hmacSha256: bytesToHex(hmac(sha256, utf8ToBytes('key'), message)),
    pbkdf2Sha512: bytesToHex(pbkdf2(sha512, 'password', 'salt', { c: 3, dkLen: 100 })),
    pbkdf2Sha256: bytesToHex(pbkdf2(sha256, 'password', 'salt', { c: 3, dkLen: 20 })),
    seed: bytesToHex(seed),
    bip32: PATHS.map((path) => bytesToHex(HDKey.fromMasterSeed(seed).derive(path).privateKey)),
    wallets: MNEMONICS.map((mnemonic) => deriveWallet(mnemonic)),
  };
}`;
const LIB_IMPORTS = `import { HDKey } from '@scure/bip32';
import { hmac } from '@noble/hashes/hmac.js';
import { pbkdf2 } from '@noble/hashes/pbkdf2.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';`;

function nodeAnswers(): Record<string, unknown> {
  // The test's own text, run by Node (the same text the k6 script runs).
  const run = new Function('MNEMONICS', 'PATHS', `return ${ANSWERS};`) as (
    mnemonics: readonly string[],
    paths: readonly string[],
  ) => (lib: Record<string, unknown>) => Record<string, unknown>;
  const lib = { HDKey, hmac, pbkdf2, sha256, sha512, bytesToHex, utf8ToBytes, deriveWallet, mnemonicSeed };
  return run(MNEMONICS, PATHS)(lib);
}

/** The same calls as a k6 script, bundled as `afp export k6` bundles (the shims in place). */
async function k6Answers(): Promise<Record<string, unknown>> {
  const module = (path: string): string => JSON.stringify(rootModule(path));
  const entry = `${LIB_IMPORTS}
import { deriveWallet } from ${module('src/services/wallet/keys/derive-wallet')};
import { mnemonicSeed } from ${module('src/services/wallet/keys/mnemonic')};
export const options = { iterations: 1, vus: 1 };
const MNEMONICS = ${JSON.stringify(MNEMONICS)};
const PATHS = ${JSON.stringify(PATHS)};
export default function () {
  const lib = { HDKey, hmac, pbkdf2, sha256, sha512, bytesToHex, utf8ToBytes, deriveWallet, mnemonicSeed };
  console.log(JSON.stringify((${ANSWERS})(lib)));
}
`;
  const bundled = await bundleK6Script(entry);
  if (!bundled.ok) throw new Error(bundled.errors.join('\n'));
  const script = join(DIR, 'hashes.k6.js');
  writeFileSync(script, bundled.text);
  const stderr = await new Promise<string>((resolve, reject) => {
    execFile(
      K6,
      ['run', '--quiet', '--address', '', '--log-format', 'raw', script],
      { env: { ...process.env, K6_NO_USAGE_REPORT: 'true' }, timeout: 120_000 },
      (error, _stdout, text) => (error === null ? resolve(text) : reject(new Error(`${error.message}\n${text}`))),
    );
  });
  const line = stderr.split('\n').find((text) => text.startsWith('{'));
  if (line === undefined) throw new Error(`k6 printed no answers:\n${stderr}`);
  return JSON.parse(line) as Record<string, unknown>;
}

describe("the k6 bundle's native hashing and lean BIP-32", () => {
  test('the lean BIP-32 derives the keys @scure/bip32 derives (Node)', () => {
    for (const mnemonic of MNEMONICS) {
      const seed = mnemonicSeed(mnemonic);
      for (const path of PATHS)
        expect(bytesToHex(LeanHDKey.fromMasterSeed(seed).derive(path).privateKey), path).toBe(
          bytesToHex(HDKey.fromMasterSeed(seed).derive(path).privateKey ?? new Uint8Array()),
        );
    }
    expect(() => LeanHDKey.fromMasterSeed(new Uint8Array(8))).toThrow(/seed length/);
    expect(() => LeanHDKey.fromMasterSeed(new Uint8Array(32)).derive("m/44'/x")).toThrow(/invalid child index/);
  });

  test.skipIf(K6_SKIP !== undefined)(
    'on the real k6, every hash, HMAC, PBKDF2, seed, BIP-32 key and wallet equals Node’s',
    async () => {
      expect(await k6Answers()).toStrictEqual(JSON.parse(JSON.stringify(nodeAnswers())));
    },
  );
});
