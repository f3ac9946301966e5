/**
 * Wallet commands of `afp check` (primary interface /v1, the style-B lookup by hash): create
 * (the six addresses and monero keys derived again from the mnemonic answered, with the keys
 * module, and compared; the keys kept in the command-side keyring only), mint (the admin door),
 * balances per chain and token in base units (monero with its own view key, none: 400, another's:
 * 403), sends (command-wallet-send.ts); history (limit and order) and the lookup by hash.
 * After every wallet command (wallet-frame.ts): the model's own conservation and, in-process, each
 * chain's fee account read back against the fees the model predicted.
 */
import type { AfpClient } from '../../client/client.ts';
import type { WalletChainName } from '../../client/wallet-client.ts';
import {
  DERIVATION_PATHS,
  isValidAddress,
  isValidMnemonic,
  WALLET_CHAINS,
  type WalletChain,
} from '../../services/wallet/keys/wallet-keys.ts';
import type { CheckModel } from '../check-model.ts';
import { eq, failure, list, object, text, type Matcher, type Prediction } from '../expectation.ts';
import { expectAnswer, inFaultWindow, keyed } from '../model-command.ts';
import { CheckMismatch } from '../check-mismatch.ts';
import { derivedWallet } from './derived-wallets.ts';
import { SCOPES } from '../model-limits.ts';
import { balanceOf, historyOf, nativeOf, recordMint, tokensOf, txMatcher, modelUnitsText } from './model-wallet.ts';
import type { ModelWallet, ModelWalletTx, WalletAsset } from './wallet-state.ts';
import { walletSpec, type WalletCommandSpec } from './wallet-frame.ts';
import { foreignSecrets, keepSecrets, secretsOf, type WalletSecrets } from './wallet-keyring.ts';
import { HISTORY_CHAINS } from '../../services/wallet/wallet-assets.ts';

/** Wallets a run creates at most: commands then meet the same few, and each creation derives the six chains' keys twice (service and model, ~0.1 s). */
export const WALLETS_MAX = 3;

export function walletAt(model: Readonly<CheckModel>, index: number): ModelWallet | undefined {
  const wallets = model.wallet.wallets;
  return wallets.length === 0 ? undefined : wallets[index % wallets.length];
}

/** The frame of a command on the model's wallet `index`: drawn while it exists, charged to (and involving) the agent slot that created it. */
export function onWallet(
  index: number,
  scopes: (typeof SCOPES)[keyof typeof SCOPES],
): Pick<WalletCommandSpec, 'applicable' | 'charges' | 'parties'> {
  const slotOf = (model: Readonly<CheckModel>): number => walletAt(model, index)?.slot ?? 0;
  return {
    applicable: (model) => walletAt(model, index) !== undefined,
    charges: (model) => [{ slot: slotOf(model), scopes }],
    parties: (model) => [slotOf(model)],
  };
}

/** The frame of a command agent `slot` sends for itself: drawn while it is registered, charged to (and involving) it alone. */
export function onAgent(
  slot: number,
  scopes: (typeof SCOPES)[keyof typeof SCOPES],
): Pick<WalletCommandSpec, 'applicable' | 'charges' | 'parties'> {
  return {
    applicable: (model) => model.agents[slot] !== undefined,
    charges: () => [{ slot, scopes }],
    parties: () => [slot],
  };
}

/** A command on the model's wallet `index` (onWallet), run with that wallet, which its precondition made sure exists. */
function walletCommand(
  label: string,
  index: number,
  run: (model: CheckModel, system: Parameters<WalletCommandSpec['execute']>[1], wallet: ModelWallet) => Promise<void>,
): WalletCommandSpec {
  return walletSpec({
    label,
    ...onWallet(index, SCOPES.walletPrimary),
    execute: async (model, system) => {
      const wallet = walletAt(model, index);
      if (wallet === undefined) throw new Error(`${label}: precondition broken`);
      await run(model, system, wallet);
    },
  });
}

export function ownerClient(
  model: Readonly<CheckModel>,
  system: Parameters<WalletCommandSpec['execute']>[1],
  wallet: ModelWallet,
): AfpClient {
  return keyed(model, system, wallet.slot);
}

