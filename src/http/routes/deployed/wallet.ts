/**
 * The deployed wallet (spec/DEPLOYED.md §6, `public-wallet`, base /v1 on its own address, port
 * 3005) over afp's WalletService, one row per endpoint, each over the documents row of the same
 * call (wallet-row.ts):
 *   POST /v1/auth/register { referral_code? } → 201 { agent_id, api_key (`pk_live_`), referral_code, message, next_steps };
 *   POST /v1/wallet/create → 201 { mnemonic, addresses, monero_keys, warning, derivation_paths } (never stored);
 *   GET  /v1/wallet/balance/:address?chain=&view_key= (chain default `base`; monero without view_key
 *        400 `view_key_required`) → { address, chain, balance: { native: { symbol, amount, … } }, explorer };
 *   GET  /v1/wallet/transactions/:address?chain=&limit= (limit 10, max 50), /v1/wallet/deposit-address,
 *        /v1/wallet/chains, /v1/gossip, /v1/referral/code, /stats; POST /v1/referral/withdraw.
 * The send and swap rows are in wallet-moves.ts. A wallet agent is an afp agent registered on this
 * address; its key is afp's key under the deployment's `pk_live_` prefix (service-keys.ts), its
 * referral earnings afp's (docs/decisions/deployed-dialect.md "Deployed dialect: wallet").
 */
import { isFailure } from '../../../core/errors.ts';
import type { Registration } from '../../../services/faucet/faucet.ts';
import type { WalletChain } from '../../../services/wallet/keys/wallet-keys.ts';
import type { BalanceView } from '../../../services/wallet/wallet.ts';
import { DEFAULT_WALLET_CONFIG, type SimChain } from '../../../services/wallet/wallet-config.ts';
import { deployedFailure } from '../../deployed/deployed-errors.ts';
import { serviceKeyOf } from '../../deployed/service-keys.ts';
import type { Route, RouteInput } from '../../route.ts';
import { amountBody } from '../wallet/wallet-render.ts';
import { queryLimit } from '../../validate.ts';
import { bodyFields, walletRefusal, walletRow } from './wallet-row.ts';

/** The deployment's default chain of a balance or a history read (§6). */
export const DEFAULT_CHAIN: WalletChain = 'base';

/** Where a block explorer shows an address, per chain (the deployment's `explorer` field). */
/** Explorers by chain; polygon and arbitrum (style B only, never on the deployed /v1) for completeness of the type. */
export const ADDRESS_EXPLORERS: Readonly<Record<SimChain, string>> = {
  ethereum: 'https://etherscan.io/address/',
  base: 'https://basescan.org/address/',
  solana: 'https://solscan.io/account/',
  bitcoin: 'https://mempool.space/address/',
  tron: 'https://tronscan.org/#/address/',
  monero: 'https://xmrchain.net/search?value=',
  polygon: 'https://polygonscan.com/address/',
  arbitrum: 'https://arbiscan.io/address/',
};

/** The query with `chain` set to the deployment's default when absent. */
function withDefaultChain(input: RouteInput): RouteInput {
  return input.query['chain'] === undefined ? { ...input, query: { ...input.query, chain: DEFAULT_CHAIN } } : input;
}

const register = walletRow({
  operation: 'register',
  successStatus: 201,
  bodyKeys: ['referral_code'],
  summary: 'Create a wallet agent ({ referral_code? }): its pk_live_ key, shown once.',
  // An unknown referral code is ignored, as the deployment does: the agent registers without referrer.
  input: (input, context) => {
    const fields = bodyFields(input.body);
    if (isFailure(fields)) return fields;
    const code = fields['referral_code'];
    if (code !== undefined && code !== null && typeof code !== 'string')
      return deployedFailure(400, 'invalid_request', 'referral_code must be a string', { field: 'referral_code' });
    const known = typeof code === 'string' && code.length <= 128 && context.platform.agents.resolve(code) !== undefined;
    return { ...input, body: known ? { referral_code: code } : {} };
  },
  render: (value) => {
    const registration = value as Registration;
    return {
      agent_id: registration.agent.id,
      api_key: serviceKeyOf('wallet', registration.apiKey),
      referral_code: registration.agent.referralCode,
      message: 'Wallet agent registered. Keep your api_key: it is shown once.',
      next_steps: [
        'Create a wallet: POST /v1/wallet/create',
        'Read a balance: GET /v1/wallet/balance/:address?chain=base',
        'See the chains: GET /v1/wallet/chains',
      ],
    };
  },
});

const create = walletRow({
  operation: 'create',
  successStatus: 201,
  summary:
    'Generate a BIP-39 HD wallet: mnemonic (shown once, never stored), six addresses, monero keys, derivation paths.',
});

const balance = walletRow({
  operation: 'balance',
  queryKeys: ['chain', 'view_key'],
  summary: 'The native balance of an address (chain default base; monero needs view_key).',
  input: (input) => {
    const filled = withDefaultChain(input);
    if (filled.query['chain'] === 'monero' && filled.query['view_key'] === undefined) {
      return deployedFailure(
        400,
        'view_key_required',
        'A monero balance needs view_key (the private view key in hex)',
        { field: 'view_key' },
      );
    }
    return filled;
  },
  render: (value) => {
    const view = value as BalanceView;
    return {
      address: view.address,
      chain: view.chain,
      balance: { native: amountBody(view.native.asset, view.native.amount) },
      explorer: `${ADDRESS_EXPLORERS[view.chain]}${view.address}`,
    };
  },
});

/** The deployment's history holds at most 50 (DEPLOYED.md §6); the documents' list calls take up to 100. */
export const DEPLOYED_HISTORY_MAX = 50;

const transactions = walletRow({
  operation: 'transactions',
  queryKeys: ['chain', 'limit'],
  summary: 'Recent transactions of an address, newest first (chain default base; limit 10, max 50).',
  input: (input) => {
    const limit = queryLimit(input.query, DEFAULT_WALLET_CONFIG.historyLimitDefault, DEPLOYED_HISTORY_MAX);
    return isFailure(limit) ? walletRefusal(limit) : withDefaultChain(input);
  },
});

const depositAddress = walletRow({
  operation: 'deposit-address',
  queryKeys: ['chain'],
  summary: 'How to derive your deposit address locally (no address is kept); chain default base.',
});

const chains = walletRow({
  operation: 'chains',
  summary: 'The wallet chains (tokens by contract address) and the swap chains.',
});

const gossip = walletRow({
  operation: 'gossip',
  summary: 'The referral programme and the live agent count (no key).',
});

const referralCode = walletRow({
  operation: 'referral-code',
  summary: 'Your referral code and the commission of each of the 3 levels.',
});

const referralStats = walletRow({
  operation: 'referral-stats',
  summary: 'Your referral earnings over 3 levels: total earned, withdrawn, available.',
});

const referralWithdraw = walletRow({
  operation: 'referral-withdraw',
  bodyKeys: ['address', 'chain'],
  summary: 'Withdraw every available referral earning ({ address, chain? }); 5 per minute per IP.',
});

/** Rows in the order of §6. */
export const deployedWalletRoutes: readonly Route[] = [
  register,
  create,
  balance,
  transactions,
  depositAddress,
  chains,
  gossip,
  referralCode,
  referralStats,
  referralWithdraw,
];
