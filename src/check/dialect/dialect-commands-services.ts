/**
 * The trading and domains commands of `afp check --target` through a target's dialects, one row
 * per command (as dialect-commands.ts): each predicts from the model of dialect-model-services.ts,
 * sends through the LiveSession and compares. Money is compared exactly where both the documents
 * and the deployment fix it (margin = size / leverage, a refusal moves nothing, a gift moves no
 * money, balance = before − margin − fee ± what a close returns); where they differ (the fee rate,
 * refusal names, the priced transfer) the value is judged by documented-rules.ts: the documents'
 * passes, the dialect's own is an info finding, anything else a minor rule finding (the target's own rule).
 * Rows need the check's own accounts on the service (`service`); where the check cannot open and
 * fund them (a deployment's trading and domains take chain deposits afp cannot make) the rows are
 * left out with that reason. Amounts are small: positions of 2 to 5 USDC, .xyz names for a year.
 * Limit orders, the positions list, the price and the leverage default are dialect-commands-trading.ts's;
 * the domains check, DNS records and the registration race dialect-commands-domains.ts's.
 */
import fc from 'fast-check';
import { formatDecimal, type Micro } from '../../core/money.ts';
import { type OperationName, ruleFinding, type Refusal, type SentRequest, statedDomainMaximum } from '../../live.ts';
import type { ServiceName } from '../../platform/platform.ts';
import { CheckMismatch } from '../check-mismatch.ts';
import {
  accepted,
  acceptedOutcome,
  judged,
  refused,
  send,
  type DialectCommand,
  type DialectCommandRow,
} from './dialect-commands.ts';
import { throwIfOutage } from './target-outage.ts';
import type { DialectModel, DialectSystem } from './dialect-model.ts';
import { runNameCommand, serviceCommand } from './service-command.ts';
import {
  NAMES_PER_RUN,
  POSITIONS_MAX,
  type DialectDomainsModel,
  type HeldName,
  type DialectServiceAccount,
  type DialectTradingModel,
} from './dialect-model-services.ts';

const USDC = 1_000_000n;
const MARKETS = ['BTC-PERP', 'ETH-PERP', 'SOL-PERP'] as const;
/** The deployment's largest position (DEPLOYED.md §5), plus one USDC. */
const TOO_LARGE_MICRO = 10_001n * USDC;
/** A fee's share of the size, in 0.001% steps: afp's taker 0.2%, the deployment's 0.035% plus a builder 0.02, 0.01 or 0%. */
const FEE_RATES: readonly { readonly thousandthsOfPercent: bigint; readonly seen: string }[] = [
  { thousandthsOfPercent: 200n, seen: '0.2%' },
  { thousandthsOfPercent: 55n, seen: '0.035% + builder fee' },
  { thousandthsOfPercent: 45n, seen: '0.035% + builder fee' },
  { thousandthsOfPercent: 35n, seen: '0.035% + builder fee' },
];

const text = (micro: Micro): string => formatDecimal(micro);

/** The fee rate a fee shows for `sizeMicro` (rounded either way to the micro), as the rule's text. */
function feeRateText(feeMicro: Micro, sizeMicro: Micro): string {
  for (const rate of FEE_RATES) {
    const exact = sizeMicro * rate.thousandthsOfPercent;
    const scaled = feeMicro * 100_000n;
    if (scaled >= exact - 100_000n && scaled <= exact + 100_000n) return rate.seen;
  }
  return `${formatDecimal((feeMicro * 100n * USDC) / sizeMicro)}%`;
}

function compareBalance(label: string, account: DialectServiceAccount, seen: Micro): void {
  if (!account.unsure && seen !== account.balanceMicro)
    throw new CheckMismatch(`${label}: ${text(seen)}, expected ${text(account.balanceMicro)}`);
  account.balanceMicro = seen;
  account.unsure = false;
}

const tradingBalanceCommand = fc.constant(
  serviceCommand(
    'trading',
    'tradingBalance()',
    () => true,
    async (trading, system) => {
      const { value } = await accepted(system, 'tradingBalance()', 'trading.balance', {}, trading.account.apiKey);
      compareBalance('tradingBalance(): free balance', trading.account, value.balanceMicro);
      const heldMicro = trading.positions.reduce(
        (sum, position) => sum + position.marginMicro,
        trading.baseMarginMicro,
      );
      if (value.marginMicro !== null && value.marginMicro !== heldMicro)
        throw new CheckMismatch(
          `tradingBalance(): margin in use ${text(value.marginMicro)}, expected ${text(heldMicro)} (the open positions' margins)`,
        );
    },
  ),
);

