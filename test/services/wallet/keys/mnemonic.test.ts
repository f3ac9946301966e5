// BIP-39 mnemonics: the Trezor reference vectors (python-mnemonic vectors.json, English, passphrase
// "TREZOR": entropy → mnemonic → seed, and for the first two the BIP-32 root key), the 24-word
// mnemonic drawn from the seeded Rng (same seed, same words; another seed, other words), and
// validation refusing a bad checksum, an unknown word and a wrong word count.
import { HDKey } from '@scure/bip32';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { describe, expect, test } from 'vitest';
import { Rng } from '../../../../src/core/rng.ts';
import { mnemonicOfEntropy, mnemonicSeed } from '../../../../src/services/wallet/keys/mnemonic.ts';
import { generateMnemonic, isValidMnemonic } from '../../../../src/services/wallet/keys/wallet-keys.ts';

// Source: https://github.com/trezor/python-mnemonic/blob/master/vectors.json (english).
const TREZOR_VECTORS: readonly { entropy: string; mnemonic: string; seed: string; root?: string }[] = [
  {
    entropy: '00000000000000000000000000000000',
    mnemonic: 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
    seed: 'c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e53495531f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04',
    root: 'xprv9s21ZrQH143K3h3fDYiay8mocZ3afhfULfb5GX8kCBdno77K4HiA15Tg23wpbeF1pLfs1c5SPmYHrEpTuuRhxMwvKDwqdKiGJS9XFKzUsAF',
  },
  {
    entropy: '7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f',
    mnemonic: 'legal winner thank year wave sausage worth useful legal winner thank yellow',
    seed: '2e8905819b8723fe2c1d161860e5ee1830318dbf49a83bd451cfb8440c28bd6fa457fe1296106559a3c80937a1c1069be3a3a5bd381ee6260e8d9739fce1f607',
    root: 'xprv9s21ZrQH143K2gA81bYFHqU68xz1cX2APaSq5tt6MFSLeXnCKV1RVUJt9FWNTbrrryem4ZckN8k4Ls1H6nwdvDTvnV7zEXs2HgPezuVccsq',
  },
  {
    entropy: 'ffffffffffffffffffffffffffffffff',
    mnemonic: 'zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo wrong',
    seed: 'ac27495480225222079d7be181583751e86f571027b0497b5b5d11218e0a8a13332572917f0f8e5a589620c6f15b11c61dee327651a14c34e18231052e48c069',
  },
  {
    entropy: '0000000000000000000000000000000000000000000000000000000000000000',
    mnemonic:
      'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon art',
    seed: 'bda85446c68413707090a52022edd26a1c9462295029f2e60cd7c4f2bbd3097170af7a4d73245cafa9c3cca8d561a7c3de6f5d4a10be8ed2a5e608d68f92fcc8',
  },
  {
    entropy: '7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f',
    mnemonic:
      'legal winner thank year wave sausage worth useful legal winner thank year wave sausage worth useful legal winner thank year wave sausage worth title',
    seed: 'bc09fca1804f7e69da93c2f2028eb238c227f2e9dda30cd63699232578480a4021b146ad717fbb7e451ce9eb835f43620bf5c514db0f8add49f5d121449d3e87',
  },
  {
    entropy: '8080808080808080808080808080808080808080808080808080808080808080',
    mnemonic:
      'letter advice cage absurd amount doctor acoustic avoid letter advice cage absurd amount doctor acoustic avoid letter advice cage absurd amount doctor acoustic bless',
    seed: 'c0c519bd0e91a2ed54357d9d1ebef6f5af218a153624cf4f2da911a0ed8f7a09e2ef61af0aca007096df430022f7a2b6fb91661a9589097069720d015e4e982f',
  },
  {
    entropy: 'ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff',
    mnemonic: 'zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo vote',
    seed: 'dd48c104698c30cfe2b6142103248622fb7bb0ff692eebb00089b32d22484e1613912f0a5b694407be899ffd31ed3992c456cdf60f5d4564b8ba3f05a69890ad',
  },
  {
    entropy: '68a79eaca2324873eacc50cb9c6eca8cc68ea5d936f98787c60c7ebc74e6ce7c',
    mnemonic:
      'hamster diagram private dutch cause delay private meat slide toddler razor book happy fancy gospel tennis maple dilemma loan word shrug inflict delay length',
    seed: '64c87cde7e12ecf6704ab95bb1408bef047c22db4cc7491c4271d170a1b213d20b385bc1588d9c7b38f1b39d415665b8a9030c9ec653d75e65f847d8fc1fc440',
  },
  {
    entropy: 'f585c11aec520db57dd353c69554b21a89b20fb0650966fa0a9d6f74fd989d8f',
    mnemonic:
      'void come effort suffer camp survey warrior heavy shoot primary clutch crush open amazing screen patrol group space point ten exist slush involve unfold',
    seed: '01f5bced59dec48e362f2c45b5de68b9fd6c92c6634f44d6d40aab69056506f0e35524a518034ddc1192e1dacd32c1ed3eaa3c3b131c88ed8e7e54c49a5d0998',
  },
];

describe('BIP-39 Trezor vectors', () => {
  test.each(TREZOR_VECTORS)('$entropy → mnemonic → seed (passphrase TREZOR)', (vector) => {
    expect(mnemonicOfEntropy(hexToBytes(vector.entropy))).toBe(vector.mnemonic);
    expect(isValidMnemonic(vector.mnemonic)).toBe(true);
    const seed = mnemonicSeed(vector.mnemonic, 'TREZOR');
    expect(bytesToHex(seed)).toBe(vector.seed);
    if (vector.root !== undefined) expect(HDKey.fromMasterSeed(seed).privateExtendedKey).toBe(vector.root);
  });
});

describe('generateMnemonic', () => {
  test('24 valid words from the seeded Rng: same seed, same mnemonic; another seed, another', () => {
    const first = generateMnemonic(new Rng('wallet-seed'));
    expect(first.split(' ')).toHaveLength(24);
    expect(isValidMnemonic(first)).toBe(true);
    expect(generateMnemonic(new Rng('wallet-seed'))).toBe(first);
    expect(generateMnemonic(new Rng('another-seed'))).not.toBe(first);
    const rng = new Rng('wallet-seed');
    expect(generateMnemonic(rng)).toBe(first);
    expect(generateMnemonic(rng)).not.toBe(first);
  });

  test('the entropy is the stream of 32-bit draws, big-endian', () => {
    const rng = new Rng(7);
    const draws = new Rng(7);
    const entropy = new Uint8Array(32);
    for (let offset = 0; offset < 32; offset += 4) new DataView(entropy.buffer).setUint32(offset, draws.uint32());
    expect(generateMnemonic(rng)).toBe(mnemonicOfEntropy(entropy));
  });
});

describe('isValidMnemonic', () => {
  const abandon11 = Array.from({ length: 11 }, () => 'abandon').join(' ');
  test('refuses a bad checksum, an unknown word, a wrong count and an empty text', () => {
    expect(isValidMnemonic(`${abandon11} abandon`)).toBe(false);
    expect(isValidMnemonic(`${abandon11} abouts`)).toBe(false);
    expect(isValidMnemonic(abandon11)).toBe(false);
    expect(isValidMnemonic('')).toBe(false);
    expect(isValidMnemonic(`${abandon11} ABOUT`)).toBe(false);
  });

  test('extra whitespace between words is normalised', () => {
    expect(isValidMnemonic(`  ${abandon11.replaceAll(' ', '  ')}\tabout\n`)).toBe(true);
  });
});