export function createWalletCommand(slot: number): WalletCommandSpec {
  const label = `walletCreate(a${slot})`;
  return walletSpec({
    label,
    applicable: (model) => model.agents[slot] !== undefined && model.wallet.wallets.length < WALLETS_MAX,
    charges: () => [{ slot, scopes: SCOPES.walletPrimary }],
    parties: () => [slot],
    execute: async (model, system) => {
      const answer = await keyed(model, system, slot).wallet.create();
      // One of the target's fault windows: nothing was created.
      if (inFaultWindow(model, answer)) return;
      const body = (answer.body ?? {}) as Readonly<Record<string, unknown>>;
      const mnemonic = body['mnemonic'];
      if (
        answer.status !== 200 ||
        typeof mnemonic !== 'string' ||
        mnemonic.split(' ').length !== 24 ||
        !isValidMnemonic(mnemonic)
      ) {
        throw new CheckMismatch(
          `${label}: expected 200 with a valid 24-word BIP-39 mnemonic, got ${answer.status} ${JSON.stringify(answer.body).slice(0, 160)}`,
        );
      }
      const derived = derivedWallet(mnemonic);
      const invalid = WALLET_CHAINS.filter((chain) => !isValidAddress(chain, derived.addresses[chain]));
      if (invalid.length > 0) throw new CheckMismatch(`${label}: derived addresses not valid on ${invalid.join(', ')}`);
      const addresses: Record<string, Matcher> = {};
      const paths: Record<string, Matcher> = {};
      for (const chain of WALLET_CHAINS) {
        addresses[chain] = eq(derived.addresses[chain]);
        paths[chain] = eq(DERIVATION_PATHS[chain]);
      }
      const monero = derived.monero;
      const prediction: Prediction = {
        expected: {
          status: 200,
          body: {
            addresses: object(addresses),
            monero_keys: object({
              spend_key: eq(monero.spendKey),
              view_key: eq(monero.viewKey),
              public_spend_key: eq(monero.publicSpendKey),
              public_view_key: eq(monero.publicViewKey),
            }),
            derivation_paths: object(paths),
            warning: text(),
          },
        },
        commit: () => {
          const index = model.wallet.wallets.length;
          model.wallet.wallets.push({ index, slot, addresses: { ...derived.addresses } });
          keepSecrets(model.wallet, index, {
            addresses: derived.addresses,
            privateKeys: derived.privateKeys,
            monero: { viewKey: monero.viewKey, spendKey: monero.spendKey },
          });
        },
      };
      expectAnswer(label, model, answer, prediction);
    },
  });
}

/** Which asset of a chain: its native coin (null) or its k-th token (modulo; the native coin where it has none). */
export function assetOf(chain: WalletChain, token: number | null): WalletAsset {
  const tokens = tokensOf(chain);
  return token === null || tokens.length === 0 ? nativeOf(chain) : (tokens[token % tokens.length] as WalletAsset);
}

/** Mint sizes in whole units: natives 1 or 20 (tron's 1 TRX is below a token send's fee), tokens 100 or 2,000. */
export type MintSize = 'small' | 'large';

function mintUnits(asset: WalletAsset, size: MintSize): bigint {
  const whole = asset.native ? (size === 'small' ? 1n : 20n) : size === 'small' ? 100n : 2_000n;
  return whole * 10n ** BigInt(asset.decimals);
}

export function mintCommand(input: {
  wallet: number;
  chain: WalletChain;
  token: number | null;
  size: MintSize;
}): WalletCommandSpec {
  const asset = assetOf(input.chain, input.token);
  const label = `walletMint(w${input.wallet}, ${input.chain} ${asset.symbol}, ${input.size})`;
  return walletSpec({
    label,
    applicable: (model) => walletAt(model, input.wallet) !== undefined,
    charges: () => [],
    parties: () => [],
    execute: async (model, system) => {
      const wallet = walletAt(model, input.wallet);
      if (wallet === undefined || system.walletMint === undefined)
        throw new Error(`${label}: precondition broken (no wallet or no mint door)`);
      const to = wallet.addresses[input.chain];
      const amount = mintUnits(asset, input.size);
      const answer = await system.walletMint({
        chain: input.chain,
        address: to,
        amount: modelUnitsText(amount, asset.decimals),
        ...(asset.native ? {} : { token: asset.address }),
      });
      const nowMs = model.nowMs;
      expectAnswer(label, model, answer, {
        expected: {
          status: 200,
          body: {
            tx_hash: text(),
            chain: eq(input.chain),
            to: eq(to),
            symbol: eq(asset.symbol),
            amount: eq(modelUnitsText(amount, asset.decimals)),
            status: eq('confirmed'),
          },
        },
        commit: (body) => recordMint(model.wallet, asset, to, amount, nowMs, String(body['tx_hash'])),
      });
    },
  });
}

function amountMatcher(asset: WalletAsset, units: bigint): Matcher {
  return object({
    symbol: eq(asset.symbol),
    contract: eq(asset.native ? null : asset.address),
    amount: eq(modelUnitsText(units, asset.decimals)),
    base_units: eq(units.toString()),
    decimals: eq(asset.decimals),
  });
}

/** Monero: the address's own view key, none (400) or another wallet's (403); other chains send none. */
export type ViewKeyKind = 'own' | 'none' | 'other';

export function otherSecrets(model: Readonly<CheckModel>, wallet: ModelWallet): WalletSecrets {
  const other = model.wallet.wallets.find((one) => one.index !== wallet.index);
  return other === undefined ? foreignSecrets() : secretsOf(model.wallet, other.index);
}

