/**
 * The wallet rows' OpenAPI definitions (requests, success bodies, domain error codes), kept in one
 * file of the service so the shared tables in openapi-requests.ts, openapi-responses.ts and
 * openapi.ts each gain one spread line. Bounds come from the constants the rows read
 * (src/http/routes/wallet/, src/services/wallet/wallet-config.ts). Addresses are checked per chain
 * by the service (400), which a per-field schema cannot say; their descriptions do.
 */
import * as z from 'zod';
import type { ErrorCode } from '../core/errors.ts';
import { HISTORY_CHAINS, WALLET_CHAIN_NAMES } from '../services/wallet/wallet-assets.ts';
import { DEFAULT_WALLET_CONFIG, SIM_CHAIN_NAMES } from '../services/wallet/wallet-config.ts';
import { instant, limitQuery, optional, nonBlankString, withInfo, type RequestContract } from './openapi-fields.ts';
import {
  swapOrderHead,
  walletAddress as address,
  walletAmountAny,
  walletAmountText,
  walletChain as chain,
  walletChains as chains,
  walletKey as key,
  walletUnits as units,
} from './openapi-wallet-fields.ts';
import { ADDRESS_TEXT_MAX, MEMO_TEXT_MAX } from './routes/wallet/wallet-parse.ts';

/** A transaction's chain: style B's polygon and arbitrum too. */
const simChain = (): z.ZodEnum => chains(SIM_CHAIN_NAMES);
const token = (what: string): z.ZodString =>
  nonBlankString(ADDRESS_TEXT_MAX).describe(
    `${what}: a token contract address of the chain, or its native asset address (GET /v1/wallet/chains); a symbol is 400`,
  );
const AMOUNT_TEXT_WHAT = 'A positive decimal amount in whole units of the asset, at most its decimals (e.g. "0.25")';
const amountText = (): z.ZodString => walletAmountText(AMOUNT_TEXT_WHAT);
const amountAny = (): z.ZodType =>
  walletAmountAny(
    "A positive amount in whole units (a number or a decimal string), at most the asset's decimals",
    AMOUNT_TEXT_WHAT,
  );
const { historyLimitDefault, historyLimitMax } = DEFAULT_WALLET_CONFIG;

const swapFields = {
  from_chain: chain(),
  to_chain: chain(),
  from_token: token('The input asset'),
  to_token: token('The output asset'),
};

const SEND_REQUEST: RequestContract = {
  body: z.strictObject({
    chain: chain(),
    to: address('The recipient'),
    amount: amountAny(),
    private_key: optional(
      key("The sender's private key (EVM, solana, bitcoin, tron): signs the transfer; never stored"),
    ),
    token: optional(token('An ERC-20 or TRC-20 contract; absent: the native coin')),
    from: optional(address("The sender (monero: required, the primary address); must be the key's address (403)")),
    view_key: optional(key('monero: the private view key')),
    spend_key: optional(key('monero: the private spend key')),
    memo: optional(nonBlankString(MEMO_TEXT_MAX)),
  }),
};

export const WALLET_REQUESTS: Readonly<Record<string, RequestContract>> = {
  'wallet.primary.register': {
    body: z.strictObject({ referral_code: optional(nonBlankString(128).describe("A referrer's code or id")) }),
    bodyOptional: true,
  },
  'wallet.primary.create': {},
  'wallet.primary.balance': {
    params: z.strictObject({ address: address('The address') }),
    query: z.strictObject({
      chain: chain(),
      view_key: z
        .string()
        .regex(/^[0-9a-fA-F]{64}$/)
        .optional()
        .describe('The private view key in hex; required on monero'),
    }),
  },
  'wallet.primary.send': SEND_REQUEST,
  'wallet.A.send': SEND_REQUEST,
  'wallet.primary.swap-quote': { query: z.strictObject({ ...swapFields, amount: amountText() }) },
  'wallet.primary.swap': {
    body: z.strictObject({
      ...swapFields,
      amount: amountAny(),
      to_address: address('Where the output is paid, on to_chain'),
    }),
  },
  'wallet.primary.deposit-address': { query: z.strictObject({ chain: chain().optional().describe('Default base') }) },
  'wallet.primary.transactions': {
    params: z.strictObject({ address: address('The address') }),
    query: z.strictObject({
      chain: chains(HISTORY_CHAINS),
      limit: limitQuery(historyLimitDefault, historyLimitMax).optional(),
    }),
  },
  'wallet.primary.swap-status': { params: z.strictObject({ orderId: nonBlankString(64) }) },
  'wallet.primary.chains': {},
  'wallet.primary.gossip': {},
  'wallet.primary.referral-code': {},
  'wallet.primary.referral-stats': {},
  'wallet.primary.referral-withdraw': {
    body: z.strictObject({
      address: address('Where the withdrawal goes'),
      chain: optional(chain().describe('Default base')),
    }),
  },
  'wallet.A.balance': {},
  'wallet.A.addresses': {},
  'wallet.A.swap': {
    body: z.strictObject({
      from: nonBlankString(ADDRESS_TEXT_MAX + 16).describe('<chain>:<token contract address> of the input'),
      to: nonBlankString(ADDRESS_TEXT_MAX + 16).describe(
        '<chain>:<token contract address> of the output (paid to your own address there)',
      ),
      amount: z.number().positive().max(1e12).describe('Whole units of the input'),
      slippage: optional(z.number().min(1).max(50).describe("Percent, 1 (the quote's allowance) to 50")),
    }),
  },
  'wallet.A.transactions': {
    query: z.strictObject({ limit: limitQuery(historyLimitDefault, historyLimitMax).optional() }),
  },
  'wallet.B.balance': {
    query: z.strictObject({
      chain: chains(['ethereum', 'polygon', 'arbitrum', 'base', 'all']).optional().describe('Default all'),
    }),
  },
  'wallet.B.send': {
    body: z.strictObject({
      to: nonBlankString(ADDRESS_TEXT_MAX).describe('An EVM address or an agent id (its latest wallet)'),
      amount: z.number().positive().max(1e12).describe('USDC, at most 6 decimals'),
      chain: optional(chains(['ethereum', 'polygon', 'arbitrum', 'base']).describe('Default ethereum')),
      memo: optional(nonBlankString(MEMO_TEXT_MAX)),
      private_key: key("The sender's EVM private key (afp: the wallet is non-custodial)"),
    }),
  },
  'wallet.B.address': {},
  'wallet.B.transactions': {
    query: z.strictObject({
      limit: limitQuery(20, historyLimitMax).optional(),
      type: z.enum(['send', 'receive', 'all']).optional(),
      chain: chains(['ethereum', 'polygon', 'arbitrum', 'base', 'all']).optional(),
    }),
  },
  'wallet.B.tx': { params: z.strictObject({ hash: nonBlankString(130) }) },
};

