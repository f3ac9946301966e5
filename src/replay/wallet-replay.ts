/**
 * The wallet through a target's dialect (issue 21): what a recorded wallet exchange needs besides
 * its route's operation. The wallet registers agents and keys of its own (`pk_live_` on a
 * deployment), so a recorded wallet registration is replayed as one and binds the recorded key to
 * the live one. A created wallet is bound (each recorded address → the live one, as identifiers
 * are) and its mnemonic, from the live answer, goes to the ReplayKeyring, which keeps the derived
 * keys in memory only; the mnemonic itself is never compared, kept or shown. A recorded send
 * (its key redacted by the recorder) is signed with the live sender's key.
 * Funds: a record carries no mint (the harness's funding happens outside HTTP), so a fresh target
 * holds nothing. On an afp serve the replay mints, once per live address and chain, before the first
 * recorded balance of its recorded address is asked, what the live address lacks of that balance,
 * its native coin and each token it lists (POST /_afp/wallet/mint; what replayed sends brought it counts); a recorded send from an address the replay did not fund is not replayed
 * (on another target it cannot be funded), with why, rather than reported as a false refusal.
 * Limits: at most FUNDED_MAX funded addresses (beyond, their sends are not replayed).
 */
import type {
  LiveSession,
  OperationInput,
  OperationName,
  OperationResult,
  WalletTokenAmount,
  ReadOutcome,
} from '../live.ts';
import type { Bindings } from './bindings.ts';
import type { RecordedExchange } from './record-format.ts';
import { ReplayKeyring } from './replay-keyring.ts';

export const FUNDED_MAX = 10_000;
/** The most token holdings of one recorded balance the replay funds. */
const TOKENS_MAX = 32;

export class ReplayWallets {
  private readonly keyring = new ReplayKeyring();
  /** `${chain}|${live address}` funded by the replay (or found unfundable, with why). */
  private readonly funded = new Map<string, string | null>();
  private readonly session: LiveSession;

  constructor(session: LiveSession) {
    this.session = session;
  }

  /** The live key of a recorded send's sender (the keyring's), or the recorded marker when none is known (the target then refuses it). */
  signingKey(exchange: RecordedExchange, body: unknown, liveKey: string | null, bindings: Bindings): string | null {
    const signed = this.keyring.sign(exchange, body, liveKey ?? undefined, bindings) as {
      private_key?: unknown;
    } | null;
    return typeof signed?.private_key === 'string' ? signed.private_key : null;
  }

  /** The view and spend keys of a live monero address the replay created, or null. */
  moneroKeys(liveAddress: string): { readonly viewKey: string; readonly spendKey: string } | null {
    return this.keyring.moneroKeys(liveAddress);
  }

  /**
   * A created wallet: binds its recorded addresses to the live ones and learns its keys; returns
   * both outcomes without addresses and mnemonic (bound here, a secret there: nothing to compare).
   */
  created(
    recorded: ReadOutcome<OperationResult<'wallet.create'>>,
    live: ReadOutcome<OperationResult<'wallet.create'>>,
    liveKey: string | null,
    bindings: Bindings,
  ): [ReadOutcome<unknown>, ReadOutcome<unknown>] {
    if (live.kind === 'ok') this.keyring.learn(liveKey ?? undefined, { mnemonic: live.value.mnemonic });
    if (recorded.kind === 'ok' && live.kind === 'ok') {
      for (const [chain, address] of Object.entries(recorded.value.addresses)) {
        const liveAddress = live.value.addresses[chain];
        if (liveAddress !== undefined && address !== liveAddress) bindings.bind(address, liveAddress);
      }
    }
    const blank = (outcome: ReadOutcome<OperationResult<'wallet.create'>>): ReadOutcome<unknown> =>
      outcome.kind === 'ok' ? { kind: 'ok', value: { addresses: null, mnemonic: null } } : outcome;
    return [blank(recorded), blank(live)];
  }

  /**
   * Before a recorded balance is asked: the first time, mints its recorded native amount at the
   * live address (afp serve only). Returns why the address cannot be funded, or null.
   */
  async fundForBalance(
    balance: OperationInput<'wallet.balance'>,
    recorded: ReadOutcome<OperationResult<'wallet.balance'>>,
    liveKey: string | null,
  ): Promise<string | null> {
    const liveAddress = balance.address;
    const chainName = balance.chain ?? (recorded.kind === 'ok' ? recorded.value.chain : null);
    if (chainName === null) return 'the recorded balance names no chain';
    const key = `${chainName}|${liveAddress}`;
    if (this.funded.has(key)) return this.funded.get(key) ?? null;
    const wanted = recorded.kind === 'ok' ? recorded.value.amount : null;
    const live = await this.session.call('wallet.balance', { ...balance, chain: chainName }, liveKey);
    const held = live.kind === 'ok' ? live.value.amount : null;
    const why =
      wanted === null || held === null
        ? 'the recorded or the live balance shows no amount'
        : ((await this.mint(liveAddress, chainName, shortfall(wanted, held))) ??
          (await this.mintTokens(
            liveAddress,
            chainName,
            recorded,
            live.kind === 'ok' ? (live.value.tokens ?? []) : [],
          )));
    if (this.funded.size < FUNDED_MAX) this.funded.set(key, why);
    return why;
  }

