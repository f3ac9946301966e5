/**
 * The deployed wallet's rows that move funds (spec/DEPLOYED.md §6), over the documents rows:
 *   POST /v1/wallet/send { chain, to, amount, private_key, token? } (monero: from, view_key,
 *        spend_key) → { tx_hash, chain, from, to, amount, explorer }; bitcoin 501 `not_implemented`;
 *   GET  /v1/wallet/swap/quote?from_chain&to_chain&from_token&to_token&amount
 *        → { quote: { fromAmount, toAmount, minReceived, estimatedTime, … }, integrator_fee, next_step };
 *   POST /v1/wallet/swap { …quote fields, to_address } → { swap_id, order_id, status, deposit, output, fee, expires_at, check_status };
 *   GET  /v1/wallet/swap/status/:orderId.
 * The deployment takes symbols or addresses in from_token / to_token: a symbol of the chain's
 * native coin or of one of its tokens (any case) is read as that asset's address before the
 * documents row parses (which takes addresses only). The deployment uses the monero keys it stored
 * when a monero send omits them; the stand-in stores none (non-custodial), so such a send is 400
 * `monero_keys_required` (docs/decisions/deployed-dialect.md "Deployed dialect: wallet"). Per IP per 60 s: send 20,
 * swap 30 (deployed-limits.ts).
 */
import { isFailure, type JsonObject } from '../../../core/errors.ts';
import type { WalletTx } from '../../../services/wallet/chain-book.ts';
import { assetsOf, formatUnits } from '../../../services/wallet/wallet-assets.ts';
import { chainRow } from '../../../services/wallet/wallet-config.ts';
import { deployedFailure } from '../../deployed/deployed-errors.ts';
import type { Route, RouteInput } from '../../route.ts';
import { bodyFields, walletRow } from './wallet-row.ts';
import { isWalletChain } from '../../../services/wallet/keys/wallet-chain.ts';

const SWAP_QUERY = ['from_chain', 'to_chain', 'from_token', 'to_token', 'amount'];
const SEND_KEYS = ['chain', 'to', 'amount', 'private_key', 'token', 'from', 'view_key', 'spend_key'];
const MONERO_KEYS = ['from', 'view_key', 'spend_key'];

/** `token` on `chain` as an asset address: a symbol of one of the chain's assets (any case) becomes its address; anything else is left as sent. */
export function assetAddressOf(chain: unknown, token: unknown): unknown {
  if (!isWalletChain(chain) || typeof token !== 'string') return token;
  const asset = assetsOf(chain).find((candidate) => candidate.symbol.toLowerCase() === token.trim().toLowerCase());
  return asset === undefined ? token : asset.address;
}

/** The swap fields with symbols read as asset addresses. */
function withAddresses(fields: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...fields };
  if (Object.hasOwn(fields, 'from_token'))
    out['from_token'] = assetAddressOf(fields['from_chain'], fields['from_token']);
  if (Object.hasOwn(fields, 'to_token')) out['to_token'] = assetAddressOf(fields['to_chain'], fields['to_token']);
  return out;
}

function sendInput(input: RouteInput): RouteInput | ReturnType<typeof deployedFailure> {
  const fields = bodyFields(input.body);
  if (isFailure(fields)) return fields;
  if (fields['chain'] === 'bitcoin')
    return deployedFailure(501, 'not_implemented', 'Bitcoin sends are not implemented yet', { chain: 'bitcoin' });
  if (fields['chain'] === 'monero' && MONERO_KEYS.some((name) => fields[name] === undefined || fields[name] === null)) {
    return deployedFailure(
      400,
      'monero_keys_required',
      'A monero send needs from, view_key and spend_key: this service keeps no keys',
      { field: MONERO_KEYS.find((name) => fields[name] === undefined || fields[name] === null) ?? 'from' },
    );
  }
  return input;
}

const send = walletRow({
  operation: 'send',
  bodyKeys: SEND_KEYS,
  summary:
    'Sign with the key supplied and broadcast ({ chain, to, amount, private_key, token? }; monero from, view_key, spend_key); bitcoin 501.',
  input: sendInput,
  render: (value) => {
    const tx = value as WalletTx;
    return {
      tx_hash: tx.hash,
      chain: tx.chain,
      from: tx.from,
      to: tx.to,
      amount: formatUnits(tx.amount, tx.decimals),
      explorer: `${chainRow(tx.chain).explorerTx}${tx.hash}`,
    };
  },
});

const quote = walletRow({
  operation: 'swap-quote',
  queryKeys: SWAP_QUERY,
  summary: 'Quote a swap (symbols or token addresses) with the integrator fee (0.5%).',
  input: (input) => ({ ...input, query: withAddresses(input.query) as Record<string, string> }),
});

const swap = walletRow({
  operation: 'swap',
  bodyKeys: [...SWAP_QUERY, 'to_address'],
  summary: 'Open a swap order to to_address (symbols or token addresses); 30 per minute per IP.',
  input: (input) => {
    const fields = bodyFields(input.body);
    return isFailure(fields) ? fields : { ...input, body: withAddresses(fields) };
  },
  render: (_value, _context, documentsBody) => orderSummary(documentsBody()),
});

/** The order fields §6 names, from the documents' order body. */
function orderSummary(body: JsonObject): JsonObject {
  const { swap_id, order_id, status, deposit, output, fee, expires_at, check_status } = body;
  return {
    swap_id: swap_id ?? null,
    order_id: order_id ?? null,
    status: status ?? null,
    deposit: deposit ?? null,
    output: output ?? null,
    fee: fee ?? null,
    expires_at: expires_at ?? null,
    check_status: check_status ?? null,
  };
}

const swapStatus = walletRow({
  operation: 'swap-status',
  summary: "A swap order's status as the aggregator reports it.",
});

export const deployedWalletMoveRoutes: readonly Route[] = [send, quote, swap, swapStatus];
