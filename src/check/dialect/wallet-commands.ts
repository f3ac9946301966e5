/**
 * The wallet part of `afp check --target` through a target's dialects (the documents' /v1 or the
 * deployment's, DEPLOYED.md §6): the check's own wallet agent (`wallet.register`, its own `pk_live_`
 * key on a deployment) and two wallets, w0 and w1, opened once per invocation (a creation must
 * answer the six chains' addresses and a mnemonic, from which the check derives the base keys).
 * Rows, each a command of the sequences:
 *   - walletBalance(w0|w1): the base balance is what the model holds (exact, in whole units) for
 *     an address no send has touched;
 *   - walletSend(w0 → w1): signed with w0's own key, accepted, the amount echoed; the chain's fee
 *     is not in the answer and the transfer lands at a block the check does not see, so both
 *     addresses are no longer compared for the rest of the invocation (never guessed). Once w0 has
 *     sent, each send first reads what w0 holds and mints WALLET_FUND more where it is below twice
 *     the amount: the sends of a whole invocation (100 runs and the shrinking's replays) outspend
 *     one funding, and a send refused for want of funds the check spent itself failed a working
 *     target (exit 3, "insufficient_balance … expected it accepted", 2 of 3 seeds at 100 runs);
 *   - walletWrongKey(w1 → w0): signed with w1's key while w1 is known empty, refused 4xx, and w0
 *     (untouched) still holds what the model says at its next read;
 *   - walletQuoteFee: a quote ETH → USDC on base by contract addresses states the 0.5% fee.
 * Funds: w0 gets 0.05 ETH on base through an afp serve's `POST /_afp/wallet/mint`; a target that
 * cannot fund (a deployment: real chains) leaves the rows that need funds out, with the reason.
 */
import fc from 'fast-check';
import { deriveWallet, isValidMnemonic } from '../../services/wallet/keys/wallet-keys.ts';
import { parseAmount } from '../../services/wallet/wallet-assets.ts';
import { EVM_NATIVE_ASSET, TOKEN_ROWS } from '../../services/wallet/wallet-config.ts';
import type { AdminClient } from '../../client/admin-client.ts';
import type { LiveSession, Target } from '../../live.ts';
import { CheckMismatch } from '../check-mismatch.ts';
import { CheckUnavailable } from '../check-unavailable.ts';
import { accepted, Command, refused, type DialectCommandRow } from './dialect-commands.ts';
import type { DialectModel, DialectSystem } from './dialect-model.ts';
import type { DialectWalletModel, WalletSlot } from './dialect-model-services.ts';

/** What w0 is funded with on an afp serve, and what one send moves. */
export const WALLET_FUND = '0.05';
const SEND_AMOUNT = '0.001';
const ETH_DECIMALS = 18;
/** What w0 must hold before a send: the amount, and as much again for the chain's fee. */
const SEND_FLOOR_WEI = 2n * 10n ** 15n;
const BASE_USDC = TOKEN_ROWS.find((row) => row.chain === 'base' && row.symbol === 'USDC')?.contract ?? '';
const WALLET_CHAINS = ['base', 'bitcoin', 'ethereum', 'monero', 'solana', 'tron'];

export interface OpenedWallet {
  readonly apiKey: string;
  readonly agentId: string;
  readonly wallets: readonly [WalletSlot, WalletSlot];
  /** Whether w0 was funded (the rows that need funds run only then). */
  readonly funded: boolean;
}

/** Why the check cannot fund a wallet address on this target, or null. */
export function walletUnfundable(target: Target): string | null {
  if (target.funding.method === 'admin-deposit' && target.afpServe && target.adminUrl !== null) return null;
  return `the wallet's chains are real on ${target.name}, which funds only by ${target.funding.method}: afp cannot fund an address there (only an afp serve's admin door, POST /_afp/wallet/mint, can)`;
}

