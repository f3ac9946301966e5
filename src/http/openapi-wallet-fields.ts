/**
 * The wallet's OpenAPI field schemas, read by both the documents' definitions (openapi-wallet.ts)
 * and the deployed dialect's (openapi-deployed-wallet.ts): one chain enum, one address text, one
 * amount syntax, one unit text. Descriptions that differ between the two documents are arguments,
 * so each document keeps its own words over the same bounds.
 */
import * as z from 'zod';
import { WALLET_CHAIN_NAMES } from '../services/wallet/wallet-assets.ts';
import { DEFAULT_WALLET_CONFIG } from '../services/wallet/wallet-config.ts';
import { nonBlankString } from './openapi-fields.ts';
import { ADDRESS_TEXT_MAX, KEY_TEXT_MAX } from './routes/wallet/wallet-parse.ts';

/** The wallet's decimal amount text: positive, no leading zeros (the rows' parseAmount reads it). */
const AMOUNT_TEXT = '^(?!0+(\\.0+)?$)(0|[1-9][0-9]*)(\\.[0-9]+)?$';

export const walletChains = (values: readonly string[]): z.ZodEnum => z.enum(values as [string, ...string[]]);
export const walletChain = (): z.ZodEnum => walletChains(WALLET_CHAIN_NAMES);
export const walletAddress = (what: string): z.ZodString =>
  nonBlankString(ADDRESS_TEXT_MAX).describe(`${what}: a valid address of the chain (checksums checked; 400 otherwise)`);
export const walletKey = (what: string): z.ZodString => nonBlankString(KEY_TEXT_MAX).describe(what);

/** A decimal amount text, described as `what`. */
export const walletAmountText = (what: string): z.ZodString =>
  z.string().max(DEFAULT_WALLET_CONFIG.amountTextMax).regex(new RegExp(AMOUNT_TEXT)).describe(what);

/** A JSON number or a decimal amount text (described as `textWhat`), the whole described as `what`. */
export const walletAmountAny = (what: string, textWhat: string): z.ZodType =>
  z.union([z.number().positive().max(1e12), walletAmountText(textWhat)]).describe(what);

export const walletUnits = (): z.ZodString =>
  z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .describe('Whole units as a decimal string');

/** One side of a swap order (deposit or output). */
const swapSide = z.strictObject({
  chain: walletChain(),
  address: z.string(),
  token: z.string(),
  amount: walletUnits(),
});

/** The fields a swap order opens with, in the documents' order (the deployed swap answers them too). */
export const swapOrderHead = {
  swap_id: z.string(),
  order_id: z.string(),
  status: z.enum(['waiting', 'confirming', 'exchanging', 'sending', 'finished', 'failed', 'refunded', 'expired']),
  deposit: swapSide,
  output: swapSide.extend({ min_received: walletUnits() }),
  fee: z.strictObject({ integrator_fee_pct: z.number(), amount: walletUnits(), symbol: z.string() }),
};
