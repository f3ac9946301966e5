/**
 * The wallet's operation cases of the conformance suite (operation-case.ts), through any dialect
 * that offers the wallet's operations: the documents' primary interface (/v1) as afp serves it, or
 * the deployment (DEPLOYED.md §6, its own `pk_live_` agents). Each case registers a wallet agent of
 * its own and creates wallets; nothing needs funds, so they cost nothing on a real deployment.
 *   - happy: a created wallet has the six chains' addresses and its mnemonic; a fresh address
 *     holds 0 on its chain; a quote by contract addresses answers its amounts and the 0.5% fee;
 *   - rejection: a send signed by an empty address's key, on an unknown chain, of a malformed
 *     amount, or to a malformed address is refused 4xx, and the receiver still holds 0.
 * Refusal names differ by dialect (`400 BAD_REQUEST` documents, `400 invalid_request` deployed;
 * a short balance 422 / 400), so only the 4xx class is held here; names are read, never assumed.
 */
import { EVM_NATIVE_ASSET, TOKEN_ROWS } from '../../services/wallet/wallet-config.ts';
import { deriveWallet, isValidMnemonic } from '../../services/wallet/keys/wallet-keys.ts';
import type { OperationCase, OperationCaseContext } from '../operation-case.ts';

const CHAINS = ['base', 'bitcoin', 'ethereum', 'monero', 'solana', 'tron'];
const BASE_USDC = TOKEN_ROWS.find((row) => row.chain === 'base' && row.symbol === 'USDC')?.contract ?? '';

async function walletAgent(
  context: OperationCaseContext,
): Promise<{ apiKey: string; addresses: Readonly<Record<string, string>>; mnemonic: string | null }> {
  const registered = await context.ok('a wallet agent of its own', 'wallet.register', {}, null);
  const created = await context.ok('a wallet', 'wallet.create', {}, registered.value.apiKey);
  return { apiKey: registered.value.apiKey, ...created.value };
}

async function createdWallet(context: OperationCaseContext): Promise<void> {
  const agent = await walletAgent(context);
  context.expect('the chains of the created wallet', Object.keys(agent.addresses).sort(), CHAINS);
  context.expect('the mnemonic is 24 words', agent.mnemonic?.split(' ').length ?? 0, 24);
  const balance = await context.ok(
    'the balance of the fresh base address',
    'wallet.balance',
    { address: agent.addresses['base'] ?? '', chain: 'base' },
    agent.apiKey,
  );
  context.expect('a fresh address holds', balance.value.amount, '0');
  const quote = await context.ok(
    'a quote ETH → USDC on base by contract addresses',
    'wallet.quote',
    { fromChain: 'base', toChain: 'base', fromToken: EVM_NATIVE_ASSET, toToken: BASE_USDC, amount: '0.01' },
    agent.apiKey,
  );
  context.expect("the quote's input amount", quote.value.fromAmount, '0.01');
  context.expect('the integrator fee', quote.value.integratorFee, '0.5%');
}

async function refusedSends(context: OperationCaseContext): Promise<void> {
  const agent = await walletAgent(context);
  const other = await context.ok('a second wallet', 'wallet.create', {}, agent.apiKey);
  if (other.value.mnemonic === null) {
    context.problem('the second wallet was answered without its mnemonic');
    return;
  }
  if (!isValidMnemonic(other.value.mnemonic)) {
    context.problem('the second wallet was answered with a mnemonic that is no valid BIP-39 mnemonic');
    return;
  }
  const emptyKey = deriveWallet(other.value.mnemonic).privateKeys.base;
  const to = agent.addresses['base'] ?? '';
  const sends: ReadonlyArray<readonly [string, { chain: string; to: string; amount: string; privateKey: string }]> = [
    ['a send signed by the key of an empty address', { chain: 'base', to, amount: '0.001', privateKey: emptyKey }],
    ['a send on an unknown chain', { chain: 'dogecoin', to, amount: '0.001', privateKey: emptyKey }],
    ['a send of a negative amount', { chain: 'base', to, amount: '-1', privateKey: emptyKey }],
    ['a send to a malformed address', { chain: 'base', to: '0x1234', amount: '0.001', privateKey: emptyKey }],
    ['a send with a malformed private key', { chain: 'base', to, amount: '0.001', privateKey: 'not-a-key' }],
  ];
  for (const [label, input] of sends) {
    const refusal = await context.refused(label, 'wallet.send', input, agent.apiKey);
    if (refusal !== null) context.expect(`${label}: a 4xx refusal`, refusal.text.startsWith('4'), true);
  }
  const after = await context.ok(
    "the receiver's balance after the refusals",
    'wallet.balance',
    { address: to, chain: 'base' },
    agent.apiKey,
  );
  context.expect('the receiver still holds', after.value.amount, '0');
}

export const WALLET_OPERATION_CASES: readonly OperationCase[] = [
  {
    kind: 'operations',
    name: "operations: a created wallet has six chains' addresses and its mnemonic; a fresh address holds 0; a quote answers its amounts and the 0.5% fee",
    operations: ['wallet.register', 'wallet.create', 'wallet.balance', 'wallet.quote'],
    accounts: 0,
    run: createdWallet,
  },
  {
    kind: 'operations',
    name: "operations: a wallet send with an empty address's key, an unknown chain, a bad amount, address or key is refused 4xx and moves nothing",
    operations: ['wallet.register', 'wallet.create', 'wallet.send', 'wallet.balance'],
    accounts: 0,
    run: refusedSends,
  },
];
