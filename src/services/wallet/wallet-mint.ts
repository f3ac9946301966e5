/**
 * The wallet's funding door: new coins (or tokens, by contract address) at an address of a
 * simulated chain, at once, as a confirmed transaction without sender. afp serve answers it at
 * POST /_afp/wallet/mint (src/server/admin.ts) and logs it as a 'wallet-mint' command; tests call
 * `mintOnChain`. It is the only way money enters a chain besides the aggregator's genesis
 * liquidity, so the conservation invariant (balances + in flight = minted) counts every unit.
 * Fields arrive as text and are parsed here, the same way live and on replay.
 */
import { fail, isFailure, succeed, type Failure, type JsonObject, type Outcome } from '../../core/errors.ts';
import type { WalletTx } from './chain-book.ts';
import { isValidAddress } from './keys/wallet-keys.ts';
import { assetByAddress, nativeAsset, parseAmount, parseChain, type Asset } from './wallet-assets.ts';
import { formatUnits } from './wallet-assets.ts';
import type { WalletService } from './wallet.ts';

export interface MintRequest {
  readonly chain: string;
  readonly address: string;
  readonly amount: string;
  readonly token: string | null;
}

function parseMint(mint: MintRequest): { asset: Asset; amount: bigint } | Failure {
  const chain = parseChain(mint.chain, 'chain');
  if (isFailure(chain)) return chain;
  const asset = mint.token === null ? nativeAsset(chain) : assetByAddress(chain, mint.token, 'token');
  if (isFailure(asset)) return asset;
  if (!isValidAddress(chain, mint.address))
    return fail('BAD_REQUEST', `address is not a valid ${chain} address`, { field: 'address' });
  const amount = parseAmount(mint.amount, asset.decimals, 'amount');
  return isFailure(amount) ? amount : { asset, amount };
}

/** The refusal a mint would get, or null (checked before the command is logged). */
export function mintRefusal(_wallet: WalletService, mint: MintRequest): Failure | null {
  const parsed = parseMint(mint);
  return isFailure(parsed) ? parsed : null;
}

export function mintOnChain(wallet: WalletService, mint: MintRequest, atMs: number): Outcome<WalletTx> {
  const parsed = parseMint(mint);
  if (isFailure(parsed)) return parsed;
  const tx = wallet.mint(parsed.asset, mint.address, parsed.amount, atMs);
  return tx.ok ? succeed(tx.value) : tx;
}

export function mintBody(tx: WalletTx): JsonObject {
  return {
    tx_hash: tx.hash,
    chain: tx.chain,
    to: tx.to,
    symbol: tx.symbol,
    token: tx.kind === 'mint' && tx.asset.length > 0 ? tx.asset : null,
    amount: formatUnits(tx.amount, tx.decimals),
    status: tx.status,
  };
}