/** The check's wallet agent and its two wallets, w0 funded where the target allows; a reason when it cannot be opened. */
export async function openWallet(session: LiveSession): Promise<OpenedWallet | string> {
  const missing = session.offers('wallet.register') ?? session.offers('wallet.create');
  if (missing !== null) return `the target offers no wallet the check can open (${missing})`;
  const registered = await session.call('wallet.register', {}, null);
  if (registered.kind !== 'ok')
    return `a wallet agent could not be registered: ${registered.kind === 'refused' ? `${registered.refusal.status} ${registered.refusal.name}` : registered.kind}`;
  const slots: WalletSlot[] = [];
  for (let index = 0; index < 2; index++) {
    const created = await session.call('wallet.create', {}, registered.value.apiKey);
    if (created.kind !== 'ok' || created.value.mnemonic === null)
      return `a wallet could not be created: ${created.kind === 'refused' ? `${created.refusal.status} ${created.refusal.name}` : created.kind === 'ok' ? 'no mnemonic in the answer' : created.kind}`;
    // The six chains the documents list must all be there; a chain more (a deployment that adds one)
    // is not the check's business: its commands use the base address alone.
    const absent = WALLET_CHAINS.filter((chain) => created.value.addresses[chain] === undefined);
    if (absent.length > 0)
      return `a created wallet answered no address on ${absent.join(', ')} (it answered ${Object.keys(created.value.addresses).sort().join(', ')}; expected at least ${WALLET_CHAINS.join(', ')})`;
    // The target's answer, not afp's: a mnemonic that is no BIP-39 one leaves the wallet rows out (deriveWallet asserts a valid one).
    if (!isValidMnemonic(created.value.mnemonic))
      return 'a created wallet answered a mnemonic that is no valid BIP-39 mnemonic (word list, word count or checksum), so no key of it can be derived';
    const address = created.value.addresses['base'] ?? '';
    slots.push({
      address,
      privateKey: deriveWallet(created.value.mnemonic).privateKeys.base,
      balance: '0',
      moved: false,
    });
  }
  const [w0, w1] = slots as [WalletSlot, WalletSlot];
  let funded = false;
  const admin = session.admin();
  if (walletUnfundable(session.target) === null && admin !== null) {
    const unfunded = await mintTo(admin, w0.address);
    if (unfunded !== null) return `w0 could not be funded: ${unfunded}`;
    w0.balance = WALLET_FUND;
    funded = true;
  }
  return { apiKey: registered.value.apiKey, agentId: registered.value.agentId, wallets: [w0, w1], funded };
}

/** A run's wallet model: the invocation's wallets (their balances and sends carry over from run to run). */
export function walletModel(opened: OpenedWallet | null): DialectWalletModel | null {
  return opened === null ? null : { apiKey: opened.apiKey, wallets: opened.wallets, funded: opened.funded };
}

function walletOf(model: Readonly<DialectModel>): DialectWalletModel {
  if (model.wallet === null) throw new Error("a wallet command ran without the check's wallet");
  return model.wallet;
}

const balanceCommand = fc.constantFrom<0 | 1>(0, 1).map((slot) => {
  const label = `walletBalance(w${slot})`;
  return new Command(
    label,
    (model) => model.wallet !== null,
    async (model, system) => {
      const wallet = walletOf(model).wallets[slot];
      const { value } = await accepted(
        system,
        label,
        'wallet.balance',
        { address: wallet.address, chain: 'base' },
        walletOf(model).apiKey,
      );
      if (!wallet.moved && value.amount !== wallet.balance)
        throw new CheckMismatch(`${label}: ${String(value.amount)} ETH, expected ${wallet.balance}`);
    },
  );
});

const sendCommand = fc.constant(
  new Command(
    'walletSend(w0 → w1)',
    (model) => model.wallet !== null && model.wallet.funded,
    async (model, system) => {
      const wallet = walletOf(model);
      const [w0, w1] = wallet.wallets;
      if (w0.moved) await keepFunded(system, wallet.apiKey, w0);
      const { value } = await accepted(
        system,
        'walletSend(w0 → w1)',
        'wallet.send',
        { chain: 'base', to: w1.address, amount: SEND_AMOUNT, privateKey: w0.privateKey },
        wallet.apiKey,
      );
      if (value.amount !== null && value.amount !== SEND_AMOUNT)
        throw new CheckMismatch(`walletSend(w0 → w1): the answer's amount ${value.amount}, sent ${SEND_AMOUNT}`);
      // The fee and the block are the chain's: neither address is compared from now on.
      w0.moved = true;
      w1.moved = true;
    },
  ),
);

