/**
 * The probes of a live target's wallet (`afp audit money --target`), each a small experiment whose
 * result is findings with evidence and a reproducing request:
 *   - wallet wrong key: a send signed by the key of an address that holds nothing must be refused
 *     (4xx) and move nothing — a target that broadcast it anyway signs for keys it should not;
 *   - wallet documents: where the documents and the deployment disagree (DEPLOYED.md §6's table),
 *     afp measures what the target does and judges it by a documented rule (documented-rules.ts):
 *     the documents' value passes, the dialect's documented value is an info finding, anything
 *     else a minor rule finding — never a failure of a working target. Measured: the status of a
 *     create (200 / 201), a balance without chain (400 / base), a quote by symbols (400 /
 *     answered), the swap window per address (31 invalid swaps: over 30 / 30), style A's and B's
 *     balance calls (served / not served).
 * Both register a wallet agent of their own (the deployment's wallet keeps its own agents and
 * keys, DEPLOYED.md §1.1) and create wallets; nothing needs funds, so they run on any target that
 * names a wallet (skipped elsewhere).
 * Limits: at most 31 swap requests (each refused before anything is created), about 10 others.
 */
import type { JsonValue } from '../../core/errors.ts';
import { ruleFinding, type RuleName, type CallOutcome, type SentRequest, refusalWords } from '../../live.ts';
import type { FindingInput } from '../../report/findings/finding.ts';
import type { ProbeContext } from './probe-context.ts';

type Raise = (finding: FindingInput) => void;
type ProbeOutcome = { status: 'ran' | 'skipped'; note: string };

/** One more than the deployment's swap window (DEPLOYED.md §6: 30 per IP per 60 s). */
export const SWAP_WINDOW_PROBES = 31;
const PROBE_AMOUNT = '0.001';

interface WalletAgent {
  readonly apiKey: string;
  readonly agentId: string;
  readonly addresses: Readonly<Record<string, string>>;
  readonly mnemonic: string | null;
  /** The create call's HTTP status and request, for the create-status rule. */
  readonly createStatus: number;
  readonly createRequest: SentRequest;
}

function requestOf(outcome: CallOutcome<unknown>): SentRequest | null {
  return 'request' in outcome ? outcome.request : null;
}

function outcomeText(outcome: CallOutcome<unknown>): string {
  if (outcome.kind === 'refused') return `refused ${outcome.refusal.status}`;
  return outcome.kind === 'ok' ? 'answered' : outcome.kind;
}

/** A wallet agent of its own with one fresh wallet; a text saying why when the target cannot. */
async function walletAgent(context: ProbeContext): Promise<WalletAgent | string> {
  const { session } = context;
  const missing = session.offers('wallet.register') ?? session.offers('wallet.create');
  if (missing !== null) return missing;
  const registered = await session.call('wallet.register', {}, null);
  if (registered.kind !== 'ok') return `a wallet agent could not be registered: ${outcomeText(registered)}`;
  const created = await session.call('wallet.create', {}, registered.value.apiKey);
  if (created.kind !== 'ok') return `a wallet could not be created: ${outcomeText(created)}`;
  return {
    apiKey: registered.value.apiKey,
    agentId: registered.value.agentId,
    addresses: created.value.addresses,
    mnemonic: created.value.mnemonic,
    createStatus: created.status,
    createRequest: created.request,
  };
}

/**
 * A created wallet's mnemonic that is no valid BIP-39 mnemonic (a word outside the English list, a
 * word count other than 12 to 24 in threes, a failing checksum): major, since no key, and so no
 * fund of the wallet, can be recovered from it (wallet.md: the mnemonic is the non-custodial
 * wallet's only copy of its keys). The words are not shown: a mnemonic is a secret, even a probe's.
 */
export function invalidMnemonicFinding(mnemonic: string, reproduce: string): FindingInput {
  const words = mnemonic
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '').length;
  return {
    id: 'shape:wallet.create:mnemonic:invalid',
    severity: 'major',
    kind: 'shape',
    title: `a created wallet's mnemonic (${words} words) is no valid BIP-39 mnemonic: no key can be derived from it`,
    endpoint: 'wallet.create',
    field: 'mnemonic',
    expected: 'a BIP-39 mnemonic: 12 to 24 words of the English list whose checksum holds',
    seen: `${words} words failing the word list, the word count or the checksum`,
    evidence: 'POST wallet.create answered it; the probes that derive a key of it were skipped',
    reproduce,
  };
}