export function balanceCommand(input: { wallet: number; chain: WalletChain; viewKey: ViewKeyKind }): WalletCommandSpec {
  const monero = input.chain === 'monero';
  const label = `walletBalance(w${input.wallet}, ${input.chain}${monero ? `, view key ${input.viewKey}` : ''})`;
  return walletCommand(label, input.wallet, async (model, system, wallet) => {
    const address = wallet.addresses[input.chain];
    let viewKey: string | undefined;
    if (monero && input.viewKey === 'own') viewKey = secretsOf(model.wallet, wallet.index).monero.viewKey;
    if (monero && input.viewKey === 'other') viewKey = otherSecrets(model, wallet).monero.viewKey;
    const prediction = predictBalance(model, input.chain, address, monero ? input.viewKey : 'own');
    const answer = await ownerClient(model, system, wallet).wallet.balance(address, {
      chain: input.chain as WalletChainName,
      ...(viewKey === undefined ? {} : { view_key: viewKey }),
    });
    expectAnswer(label, model, answer, prediction);
  });
}

export function predictBalance(
  model: Readonly<CheckModel>,
  chain: WalletChain,
  address: string,
  viewKey: ViewKeyKind,
): Prediction {
  if (viewKey === 'none') return failure(400, 'BAD_REQUEST');
  if (viewKey === 'other') return failure(403, 'FORBIDDEN');
  const native = nativeOf(chain);
  return {
    expected: {
      status: 200,
      body: {
        address: eq(address),
        chain: eq(chain),
        balance: object({
          native: amountMatcher(native, balanceOf(model.wallet, native, address)),
          tokens: list(tokensOf(chain).map((token) => amountMatcher(token, balanceOf(model.wallet, token, address)))),
        }),
      },
    },
  };
}

const HISTORY_DEFAULT = 10;
/** platform.md Limits 7: list calls accept limit up to 100. */
const HISTORY_MAX = 100;

export function historyCommand(input: { wallet: number; chain: WalletChain; limit: number | null }): WalletCommandSpec {
  const label = `walletHistory(w${input.wallet}, ${input.chain}${input.limit === null ? '' : `, limit ${input.limit}`})`;
  return walletCommand(label, input.wallet, async (model, system, wallet) => {
    const address = wallet.addresses[input.chain];
    const answer = await ownerClient(model, system, wallet).wallet.transactions(address, {
      chain: input.chain as 'bitcoin',
      ...(input.limit === null ? {} : { limit: input.limit }),
    });
    const limit = input.limit ?? HISTORY_DEFAULT;
    if (!HISTORY_CHAINS.includes(input.chain) || limit < 1 || limit > HISTORY_MAX)
      return expectAnswer(label, model, answer, failure(400, 'BAD_REQUEST'));
    const shown = historyOf(model.wallet, input.chain, address).slice(0, limit);
    expectAnswer(label, model, answer, {
      expected: {
        status: 200,
        body: {
          address: eq(address),
          chain: eq(input.chain),
          transactions: list(shown.map((tx) => object(txMatcher(tx)))),
          count: eq(shown.length),
        },
      },
      commit: (body) => {
        const items = body['transactions'] as readonly Readonly<Record<string, unknown>>[];
        shown.forEach((tx, index) => {
          if (tx.hash === null) tx.hash = String(items[index]?.['tx_hash']);
        });
      },
    });
  });
}

/** An unknown hash: well formed, never issued. */
const UNKNOWN_HASH = `0x${'0'.repeat(64)}`;

export function txLookupCommand(input: { slot: number; tx: number | 'unknown' }): WalletCommandSpec {
  const label = `walletTx(a${input.slot}, ${input.tx === 'unknown' ? 'unknown hash' : `tx#${input.tx}`})`;
  const known = (model: Readonly<CheckModel>): ModelWalletTx[] => model.wallet.txs.filter((tx) => tx.hash !== null);
  return walletSpec({
    label,
    applicable: (model) =>
      model.agents[input.slot] !== undefined && (input.tx === 'unknown' || known(model).length > 0),
    charges: () => [{ slot: input.slot, scopes: SCOPES.walletB }],
    parties: () => [input.slot],
    execute: async (model, system) => {
      const txs = known(model);
      const tx = input.tx === 'unknown' ? undefined : txs[input.tx % txs.length];
      const answer = await keyed(model, system, input.slot).wallet.tx(tx?.hash ?? UNKNOWN_HASH);
      expectAnswer(
        `${label}${tx === undefined ? '' : ` (${tx.asset.chain} ${tx.kind})`}`,
        model,
        answer,
        tx === undefined ? failure(404, 'NOT_FOUND') : { expected: { status: 200, body: txMatcher(tx) } },
      );
    },
  });
}