const openCommand = fc
  .record({
    market: fc.constantFrom(...MARKETS),
    side: fc.constantFrom<'long' | 'short'>('long', 'short'),
    sizeMicro: fc.constantFrom(2n * USDC, 4n * USDC, 5n * USDC),
    leverage: fc.constantFrom(1, 2, 5),
  })
  .map(({ market, side, sizeMicro, leverage }) => {
    const label = `tradeOpen(${market} ${side} ${text(sizeMicro)} ×${leverage})`;
    const marginMicro = sizeMicro / BigInt(leverage);
    return serviceCommand(
      'trading',
      label,
      (trading) => {
        // Room for the margin and a fee of up to 1%; one position per market (an open on a held one adds to it).
        return (
          trading.positions.length < POSITIONS_MAX &&
          !trading.positions.some((position) => position.symbol === market) &&
          trading.account.balanceMicro >= marginMicro + sizeMicro / 100n
        );
      },
      async (trading, system) => {
        const { value, request } = await accepted(
          system,
          label,
          'trading.order',
          { symbol: market, side, sizeMicro, leverage },
          trading.account.apiKey,
        );
        if (value.marginMicro !== null && value.marginMicro !== undefined && value.marginMicro !== marginMicro)
          throw new CheckMismatch(
            `${label}: margin ${text(value.marginMicro)}, expected size / leverage = ${text(marginMicro)}`,
          );
        if (value.positionId === null || value.positionId === undefined)
          throw new CheckMismatch(`${label}: the answer names no position to close`);
        if (value.feeMicro === null) trading.account.unsure = true;
        else
          judged(system, label, 'trading.fee.rate', 'trading.order', feeRateText(value.feeMicro, sizeMicro), request);
        trading.account.balanceMicro -= marginMicro + (value.feeMicro ?? 0n);
        trading.positions.push({ id: value.positionId, symbol: market, marginMicro });
      },
    );
  });

const closeCommand = fc.nat({ max: POSITIONS_MAX - 1 }).map((index) => {
  const label = `tradeClose(position#${index})`;
  return serviceCommand(
    'trading',
    label,
    (trading) => trading.positions.length > 0,
    async (trading, system) => {
      const at = index % trading.positions.length;
      const position = trading.positions[at];
      if (position === undefined) throw new Error(`${label}: precondition broken`);
      const { value } = await accepted(
        system,
        label,
        'trading.close',
        { positionId: position.id },
        trading.account.apiKey,
      );
      if (value.pnlMicro === null || value.feeMicro === null) trading.account.unsure = true;
      trading.account.balanceMicro += position.marginMicro + (value.pnlMicro ?? 0n) - (value.feeMicro ?? 0n);
      trading.positions.splice(at, 1);
    },
  );
});

/** A market the run holds no position on (an order on a held one adds to it, or is refused on the other side), or null. */
function freeMarket(trading: Readonly<DialectTradingModel>): string | null {
  return MARKETS.find((market) => !trading.positions.some((position) => position.symbol === market)) ?? null;
}

const openAboveBalanceCommand = fc.constant(
  serviceCommand(
    'trading',
    'tradeAboveBalance()',
    (trading) => freeMarket(trading) !== null,
    async (trading, system) => {
      // At leverage 1 the margin is the size: a whole USDC more than the balance (and at least the 1 USDC minimum).
      const sizeMicro = trading.account.balanceMicro + USDC;
      const refusal = await refused(
        system,
        'tradeAboveBalance()',
        'trading.order',
        { symbol: freeMarket(trading) ?? MARKETS[0], side: 'long', sizeMicro, leverage: 1 },
        trading.account.apiKey,
      );
      judged(
        system,
        'tradeAboveBalance()',
        'trading.refusal.over-balance',
        'trading.order',
        refusal.text,
        refusal.request,
      );
    },
  ),
);

const openTooLargeCommand = fc.constant(
  serviceCommand(
    'trading',
    'tradeTooLarge()',
    (trading) => freeMarket(trading) !== null && trading.account.balanceMicro < TOO_LARGE_MICRO / 10n,
    async (trading, system) => {
      const refusal = await refused(
        system,
        'tradeTooLarge()',
        'trading.order',
        { symbol: freeMarket(trading) ?? MARKETS[0], side: 'long', sizeMicro: TOO_LARGE_MICRO, leverage: 10 },
        trading.account.apiKey,
      );
      judged(system, 'tradeTooLarge()', 'trading.refusal.too-large', 'trading.order', refusal.text, refusal.request);
    },
  ),
);

const domainsBalanceCommand = fc.constantFrom<0 | 1>(0, 0, 1).map((slot) => {
  const label = `domainsBalance(d${slot})`;
  return serviceCommand(
    'domains',
    label,
    () => true,
    async (domains, system) => {
      const account = domains.accounts[slot];
      const { value } = await accepted(system, label, 'domains.balance', {}, account.apiKey);
      compareBalance(label, account, value.balanceMicro);
    },
  );
});

