/**
 * What the deployed wallet rows (src/http/routes/deployed/wallet*.ts, spec/DEPLOYED.md §6) take and
 * answer, as zod definitions keyed by row id, spread into openapi-deployed.ts's tables. Built from
 * the documents' wallet definitions (openapi-wallet.ts) where the deployment answers the same
 * body; request objects are loose (the deployment ignores fields it does not read); success bodies
 * strict, with `_info`. Held to the rows by test/http/openapi-contract.test.ts and
 * openapi-responses.test.ts.
 */
import * as z from 'zod';
import { WALLET_CHAIN_NAMES } from '../services/wallet/wallet-assets.ts';
import { DEFAULT_WALLET_CONFIG } from '../services/wallet/wallet-config.ts';
import { limitQuery, optional, nonBlankString, withInfo, type RequestContract } from './openapi-fields.ts';
import { WALLET_REQUESTS, WALLET_RESPONSES } from './openapi-wallet.ts';
import {
  swapOrderHead,
  walletAddress as address,
  walletAmountAny,
  walletAmountText,
  walletChain as chain,
  walletKey as key,
  walletUnits as units,
} from './openapi-wallet-fields.ts';
import { DEPLOYED_HISTORY_MAX } from './routes/deployed/wallet.ts';
import { ADDRESS_TEXT_MAX } from './routes/wallet/wallet-parse.ts';

const token = (what: string): z.ZodString =>
  nonBlankString(ADDRESS_TEXT_MAX).describe(
    `${what}: a symbol of the chain (ETH, USDC, …) or a token contract address`,
  );
const AMOUNT_TEXT_WHAT = 'A positive decimal amount in whole units of the asset, at most its decimals';
const amountText = (): z.ZodString => walletAmountText(AMOUNT_TEXT_WHAT);
const amountAny = (): z.ZodType =>
  walletAmountAny('A positive amount in whole units (a number or a decimal string)', AMOUNT_TEXT_WHAT);
const swapFields = {
  from_chain: chain(),
  to_chain: chain(),
  from_token: token('The input asset'),
  to_token: token('The output asset'),
};
const { historyLimitDefault } = DEFAULT_WALLET_CONFIG;

/** The documents' request of `rowId` with its strict objects made loose (the deployment ignores unknown fields). */
function loosened(rowId: string): RequestContract {
  const contract = WALLET_REQUESTS[rowId] ?? {};
  const body = contract.body instanceof z.ZodObject ? z.looseObject(contract.body.shape) : contract.body;
  return { ...contract, ...(body === undefined ? {} : { body }) };
}

export const WALLET_DEPLOYED_REQUESTS: Readonly<Record<string, RequestContract>> = {
  'wallet.deployed.register': {
    body: z.looseObject({
      referral_code: z
        .string()
        .nullable()
        .optional()
        .describe('A known referral code links the referrer; any other text is ignored'),
    }),
    bodyOptional: true,
  },
  'wallet.deployed.create': { body: z.looseObject({}), bodyOptional: true },
  'wallet.deployed.balance': {
    params: z.strictObject({ address: address('The address') }),
    query: z.strictObject({
      chain: chain().optional().describe('Default base'),
      view_key: z
        .string()
        .regex(/^[0-9a-fA-F]{64}$/)
        .optional()
        .describe('The private view key in hex; required on monero (400 view_key_required)'),
    }),
  },
  'wallet.deployed.send': {
    body: z.looseObject({
      chain: z
        .enum(WALLET_CHAIN_NAMES.filter((name) => name !== 'bitcoin') as [string, ...string[]])
        .describe('A wallet chain; bitcoin is 501 not_implemented'),
      to: address('The recipient'),
      amount: amountAny(),
      private_key: optional(key("The sender's private key (EVM, solana, tron): signs the transfer; never stored")),
      token: optional(
        nonBlankString(ADDRESS_TEXT_MAX).describe('An ERC-20 or TRC-20 contract; absent: the native coin'),
      ),
      from: optional(address('monero: the primary address (required: this service keeps no keys)')),
      view_key: optional(key('monero: the private view key')),
      spend_key: optional(key('monero: the private spend key')),
    }),
  },
  'wallet.deployed.swap-quote': { query: z.strictObject({ ...swapFields, amount: amountText() }) },
  'wallet.deployed.swap': {
    body: z.looseObject({
      ...swapFields,
      amount: amountAny(),
      to_address: address('Where the output is paid, on to_chain'),
    }),
  },
  'wallet.deployed.transactions': {
    params: z.strictObject({ address: address('The address') }),
    query: z.strictObject({
      chain: z.enum(['bitcoin', 'solana', 'base', 'ethereum']).optional().describe('Default base'),
      limit: limitQuery(historyLimitDefault, DEPLOYED_HISTORY_MAX).optional(),
    }),
  },
  'wallet.deployed.deposit-address': loosened('wallet.primary.deposit-address'),
  'wallet.deployed.swap-status': loosened('wallet.primary.swap-status'),
  'wallet.deployed.referral-withdraw': loosened('wallet.primary.referral-withdraw'),
};