/**
 * Reads what w0 holds (it has sent: the model no longer knows) and mints WALLET_FUND more when it
 * is below SEND_FLOOR_WEI, or is no positive ETH amount (walletBalance judges the shape).
 */
async function keepFunded(system: DialectSystem, apiKey: string, w0: WalletSlot): Promise<void> {
  const label = 'walletSend(w0 → w1): reading w0 first';
  const { value } = await accepted(system, label, 'wallet.balance', { address: w0.address, chain: 'base' }, apiKey);
  const held = parseAmount(value.amount, ETH_DECIMALS, 'amount');
  if (typeof held === 'bigint' && held >= SEND_FLOOR_WEI) return;
  const admin = system.session.admin();
  const unfunded = admin === null ? 'the target has no admin door' : await mintTo(admin, w0.address);
  if (unfunded !== null)
    throw new CheckUnavailable(
      `${label}: w0 holds ${String(value.amount)} ETH and could not be funded again: ${unfunded}`,
    );
}

/** Mints WALLET_FUND ETH on base to `address` through the serve's mint door; why it could not, or null. */
async function mintTo(admin: AdminClient, address: string): Promise<string | null> {
  const answer = await admin.walletMint({ chain: 'base', address, amount: WALLET_FUND });
  if (answer.ok) return null;
  return answer.kind === 'unreachable' ? answer.message : `POST /_afp/wallet/mint answered ${answer.status}`;
}

const wrongKeyCommand = fc.constant(
  new Command(
    'walletWrongKey(w1 → w0)',
    (model) => model.wallet !== null && !model.wallet.wallets[1].moved,
    async (model, system) => {
      const wallet = walletOf(model);
      const [w0, w1] = wallet.wallets;
      const refusal = await refused(
        system,
        'walletWrongKey(w1 → w0)',
        'wallet.send',
        { chain: 'base', to: w0.address, amount: SEND_AMOUNT, privateKey: w1.privateKey },
        wallet.apiKey,
      );
      if (!refusal.text.startsWith('4'))
        throw new CheckMismatch(`walletWrongKey(w1 → w0): refused ${refusal.text}, expected a 4xx`);
    },
  ),
);

const quoteFeeCommand = fc.constant(
  new Command(
    'walletQuoteFee()',
    (model) => model.wallet !== null,
    async (model, system) => {
      const { value } = await accepted(
        system,
        'walletQuoteFee()',
        'wallet.quote',
        { fromChain: 'base', toChain: 'base', fromToken: EVM_NATIVE_ASSET, toToken: BASE_USDC, amount: '0.01' },
        walletOf(model).apiKey,
      );
      if (value.integratorFee !== '0.5%')
        throw new CheckMismatch(
          `walletQuoteFee(): integrator fee ${String(value.integratorFee)}, expected 0.5% (NOTES.md, DEPLOYED.md §6)`,
        );
      if (value.fromAmount !== '0.01')
        throw new CheckMismatch(`walletQuoteFee(): the quote's input ${String(value.fromAmount)}, asked 0.01`);
    },
  ),
);

/** Why a row needing funds is left out on `target`, or null. */
const needsFunds = (target: Target): string | null => walletUnfundable(target);

export const WALLET_COMMANDS: readonly DialectCommandRow[] = [
  {
    name: 'walletBalance',
    operations: ['wallet.balance'],
    accounts: 0,
    service: 'wallet',
    weight: 2,
    arbitrary: balanceCommand,
  },
  {
    name: 'walletSend',
    operations: ['wallet.send'],
    accounts: 0,
    service: 'wallet',
    weight: 2,
    applies: needsFunds,
    arbitrary: sendCommand,
  },
  {
    name: 'walletWrongKey',
    operations: ['wallet.send'],
    accounts: 0,
    service: 'wallet',
    weight: 1,
    arbitrary: wrongKeyCommand,
  },
  {
    name: 'walletQuoteFee',
    operations: ['wallet.quote'],
    accounts: 0,
    service: 'wallet',
    weight: 1,
    arbitrary: quoteFeeCommand,
  },
];
