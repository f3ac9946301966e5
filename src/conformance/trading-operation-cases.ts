/**
 * The trading operation cases of the conformance suite (operation-case.ts), through any dialect
 * that offers `trading.order`: a position at leverage 1 larger than the balance, and one at
 * leverage 10 whose margin exceeds it, are refused (status and name judged by documented-rules.ts)
 * and the balance does not move. Where the dialect's trading keeps its own accounts (the deployed
 * dialect: `trading.register`, the balance from the portfolio, DEPLOYED.md §1.1, §5) a fresh
 * trading agent is registered; elsewhere the suite's first account orders and the casino balance
 * is read (afp's one platform). Costs nothing: every order is refused.
 */
import { formatDecimal } from '../core/money.ts';
import type { OperationCase, OperationCaseContext } from './operation-case.ts';

const USDC = 1_000_000n;

function account(context: OperationCaseContext): string {
  const found = context.accounts[0];
  if (found === undefined) throw new Error('case precondition broken: account 1 was not given');
  return found.apiKey;
}

async function overBalance(context: OperationCaseContext): Promise<void> {
  const own = context.session.offers('trading.register') === null && context.session.offers('trading.balance') === null;
  const apiKey = own
    ? (await context.ok('a trading agent of its own', 'trading.register', {}, null)).value.apiKey
    : account(context);
  const balance = async (label: string): Promise<bigint> =>
    own
      ? (await context.ok(label, 'trading.balance', {}, apiKey)).value.balanceMicro
      : (await context.ok(label, 'casino.balance', {}, apiKey)).value.balanceMicro;
  const beforeMicro = await balance('trading balance before');
  const orders: ReadonlyArray<readonly [string, number, bigint]> = [
    ['a BTC-PERP position at leverage 1 of the balance + 2.00', 1, (beforeMicro / USDC + 2n) * USDC],
    [
      'a BTC-PERP position at leverage 10 whose margin is the balance + 1.00',
      10,
      (beforeMicro / USDC + 1n) * USDC * 10n,
    ],
  ];
  for (const [label, leverage, sizeMicro] of orders) {
    const refusal = await context.refused(
      label,
      'trading.order',
      { symbol: 'BTC-PERP', side: 'long', sizeMicro, leverage },
      apiKey,
    );
    if (refusal !== null) context.judge('trading.refusal.over-balance', 'trading.order', refusal.text, refusal.request);
  }
  context.expect(
    'the trading balance after the refusals',
    formatDecimal(await balance('trading balance after')),
    formatDecimal(beforeMicro),
  );
}

export const TRADING_OPERATION_CASES: readonly OperationCase[] = [
  {
    kind: 'operations',
    name: 'operations: a trading position the balance cannot cover (leverage 1, or margin at leverage 10) is refused and changes nothing',
    operations: ['trading.order'],
    accounts: 1,
    run: overBalance,
  },
];