const registerCommand = fc.nat({ max: NAMES_PER_RUN - 1 }).map((index) => {
  const label = `domainRegister(d0, name#${index})`;
  return runNameCommand(
    label,
    index,
    (domains, name) => domains.held.has(name) || domains.accounts[0].balanceMicro > 0n,
    async (domains, name, system) => {
      const account = domains.accounts[0];
      if (domains.held.has(name)) {
        const refusal = await refused(
          system,
          `${label} again`,
          'domains.register',
          { domain: name, years: 1 },
          account.apiKey,
        );
        judged(system, label, 'domains.refusal.taken', 'domains.register', refusal.text, refusal.request);
        return;
      }
      const outcome = await system.session.call('domains.register', { domain: name, years: 1 }, account.apiKey);
      await throwIfOutage(system, label, 'domains.register', outcome);
      if (outcome.kind === 'refused') {
        if (learnedDomainMaximum(system, label, outcome.refusal, outcome.request)) return;
        // The price is the target's: a balance short of it is a refusal that moves nothing, judged as the dialect documents it.
        judged(
          system,
          label,
          'domains.refusal.over-balance',
          'domains.register',
          `${outcome.refusal.status} ${outcome.refusal.name}`,
          outcome.request,
        );
        return;
      }
      if (outcome.kind !== 'ok')
        throw new Error(`${label}: ${outcome.kind === 'unreachable' ? outcome.message : outcome.kind}`);
      const { value } = outcome;
      if (value.domain !== null && value.domain !== name)
        throw new CheckMismatch(`${label}: registered '${value.domain}', asked '${name}'`);
      if (value.costMicro === null) account.unsure = true;
      else if (value.costMicro <= 0n)
        throw new CheckMismatch(`${label}: a registration that costs ${text(value.costMicro)}`);
      account.balanceMicro -= value.costMicro ?? 0n;
      domains.held.set(name, { holder: 0, domainId: value.domainId ?? null, costMicro: value.costMicro });
    },
  );
});

const lookupCommand = fc.nat({ max: NAMES_PER_RUN - 1 }).map((index) => {
  const label = `domainLookup(name#${index})`;
  return runNameCommand(
    label,
    index,
    () => true,
    async (domains, name, system) => {
      const { value } = await accepted(system, label, 'domains.lookup', { domain: name }, domains.accounts[0].apiKey);
      const held = domains.held.get(name);
      const expected = held === undefined ? null : domains.accounts[held.holder].agentId;
      if (value.owner !== expected)
        throw new CheckMismatch(
          `${label}: held by ${String(value.owner)}, expected ${expected ?? 'nobody (never registered)'}`,
        );
    },
  );
});

/** A command on the `index`-th name the run holds (cycling), once it holds one. */
function heldNameCommand(
  label: string,
  index: number,
  body: (domains: DialectDomainsModel, name: string, held: HeldName, system: DialectSystem) => Promise<void>,
): DialectCommand {
  return serviceCommand(
    'domains',
    label,
    (domains) => domains.held.size > 0,
    async (domains, system) => {
      const names = [...domains.held.entries()];
      const [name, held] = names[index % names.length] ?? [];
      if (name === undefined || held === undefined) throw new Error(`${label}: precondition broken`);
      await body(domains, name, held, system);
    },
  );
}

/**
 * A registration or gift refused with a per-agent domain maximum the refusal states
 * (stated-domain-maximum.ts): the target's rule, a minor finding, nothing moved; true. Any other
 * refusal: false. The check cannot see how many names an account holds from earlier runs, so the
 * stated cap is taken at its word, as a stated minimum bet is.
 */
export function learnedDomainMaximum(
  system: DialectSystem,
  label: string,
  refusal: Refusal,
  request: SentRequest,
): boolean {
  const stated = statedDomainMaximum(refusal);
  if (stated === null) return false;
  system.raise({
    id: 'rule:domains:per-agent-maximum',
    severity: 'minor',
    kind: 'rule',
    title: `the target lets an agent hold at most ${stated} domains (its refusal says so), where the documents set no such maximum`,
    endpoint: 'domains.register, domains.transfer',
    expected: 'no per-agent maximum of domains (platform.md)',
    seen: refusal.body,
    evidence: `${label}: ${refusal.status} ${refusal.name} (${refusal.message})`,
    reproduce: system.curlOf(request),
  });
  return true;
}

