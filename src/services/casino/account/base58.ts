/**
 * Base58 (the Bitcoin alphabet, which Solana uses for addresses and signatures): bytes to text.
 * Only encoding is needed: afp derives Solana-looking deposit addresses and transaction
 * signatures, and never reads one back. Leading zero bytes become leading '1's, as in Bitcoin.
 */

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Base58 text of the bytes given as hex (even length, at most 128 bytes: addresses, signatures). */
export function base58FromHex(hex: string): string {
  if (hex.length === 0) return '';
  let value = BigInt(`0x${hex}`);
  let text = '';
  while (value > 0n) {
    text = (ALPHABET[Number(value % 58n)] as string) + text;
    value /= 58n;
  }
  for (let index = 0; index + 1 < hex.length && hex.slice(index, index + 2) === '00'; index += 2) text = `1${text}`;
  return text;
}

/** Whether `text` consists of base58 characters only and has a length in [lengthMin, lengthMax]. */
export function isBase58(text: string, lengthMin: number, lengthMax: number): boolean {
  if (text.length < lengthMin || text.length > lengthMax) return false;
  for (const character of text) if (!ALPHABET.includes(character)) return false;
  return true;
}