/**
 * The base key of a mnemonic the target gave, or the probe skipped. The mnemonic is the target's
 * answer, not afp's: one that is no BIP-39 mnemonic is a finding (it crashed the audit, exit 1:
 * deriveWallet asserts a valid one). The keys' code (the curves) is import()ed here, the one place
 * an audit derives a key: an audit's start does not load it.
 */
async function baseKeyOf(mnemonic: string, reproduce: () => string, raise: Raise): Promise<string | ProbeOutcome> {
  const { deriveWallet, isValidMnemonic } = await import('../../services/wallet/keys/wallet-keys.ts');
  if (isValidMnemonic(mnemonic)) return deriveWallet(mnemonic).privateKeys.base;
  raise(invalidMnemonicFinding(mnemonic, reproduce()));
  return {
    status: 'skipped',
    note: "the second wallet's mnemonic is no valid BIP-39 mnemonic, so no key of it can be derived",
  };
}

/** A send signed by the key of an empty address must be refused and move nothing. */
export async function walletWrongKey(context: ProbeContext, raise: Raise): Promise<ProbeOutcome> {
  const { session } = context;
  if (session.offers('wallet.send') !== null) return { status: 'skipped', note: session.offers('wallet.send') ?? '' };
  const agent = await walletAgent(context);
  if (typeof agent === 'string') return { status: 'skipped', note: agent };
  const other = await session.call('wallet.create', {}, agent.apiKey);
  if (other.kind !== 'ok' || other.value.mnemonic === null || agent.addresses['base'] === undefined)
    return { status: 'skipped', note: 'a second wallet (with its mnemonic) could not be created' };
  const emptyKey = await baseKeyOf(other.value.mnemonic, () => context.curlOf(other.request), raise);
  if (typeof emptyKey !== 'string') return emptyKey;
  const to = agent.addresses['base'];
  const sent = await session.call(
    'wallet.send',
    { chain: 'base', to, amount: PROBE_AMOUNT, privateKey: emptyKey },
    agent.apiKey,
  );
  const request = requestOf(sent);
  const reproduce = request === null ? {} : { reproduce: context.curlOf(request) };
  if (sent.kind === 'ok') {
    raise({
      id: 'money:wallet:wrong-key-accepted',
      severity: 'critical',
      kind: 'money',
      title: `a send of ${PROBE_AMOUNT} ETH on base signed by the key of an empty address was accepted`,
      endpoint: 'wallet.send',
      expected: 'refused 4xx (nothing to send)',
      seen: (sent.body ?? null) as JsonValue,
      evidence: `tx ${sent.value.txHash}`,
      ...reproduce,
    });
  } else if (sent.kind === 'refused' && (sent.refusal.status < 400 || sent.refusal.status > 499)) {
    raise({
      id: 'rule:wallet:wrong-key-status',
      severity: 'minor',
      kind: 'rule',
      title: `a send signed by the key of an empty address was answered ${sent.refusal.status}, not a 4xx`,
      endpoint: 'wallet.send',
      expected: '4xx',
      seen: sent.refusal.status,
      evidence: sent.refusal.message,
      ...reproduce,
    });
  }
  const balance = await session.call('wallet.balance', { address: to, chain: 'base' }, agent.apiKey);
  if (balance.kind === 'ok' && balance.value.amount !== null && balance.value.amount !== '0') {
    raise({
      id: 'money:wallet:wrong-key-moved',
      severity: 'critical',
      kind: 'money',
      title: `after a send from an empty address the receiver holds ${balance.value.amount}`,
      endpoint: 'wallet.balance',
      expected: '0',
      seen: balance.value.amount,
      evidence: `send answer: ${outcomeText(sent)}`,
      ...reproduce,
    });
  }
  return {
    status: 'ran',
    note: `wallet agent ${agent.agentId}: a send from an empty address ${sent.kind === 'refused' ? `refused (${refusalWords(sent.refusal)})` : sent.kind}; receiver holds ${balance.kind === 'ok' ? (balance.value.amount ?? 'unread') : 'unread'}`,
  };
}

/** Judges `seen` by `rule` for the wallet's dialect: an info finding for the dialect's documented value, a minor one for anything else. */
function judged(
  context: ProbeContext,
  raise: Raise,
  rule: RuleName,
  seen: string,
  endpoint: string,
  request: SentRequest | null,
  evidence: string,
): string {
  const dialect = context.session.target.services.wallet?.dialect ?? 'A';
  const reproduce = request === null ? undefined : context.curlOf(request);
  const finding = ruleFinding(rule, dialect, seen, {
    endpoint,
    evidence,
    ...(reproduce === undefined ? {} : { reproduce }),
  });
  if (finding !== null) raise(finding);
  return `${rule.slice('wallet.'.length)} ${seen}`;
}