const nullable = <T extends z.ZodType>(schema: T): z.ZodNullable<T> => schema.nullable();
const amountOut = z.strictObject({
  symbol: z.string(),
  contract: nullable(z.string()),
  amount: units(),
  base_units: z.string().regex(/^\d+$/),
  decimals: z.int(),
});
const txOut = z.strictObject({
  tx_hash: z.string(),
  chain: simChain(),
  type: z.enum(['send', 'mint', 'swap-payout', 'swap-refund']),
  status: z.enum(['pending', 'confirmed', 'failed']),
  from: nullable(z.string()),
  to: z.string(),
  symbol: z.string(),
  token: nullable(z.string()),
  amount: units(),
  fee: units(),
  fee_symbol: z.string(),
  memo: nullable(z.string()),
  sent_at: instant(),
  block_at: instant(),
  block_height: z.int(),
  failure: nullable(z.string()),
  explorer: z.string(),
});
const txBody = (): z.ZodObject => withInfo(txOut.shape);
const orderShape = {
  ...swapOrderHead,
  created_at: instant(),
  updated_at: instant(),
  expires_at: instant(),
  deposit_tx: nullable(z.string()),
  payout_tx: nullable(z.string()),
  refund_tx: nullable(z.string()),
  reason: nullable(z.string()),
  check_status: z.string(),
};
const byChain = <T extends z.ZodType>(schema: T): z.ZodObject =>
  z.strictObject(Object.fromEntries(WALLET_CHAIN_NAMES.map((one) => [one, schema])));
const referralStatsShape = {
  referral_code: z.string(),
  total_earned: z.number(),
  withdrawn: z.number(),
  available: z.number(),
  levels: z.array(z.strictObject({ level: z.int(), referred_agents: z.int().min(0), earned: z.number() })),
};
const historyBody = (): z.ZodObject => withInfo({ transactions: z.array(txOut), count: z.int().min(0) });

