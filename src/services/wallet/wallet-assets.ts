/**
 * Assets and amounts of the simulated chains: an asset is a chain's native coin or one of its
 * tokens, named by address (wallet-config.ts); an amount is a decimal text in whole units, held as
 * a bigint of base units (wei, lamports, sats, sun, piconero, a token's smallest unit), never a
 * float. Failures are returned (400), never thrown: these read request fields.
 */
import { fail, type Failure } from '../../core/errors.ts';
import {
  CHAIN_ROWS,
  chainRow,
  DEFAULT_WALLET_CONFIG,
  isEvmChain,
  TOKEN_ROWS,
  type SimChain,
  type TokenRow,
} from './wallet-config.ts';
import { WALLET_CHAINS, type WalletChain } from './keys/wallet-keys.ts';

export interface Asset {
  readonly chain: SimChain;
  /** The native coin's asset address (wallet-config.ts), or the token's contract. */
  readonly address: string;
  readonly symbol: string;
  readonly decimals: number;
  /** null: the native coin. */
  readonly token: TokenRow | null;
}

/** The /v1 interface's chains (wallet.md "Chain values"); polygon and arbitrum are style B's only. */
export const WALLET_CHAIN_NAMES: readonly WalletChain[] = WALLET_CHAINS;
/** wallet.md "Chain values": transaction history. */
export const HISTORY_CHAINS: readonly WalletChain[] = ['bitcoin', 'solana', 'base', 'ethereum'];
/** Symbols of every asset, lowercased: a symbol sent where an address is needed is named as such. */
const SYMBOLS = new Set([
  ...CHAIN_ROWS.map((row) => row.symbol.toLowerCase()),
  ...TOKEN_ROWS.map((row) => row.symbol.toLowerCase()),
  'eth',
  'weth',
  'wbtc',
  'sol',
  'dai',
  'matic',
  'pol',
]);

/** The chain named by `value` among `allowed`; 400 naming the allowed values otherwise. */
export function parseChain<C extends SimChain = WalletChain>(
  value: unknown,
  name: string,
  allowed: readonly C[] = WALLET_CHAIN_NAMES as readonly C[],
): C | Failure {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value))
    return fail('BAD_REQUEST', `${name} must be one of ${allowed.join(', ')}`, { field: name });
  return value as C;
}

export function nativeAsset(chain: SimChain): Asset {
  const row = chainRow(chain);
  return { chain, address: row.nativeAsset, symbol: row.symbol, decimals: row.decimals, token: null };
}

export function tokenAsset(token: TokenRow): Asset {
  return { chain: token.chain, address: token.contract, symbol: token.symbol, decimals: token.decimals, token };
}

/** Every asset of a chain, native first. */
export function assetsOf(chain: SimChain): Asset[] {
  return [nativeAsset(chain), ...TOKEN_ROWS.filter((token) => token.chain === chain).map(tokenAsset)];
}

/**
 * The asset at `address` on `chain`: its native asset address or a token contract or SPL mint (EVM
 * addresses compare without case; tron and solana exactly). A symbol → 400 saying an address is needed; an
 * unknown address → 400 naming the chain.
 */
export function assetByAddress(chain: SimChain, address: string, name: string): Asset | Failure {
  const evm = isEvmChain(chain);
  const same = (one: string): boolean => (evm ? one.toLowerCase() === address.toLowerCase() : one === address);
  if (same(chainRow(chain).nativeAsset)) return nativeAsset(chain);
  const token = TOKEN_ROWS.find((row) => row.chain === chain && same(row.contract));
  if (token !== undefined) return tokenAsset(token);
  if (SYMBOLS.has(address.toLowerCase()))
    return fail('BAD_REQUEST', `${name} must be a token contract address, not a symbol (${address})`, { field: name });
  return fail(
    'BAD_REQUEST',
    `${name} is not a known token contract on ${chain}: ${assetsOf(chain)
      .map((asset) => `${asset.address} (${asset.symbol})`)
      .join(', ')}`,
    { field: name },
  );
}

const AMOUNT_PATTERN = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/**
 * A positive decimal text (or a JSON number, read through its shortest text) in whole units → base
 * units. 400 for a non-number, zero, a negative, more decimals than the asset has, or above the
 * bound.
 */
export function parseAmount(value: unknown, decimals: number, name: string): bigint | Failure {
  const text = typeof value === 'number' && Number.isFinite(value) ? numberText(value) : value;
  if (typeof text !== 'string' || text.length > DEFAULT_WALLET_CONFIG.amountTextMax || !AMOUNT_PATTERN.test(text)) {
    return fail('BAD_REQUEST', `${name} must be a positive decimal amount (e.g. "0.5")`, { field: name });
  }
  const [whole = '0', fraction = ''] = text.split('.');
  const digits = fraction.replace(/0+$/, '');
  if (digits.length > decimals)
    return fail('BAD_REQUEST', `${name} has more than ${decimals} decimals`, { field: name });
  const units = BigInt(whole) * 10n ** BigInt(decimals) + (digits === '' ? 0n : BigInt(digits.padEnd(decimals, '0')));
  if (units <= 0n) return fail('BAD_REQUEST', `${name} must be above 0`, { field: name });
  if (units > DEFAULT_WALLET_CONFIG.amountWholeMax * 10n ** BigInt(decimals))
    return fail('BAD_REQUEST', `${name} is above ${DEFAULT_WALLET_CONFIG.amountWholeMax} whole units`, { field: name });
  return units;
}

/** A JSON number's text without exponent (1e-7 → "0.0000001"); integral part exact up to 2^53. */
function numberText(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  return value.toFixed(20).replace(/\.?0+$/, '');
}

/** Base units → a decimal text in whole units, trailing zeros trimmed ("1.5", "0.00042", "3"). */
export function formatUnits(units: bigint, decimals: number): string {
  const negative = units < 0n;
  const magnitude = negative ? -units : units;
  const scale = 10n ** BigInt(decimals);
  const whole = magnitude / scale;
  const fraction = (magnitude % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}