  /**
   * The recorded token holdings the live address lacks, minted per token. A target that lists no
   * tokens (a deployment's balance shows the native coin only, DEPLOYED.md §6) is taken to hold
   * none: the replay funds each address once, before its first recorded balance, on a fresh wallet.
   */
  private async mintTokens(
    address: string,
    chain: string,
    recorded: ReadOutcome<OperationResult<'wallet.balance'>>,
    liveTokens: readonly WalletTokenAmount[],
  ): Promise<string | null> {
    const tokens = recorded.kind === 'ok' ? (recorded.value.tokens ?? []) : [];
    for (const token of tokens.slice(0, TOKENS_MAX)) {
      if (token.contract === null || token.amount === null) continue;
      const held = liveTokens.find((item) => item.contract === token.contract)?.amount ?? '0';
      const why = await this.mint(address, chain, shortfall(token.amount, held), token.contract);
      if (why !== null) return `${token.symbol ?? token.contract}: ${why}`;
    }
    return null;
  }

  /**
   * A wallet exchange's funds on the target: a balance's address is funded with its recorded
   * amount first (afp serve); a send the recording accepted from an address the replay could not
   * fund is not replayed. Returns why not, or null.
   */
  async fundsFor(
    exchange: RecordedExchange,
    sent: { readonly op: OperationName; readonly input: unknown; readonly liveKey: string | null },
    recorded: ReadOutcome<unknown>,
    bindings: Bindings,
  ): Promise<string | null> {
    if (recorded.kind !== 'ok') return null;
    if (sent.op === 'wallet.balance') {
      const balance = sent.input as OperationInput<'wallet.balance'>;
      const outcome = recorded as ReadOutcome<OperationResult<'wallet.balance'>>;
      const why = await this.fundForBalance(balance, outcome, sent.liveKey);
      return why === null ? null : `the address could not be funded with its recorded balance (${why})`;
    }
    if (sent.op !== 'wallet.send') return null;
    const chain = (sent.input as OperationInput<'wallet.send'>).chain;
    const why = this.unfunded(exchange, exchange.request.body, chain, sent.liveKey, bindings);
    return why === null ? null : `the send cannot be funded on the target: ${why}`;
  }

  /** Why a recorded send cannot be funded on the target (its live sender was never funded by the replay), or null. */
  unfunded(
    exchange: RecordedExchange,
    body: unknown,
    chain: string,
    liveKey: string | null,
    bindings: Bindings,
  ): string | null {
    const sender = this.keyring.sender(exchange, body, liveKey ?? undefined, bindings);
    if (sender === null) return 'its sender has no wallet the replay created on the target';
    const funded = this.funded.get(`${chain}|${sender}`);
    if (funded === undefined)
      return `the record carries no funding of ${sender} on ${chain} (no recorded balance before the send), and a fresh target holds nothing there`;
    return funded;
  }

  private async mint(address: string, chain: string, amount: string | null, token?: string): Promise<string | null> {
    const { target } = this.session;
    if (amount === null) return 'the recorded or the live balance is no plain decimal amount';
    if (/^0+(\.0+)?$/.test(amount)) return null;
    const admin = this.session.admin();
    if (admin === null)
      return `${target.name} is no afp serve: a wallet address is funded only by a chain deposit afp cannot make`;
    const minted = await admin.walletMint({ chain, address, amount, ...(token === undefined ? {} : { token }) });
    if (minted.ok) return null;
    return minted.kind === 'unreachable'
      ? `POST /_afp/wallet/mint failed: ${minted.message}`
      : `POST /_afp/wallet/mint answered ${minted.status}`;
  }
}

const DECIMAL = /^(\d{1,40})(?:\.(\d{1,40}))?$/;

/** `wanted − held` of two native decimal amounts, as a decimal ("0" when held covers it); null when either is no plain decimal. */
export function shortfall(wanted: string, held: string): string | null {
  const a = DECIMAL.exec(wanted);
  const b = DECIMAL.exec(held);
  if (a === null || b === null) return null;
  const scale = Math.max(a[2]?.length ?? 0, b[2]?.length ?? 0);
  const units = (match: RegExpExecArray): bigint => BigInt(`${match[1] ?? '0'}${(match[2] ?? '').padEnd(scale, '0')}`);
  const missing = units(a) - units(b);
  if (missing <= 0n) return '0';
  const digits = missing.toString().padStart(scale + 1, '0');
  return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}
