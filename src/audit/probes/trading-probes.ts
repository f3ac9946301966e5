/**
 * The money probes of a live target's trading service (`afp audit money --target`), each a small
 * experiment whose result is findings with evidence and a reproducing request:
 *   - trading overdraw: a perpetual position at leverage 1 larger than the balance must be refused
 *     and leave the balance as it was;
 *   - trading margin: at leverage 10, a position whose margin (size / 10) is 1 USDC more than the
 *     balance must be refused and leave the balance as it was (margin, not notional, is what the
 *     balance must cover; a target that took the margin anyway lets an agent overdraw).
 * The account: where the dialect registers trading agents of their own (the deployment's trading
 * keeps its own agents, keys and balances, DEPLOYED.md §1.1) the probe registers one and reads its
 * trading balance; elsewhere it spends from the main account and reads the casino balance (afp's
 * one platform). The refusal status expected is the dialect's documented one: 422 where errors
 * carry a `code` (the documents), 400 where they carry a snake_case `error` (the deployment,
 * DEPLOYED.md §1.2); another status is a minor rule finding, never a money finding.
 * Liquidation: liquidation-probe.ts.
 */
import type { JsonValue } from '../../core/errors.ts';
import { formatDecimal, type Micro } from '../../core/money.ts';
import { dialectByName, type CallOutcome, type SentRequest, refusalWords } from '../../live.ts';
import type { FindingInput } from '../../report/findings/finding.ts';
import type { ProbeContext } from './probe-context.ts';

/** The perpetual the trading probes order on (listed on every afp trading service; `BTC` on the deployment). */
const PROBE_MARKET = 'BTC-PERP';
const USDC = 1_000_000n;

type Raise = (finding: FindingInput) => void;
type ProbeOutcome = { status: 'ran' | 'skipped'; note: string };

export interface TradingAccount {
  readonly apiKey: string;
  /** How the account was found, for the note. */
  readonly label: string;
  balance(): Promise<Micro | null>;
}

/** `funded`: a fresh account of a trading service with accounts of its own is funded the target's way first (`fundOwnAccount`); the overdraw probes want it empty. */
export async function tradingAccount(context: ProbeContext, funded = false): Promise<TradingAccount | string> {
  const { session } = context;
  if (session.offers('trading.register') === null && session.offers('trading.balance') === null) {
    const registered = await session.call('trading.register', {}, null);
    if (registered.kind !== 'ok')
      return `a trading agent could not be registered: ${registered.kind === 'refused' ? refusalWords(registered.refusal) : registered.kind}`;
    const apiKey = registered.value.apiKey;
    if (funded) {
      if (context.fundOwnAccount === undefined)
        return 'the trading service keeps its own accounts, and this audit cannot fund one';
      const funding = await context.fundOwnAccount('trading', registered.value.agentId, apiKey);
      if (!funding.ok)
        return `the trading service keeps its own accounts, and funding ${registered.value.agentId} failed: ${funding.message}`;
    }
    return {
      apiKey,
      label: `trading agent ${registered.value.agentId}`,
      balance: async () => {
        const outcome = await session.call('trading.balance', {}, apiKey);
        return outcome.kind === 'ok' ? outcome.value.balanceMicro : null;
      },
    };
  }
  return {
    apiKey: context.apiKey,
    label: 'the main account',
    balance: async () => {
      const outcome = await session.call('casino.balance', {}, context.apiKey);
      return outcome.kind === 'ok' ? outcome.value.balanceMicro : null;
    },
  };
}

/** The refusal status the trading service's dialect documents for a short balance. */
export function documentedStatus(context: ProbeContext): number {
  const entry = context.session.target.services.trading;
  return entry !== undefined && dialectByName(entry.dialect).errorName === 'error' ? 400 : 422;
}

function requestOf(outcome: CallOutcome<unknown>): SentRequest | null {
  return 'request' in outcome ? outcome.request : null;
}