export const WALLET_RESPONSES: Readonly<Record<string, z.ZodType>> = {
  'wallet.primary.register': withInfo({
    agent_id: z.string(),
    api_key: z.string(),
    referral_code: z.string(),
    created_at: instant(),
    message: z.string(),
  }),
  'wallet.primary.create': withInfo({
    mnemonic: z.string().describe('24 words, shown once, never stored'),
    addresses: byChain(z.string()),
    monero_keys: z.strictObject({
      spend_key: z.string(),
      view_key: z.string(),
      public_spend_key: z.string(),
      public_view_key: z.string(),
    }),
    derivation_paths: byChain(z.string()),
    warning: z.string(),
  }),
  'wallet.primary.balance': withInfo({
    address: z.string(),
    chain: chain(),
    balance: z.strictObject({ native: amountOut, tokens: z.array(amountOut) }),
  }),
  'wallet.primary.send': txBody(),
  'wallet.primary.swap-quote': withInfo({
    quote: z.strictObject({
      fromChain: chain(),
      toChain: chain(),
      fromToken: z.string(),
      toToken: z.string(),
      fromAmount: units(),
      toAmount: units(),
      minReceived: units(),
      estimatedTime: z.int().describe('Seconds'),
      fee: z.strictObject({ integrator_fee_pct: z.number(), amount: units(), symbol: z.string(), usd: z.number() }),
      prices_usd: z.record(z.string(), z.number()),
    }),
    integrator_fee: z.string(),
    next_step: z.string(),
  }),
  'wallet.primary.swap': withInfo(orderShape),
  'wallet.primary.deposit-address': withInfo({
    chain: chain(),
    derivation_path: z.string(),
    method: z.string(),
    instructions: z.string(),
  }),
  'wallet.primary.transactions': withInfo({
    address: z.string(),
    chain: chain(),
    transactions: z.array(txOut),
    count: z.int().min(0),
  }),
  'wallet.primary.swap-status': withInfo(orderShape),
  'wallet.primary.chains': withInfo({
    wallet_chains: z.array(
      z.strictObject({
        chain: chain(),
        symbol: z.string(),
        decimals: z.int(),
        block_time_ms: z.int(),
        native_token: z.string(),
        tokens: z.array(z.strictObject({ symbol: z.string(), contract: z.string(), decimals: z.int() })),
      }),
    ),
    swap_chains: z.array(chain()),
    transaction_history_chains: z.array(chain()),
  }),
  'wallet.primary.gossip': withInfo({
    product: z.string(),
    earn_passive_income: z.strictObject({ how: z.string(), commission: z.string() }),
    register_endpoint: z.string(),
    referral_code_endpoint: z.string(),
    multi_level_referral: z.boolean(),
    current_registered_agents: z.int().min(0),
  }),
  'wallet.primary.referral-code': withInfo({
    referral_code: z.string(),
    levels: z.array(z.strictObject({ level: z.int(), commission_pct: z.number(), of: z.string() })),
  }),
  'wallet.primary.referral-stats': withInfo(referralStatsShape),
  'wallet.primary.referral-withdraw': withInfo({
    status: z.literal('initiated'),
    amount: z.number(),
    address: z.string(),
    chain: chain(),
    stats: z.strictObject(referralStatsShape),
  }),
  'wallet.A.balance': withInfo({
    chains: byChain(
      z.strictObject({
        address: z.string(),
        assets: z.record(z.string(), z.strictObject({ amount: units(), usdc_equivalent: z.number() })),
        usdc_equivalent: z.number(),
      }),
    ),
    total_usdc_equivalent: z.number(),
  }),
  'wallet.A.addresses': withInfo({ addresses: byChain(z.string()) }),
  'wallet.A.send': txBody(),
  'wallet.A.swap': withInfo({ ...orderShape, received_usdc: z.number() }),
  'wallet.A.transactions': historyBody(),
  'wallet.B.balance': withInfo({
    usdc: units(),
    chains: z.record(
      z.string(),
      z.strictObject({
        usdc: units(),
        eth: units().describe('ETH on the chain: native, or bridged WETH on polygon'),
        native: units(),
        native_symbol: z.string(),
      }),
    ),
  }),
  'wallet.B.send': withInfo({
    tx_hash: z.string(),
    status: z.enum(['pending', 'confirmed', 'failed']),
    amount: z.number(),
    fee: units(),
    fee_symbol: z.string(),
    chain: chains(['ethereum', 'polygon', 'arbitrum', 'base']),
    to: z.string(),
    memo: nullable(z.string()),
  }),
  'wallet.B.address': withInfo({
    addresses: z.strictObject({ ethereum: z.string(), polygon: z.string(), arbitrum: z.string(), base: z.string() }),
  }),
  'wallet.B.transactions': historyBody(),
  'wallet.B.tx': txBody(),
};

const SEND: readonly ErrorCode[] = ['FORBIDDEN', 'CONFLICT', 'INSUFFICIENT_BALANCE'];
export const WALLET_DOMAIN_ERRORS: Readonly<Record<string, readonly ErrorCode[]>> = {
  'wallet.primary.register': ['NOT_FOUND', 'CONFLICT'],
  'wallet.primary.create': [],
  'wallet.primary.balance': ['FORBIDDEN'],
  'wallet.primary.send': SEND,
  'wallet.primary.swap-quote': [],
  'wallet.primary.swap': ['CONFLICT'],
  'wallet.primary.deposit-address': [],
  'wallet.primary.transactions': [],
  'wallet.primary.swap-status': ['NOT_FOUND'],
  'wallet.primary.chains': [],
  'wallet.primary.gossip': [],
  'wallet.primary.referral-code': ['NOT_FOUND'],
  'wallet.primary.referral-stats': ['NOT_FOUND'],
  'wallet.primary.referral-withdraw': ['NOT_FOUND', 'INSUFFICIENT_BALANCE'],
  'wallet.A.balance': ['NOT_FOUND'],
  'wallet.A.addresses': ['NOT_FOUND'],
  'wallet.A.send': SEND,
  'wallet.A.swap': ['NOT_FOUND', 'CONFLICT'],
  'wallet.A.transactions': ['NOT_FOUND'],
  'wallet.B.balance': ['NOT_FOUND'],
  'wallet.B.send': ['NOT_FOUND', ...SEND],
  'wallet.B.address': ['NOT_FOUND'],
  'wallet.B.transactions': ['NOT_FOUND'],
  'wallet.B.tx': ['NOT_FOUND'],
};