const giftCommand = fc.nat({ max: NAMES_PER_RUN - 1 }).map((index) => {
  const label = `domainGift(held#${index})`;
  return heldNameCommand(label, index, async (domains, name, held, system) => {
    const to = (1 - held.holder) as 0 | 1;
    const giver = domains.accounts[held.holder];
    const described = `${label}: ${name} d${held.holder} → d${to}`;
    const input = { domain: name, to: domains.accounts[to].agentId, priceMicro: null, domainId: held.domainId };
    const outcome = await send(system, described, 'domains.transfer', input, giver.apiKey);
    // d1 may hold names from earlier runs of the invocation: a refusal that states a cap is the target's rule.
    if (outcome.kind === 'refused' && learnedDomainMaximum(system, described, outcome.refusal, outcome.request)) return;
    const { value } = acceptedOutcome(described, outcome);
    if (value.owner !== null && value.owner !== domains.accounts[to].agentId)
      throw new CheckMismatch(
        `${label}: the answer names ${value.owner} the holder, expected ${domains.accounts[to].agentId}`,
      );
    held.holder = to;
  });
});

const pricedTransferCommand = fc.nat({ max: NAMES_PER_RUN - 1 }).map((index) => {
  const label = `domainOffer(held#${index}, 1.00)`;
  return heldNameCommand(label, index, async (domains, name, held, system) => {
    const input = {
      domain: name,
      to: domains.accounts[1 - held.holder]?.agentId ?? '',
      priceMicro: USDC,
      domainId: held.domainId,
    };
    const outcome = await system.session.call('domains.transfer', input, domains.accounts[held.holder].apiKey);
    await throwIfOutage(system, label, 'domains.transfer', outcome);
    const op: OperationName = 'domains.transfer';
    const dialect = system.session.target.services['domains' as ServiceName]?.dialect ?? 'A';
    if (outcome.kind === 'unsupported') {
      // The dialect has no field for a price: nothing is sent, nothing moves; the difference is the documented one.
      const finding = ruleFinding('domains.transfer.priced', dialect, 'no priced transfer', {
        endpoint: op,
        evidence: outcome.reason,
      });
      if (finding !== null) system.raise(finding);
      return;
    }
    if (outcome.kind !== 'ok')
      throw new CheckMismatch(
        `${label}: ${outcome.kind === 'refused' ? `refused ${outcome.refusal.status} ${outcome.refusal.name}` : outcome.kind}, expected the offer accepted`,
      );
    // An offer moves nothing until the buyer accepts it: the holder stays.
  });
});

export const SERVICE_COMMANDS: readonly DialectCommandRow[] = [
  {
    name: 'tradingBalance',
    operations: ['trading.balance'],
    accounts: 0,
    service: 'trading',
    weight: 2,
    arbitrary: tradingBalanceCommand,
  },
  {
    name: 'tradeOpen',
    operations: ['trading.order'],
    accounts: 0,
    service: 'trading',
    weight: 3,
    arbitrary: openCommand,
  },
  {
    name: 'tradeClose',
    operations: ['trading.close'],
    accounts: 0,
    service: 'trading',
    weight: 2,
    arbitrary: closeCommand,
  },
  {
    name: 'tradeAboveBalance',
    operations: ['trading.order'],
    accounts: 0,
    service: 'trading',
    weight: 1,
    arbitrary: openAboveBalanceCommand,
  },
  {
    name: 'tradeTooLarge',
    operations: ['trading.order'],
    accounts: 0,
    service: 'trading',
    weight: 1,
    arbitrary: openTooLargeCommand,
  },
  {
    name: 'domainsBalance',
    operations: ['domains.balance'],
    accounts: 0,
    service: 'domains',
    weight: 2,
    arbitrary: domainsBalanceCommand,
  },
  {
    name: 'domainRegister',
    operations: ['domains.register'],
    accounts: 0,
    service: 'domains',
    weight: 3,
    arbitrary: registerCommand,
  },
  {
    name: 'domainLookup',
    operations: ['domains.lookup'],
    accounts: 0,
    service: 'domains',
    weight: 2,
    arbitrary: lookupCommand,
  },
  {
    name: 'domainGift',
    operations: ['domains.transfer'],
    accounts: 0,
    service: 'domains',
    weight: 2,
    arbitrary: giftCommand,
  },
  {
    name: 'domainOffer',
    operations: ['domains.transfer'],
    accounts: 0,
    service: 'domains',
    weight: 1,
    arbitrary: pricedTransferCommand,
  },
];

/** Closes the positions a run left open (its last commands, or a failure, left them): the next run starts flat. Outcomes are not judged. */
export async function closeLeftPositions(model: DialectModel, system: DialectSystem): Promise<void> {
  const trading = model.trading;
  if (trading === null) return;
  for (const position of trading.positions.splice(0))
    await system.session.call('trading.close', { positionId: position.id }, trading.account.apiKey);
}