/** Orders `sizeMicro` at `leverage` on an account that cannot cover it; findings when it is not refused or the balance moves. */
async function refusedOrder(
  context: ProbeContext,
  raise: Raise,
  probe: { name: string; leverage: number; size: (balance: Micro) => Micro; what: string },
): Promise<ProbeOutcome> {
  if (context.session.offers('trading.order') !== null)
    return { status: 'skipped', note: context.session.offers('trading.order') ?? '' };
  const account = await tradingAccount(context);
  if (typeof account === 'string') return { status: 'skipped', note: account };
  const before = await account.balance();
  if (before === null) return { status: 'skipped', note: 'the balance could not be read' };
  const sizeMicro = probe.size(before);
  const outcome = await context.session.call(
    'trading.order',
    { symbol: PROBE_MARKET, side: 'long', sizeMicro, leverage: probe.leverage },
    account.apiKey,
  );
  const after = await account.balance();
  const request = requestOf(outcome);
  const reproduce = request === null ? {} : { reproduce: context.curlOf(request) };
  const expectedStatus = documentedStatus(context);
  const text = `a ${PROBE_MARKET} position of ${formatDecimal(sizeMicro)} USDC at leverage ${probe.leverage}`;
  if (outcome.kind === 'ok') {
    raise({
      id: `money:trading:${probe.name}-accepted`,
      severity: 'critical',
      kind: 'money',
      title: `${text} (${probe.what}) was opened on a balance of ${formatDecimal(before)}`,
      endpoint: 'trading.order',
      expected: `refused ${expectedStatus} (insufficient balance)`,
      seen: (outcome.body ?? null) as JsonValue,
      evidence: `balance before ${formatDecimal(before)}, after ${after === null ? 'unreadable' : formatDecimal(after)}`,
      ...reproduce,
    });
  } else if (outcome.kind === 'refused' && outcome.refusal.status !== expectedStatus) {
    raise({
      id: `rule:trading:${probe.name}-status`,
      severity: 'minor',
      kind: 'rule',
      title: `${text} (${probe.what}) was refused ${refusalWords(outcome.refusal)}, not ${expectedStatus}`,
      endpoint: 'trading.order',
      expected: `${expectedStatus} (insufficient balance)`,
      seen: outcome.refusal.status,
      evidence: outcome.refusal.message,
      ...reproduce,
    });
  }
  if (after !== null && after !== before) {
    raise({
      id: `money:trading:${probe.name}-balance-${after > before ? 'rose' : 'fell'}`,
      severity: 'critical',
      kind: 'money',
      title: `after ${text} (${probe.what}) the balance ${after > before ? 'rose' : 'fell'} from ${formatDecimal(before)} to ${formatDecimal(after)}`,
      endpoint: 'trading.order',
      expected: formatDecimal(before),
      seen: formatDecimal(after),
      evidence: `order answer: ${outcome.kind}`,
      ...reproduce,
    });
  }
  return {
    status: 'ran',
    note: `${account.label}: order of ${formatDecimal(sizeMicro)} at leverage ${probe.leverage} on ${formatDecimal(before)}: ${outcome.kind === 'refused' ? `refused (${refusalWords(outcome.refusal)})` : outcome.kind}`,
  };
}

/** Leverage 1: the margin is the whole size, 1 USDC more than the balance (at least the 1 USDC minimum order). */
export function tradingOverdraw(context: ProbeContext, raise: Raise): Promise<ProbeOutcome> {
  return refusedOrder(context, raise, {
    name: 'overdraw',
    leverage: 1,
    what: 'larger than the balance',
    size: (balance) => ((balance + USDC) / USDC + 1n) * USDC,
  });
}

/** Leverage 10: the margin, a tenth of the size, is 1 USDC more than the balance. */
export function tradingMargin(context: ProbeContext, raise: Raise): Promise<ProbeOutcome> {
  return refusedOrder(context, raise, {
    name: 'margin',
    leverage: 10,
    what: 'margin above the balance',
    size: (balance) => ((balance + USDC) / USDC + 1n) * USDC * 10n,
  });
}