const documents = (rowId: string): z.ZodType => {
  const schema = WALLET_RESPONSES[rowId];
  if (schema === undefined) throw new Error(`openapi-wallet.ts defines ${rowId}`);
  return schema;
};

export const WALLET_DEPLOYED_RESPONSES: Readonly<Record<string, z.ZodType>> = {
  'wallet.deployed.register': withInfo({
    agent_id: z.string(),
    api_key: z.string().regex(/^pk_live_[0-9a-f]{48}$/),
    referral_code: z.string(),
    message: z.string(),
    next_steps: z.array(z.string()),
  }),
  'wallet.deployed.create': documents('wallet.primary.create'),
  'wallet.deployed.balance': withInfo({
    address: z.string(),
    chain: chain(),
    balance: z.strictObject({
      native: z.strictObject({
        symbol: z.string(),
        contract: z.null(),
        amount: units(),
        base_units: z.string().regex(/^\d+$/),
        decimals: z.int(),
      }),
    }),
    explorer: z.string(),
  }),
  'wallet.deployed.send': withInfo({
    tx_hash: z.string(),
    chain: chain(),
    from: z.string().nullable(),
    to: z.string(),
    amount: units(),
    explorer: z.string(),
  }),
  'wallet.deployed.swap-quote': documents('wallet.primary.swap-quote'),
  'wallet.deployed.swap': withInfo({
    ...swapOrderHead,
    expires_at: z.string(),
    check_status: z.string(),
  }),
  'wallet.deployed.swap-status': documents('wallet.primary.swap-status'),
  'wallet.deployed.transactions': documents('wallet.primary.transactions'),
  'wallet.deployed.deposit-address': documents('wallet.primary.deposit-address'),
  'wallet.deployed.chains': documents('wallet.primary.chains'),
  'wallet.deployed.gossip': documents('wallet.primary.gossip'),
  'wallet.deployed.referral-code': documents('wallet.primary.referral-code'),
  'wallet.deployed.referral-stats': documents('wallet.primary.referral-stats'),
  'wallet.deployed.referral-withdraw': documents('wallet.primary.referral-withdraw'),
};

export const WALLET_DEPLOYED_ERRORS: Readonly<Record<string, Readonly<Record<number, readonly string[]>>>> = {
  'wallet.deployed.register': { 400: ['invalid_request'] },
  'wallet.deployed.balance': { 400: ['invalid_request', 'view_key_required'], 403: ['forbidden'] },
  'wallet.deployed.send': {
    400: ['invalid_request', 'monero_keys_required', 'insufficient_balance'],
    403: ['forbidden'],
    409: ['invalid_status'],
    501: ['not_implemented'],
  },
  'wallet.deployed.swap-quote': { 400: ['invalid_request'] },
  'wallet.deployed.swap': { 400: ['invalid_request'], 409: ['invalid_status'] },
  'wallet.deployed.transactions': { 400: ['invalid_request'] },
  'wallet.deployed.deposit-address': { 400: ['invalid_request'] },
  'wallet.deployed.swap-status': { 404: ['not_found'] },
  'wallet.deployed.referral-code': { 404: ['not_found'] },
  'wallet.deployed.referral-stats': { 404: ['not_found'] },
  'wallet.deployed.referral-withdraw': { 400: ['invalid_request', 'insufficient_balance'], 404: ['not_found'] },
};