/** The swap window: invalid swaps until the first 429 (at most SWAP_WINDOW_PROBES); `30` when the 31st was the first refused. */
async function swapWindow(
  context: ProbeContext,
  apiKey: string,
  toAddress: string,
): Promise<{ seen: string; request: SentRequest | null }> {
  const { session } = context;
  const limited = (): number => session.rateLimited.get('wallet.swap')?.count ?? 0;
  const before = limited();
  let request: SentRequest | null = null;
  for (let sent = 1; sent <= SWAP_WINDOW_PROBES; sent++) {
    // Amount 0 is refused (400) before anything is created; a rate window counts it all the same.
    const outcome = await session.call(
      'wallet.swap',
      { fromChain: 'base', toChain: 'base', fromToken: 'ETH', toToken: 'USDC', amount: '0', toAddress },
      apiKey,
    );
    request = requestOf(outcome) ?? request;
    if (limited() > before) return { seen: String(sent - 1), request };
    if (outcome.kind === 'deadline' || outcome.kind === 'unreachable' || outcome.kind === 'unsupported')
      return { seen: outcome.kind, request };
  }
  return { seen: 'over 30', request };
}

/** DEPLOYED.md §6's disagreements with the documents, measured and judged. */
export async function walletDocumented(context: ProbeContext, raise: Raise): Promise<ProbeOutcome> {
  const { session } = context;
  const agent = await walletAgent(context);
  if (typeof agent === 'string') return { status: 'skipped', note: agent };
  const notes: string[] = [];
  notes.push(
    judged(
      context,
      raise,
      'wallet.create.status',
      String(agent.createStatus),
      'POST /v1/wallet/create',
      agent.createRequest,
      `create answered ${agent.createStatus}`,
    ),
  );
  const address = agent.addresses['base'] ?? '';
  const balance = await session.call('wallet.balance', { address, chain: null }, agent.apiKey);
  const balanceSeen = balance.kind === 'ok' ? `answered ${balance.value.chain ?? 'no chain'}` : outcomeText(balance);
  notes.push(
    judged(
      context,
      raise,
      'wallet.balance.chain-default',
      balanceSeen,
      'GET /v1/wallet/balance/:address',
      requestOf(balance),
      `balance of ${address} without chain: ${balanceSeen}`,
    ),
  );
  const quote = await session.call(
    'wallet.quote',
    { fromChain: 'base', toChain: 'base', fromToken: 'ETH', toToken: 'USDC', amount: '0.01' },
    agent.apiKey,
  );
  notes.push(
    judged(
      context,
      raise,
      'wallet.swap.symbols',
      outcomeText(quote),
      'GET /v1/wallet/swap/quote',
      requestOf(quote),
      `quote ETH → USDC on base by symbol: ${outcomeText(quote)}`,
    ),
  );
  notes.push(...(await styleBalances(context, raise, agent.apiKey)));
  const window = await swapWindow(context, agent.apiKey, address);
  notes.push(
    judged(
      context,
      raise,
      'wallet.swap.window',
      window.seen,
      'POST /v1/wallet/swap',
      window.request,
      `${SWAP_WINDOW_PROBES} refused swaps from one address: the first 429 after ${window.seen}`,
    ),
  );
  return { status: 'ran', note: `wallet agent ${agent.agentId}: ${notes.join('; ')}` };
}

/** Whether the wallet serves each documents style's balance: a note per style. */
async function styleBalances(context: ProbeContext, raise: Raise, apiKey: string): Promise<string[]> {
  const served: string[] = [];
  for (const style of ['A', 'B'] as const) {
    const call = await context.session.call('wallet.style-balance', { style }, apiKey);
    if (call.kind === 'unsupported') {
      served.push(`style ${style} not asked (${call.reason})`);
      continue;
    }
    const seen =
      call.kind === 'ok'
        ? 'served'
        : call.kind === 'refused' && call.refusal.status === 404
          ? 'not served'
          : outcomeText(call);
    served.push(
      judged(
        context,
        raise,
        style === 'A' ? 'wallet.style-a.served' : 'wallet.style-b.served',
        seen,
        style === 'A' ? 'GET /api/v1/balance' : 'GET /wallet-api/balance',
        requestOf(call),
        `style ${style} balance on the wallet's address: ${outcomeText(call)}`,
      ),
    );
  }
  return served;
}
