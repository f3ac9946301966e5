/**
 * The liquidation probe of `afp audit money --target`: a live probe cannot move a real price, so
 *   1. it opens a BTC-PERP long and an ETH-PERP short at the highest documented leverage (10) and
 *      checks what the target shows against the documented rules (spec/NOTES.md "Trading"):
 *      margin = size / leverage, liquidation price = entry × (1 ∓ 1/leverage ± 0.5% maintenance)
 *      (long, short); a difference beyond rounding is a rule finding. Both sides, so that whichever
 *      way the price goes one of them meets its liquidation price;
 *   2. where afp controls the target's clock (`afp serve --clock manual`, remote-serve-clock.ts) it moves
 *      time in steps of STEP_MS, at most STEPS_MAX of them, until a position is gone, and checks
 *      the liquidation: the balance never negative and not touched (the loss is the margin, any
 *      shortfall insurance's): lower is a critical money finding, higher (margin handed back) a
 *      major rule finding. On any other target this half is "not measured", with the reason.
 * The balance is compared across the one step in which the position went, so other timers of a
 * long move (referral sweeps, escrow expiries) cannot pass for the liquidation's.
 */
import { formatDecimal, type Micro } from '../../core/money.ts';
import { type PositionView, RemoteServeClock, refusalWords } from '../../live.ts';
import type { FindingInput } from '../../report/findings/finding.ts';
import { DISPLAY_ROUNDING_MICRO, type ProbeContext } from './probe-context.ts';
import { tradingAccount, type TradingAccount } from './trading-probes.ts';

/** The two positions: opposite sides on two majors (one account nets per market). */
const LEGS: readonly { readonly symbol: string; readonly side: 'long' | 'short' }[] = [
  { symbol: 'BTC-PERP', side: 'long' },
  { symbol: 'ETH-PERP', side: 'short' },
];
type Leg = (typeof LEGS)[number];
const LEVERAGE_MAX = 10;
const SIZE_MICRO = 5_000_000n;
const MAINTENANCE_BPS = 50n;
/** The liquidation price may differ from the formula by rounding (margin up, quantity down): 5 bps of the entry. */
const PRICE_TOLERANCE_BPS = 5n;
const STEP_MS = 6 * 3_600_000;
/** 60 days of 6-hour steps: the seeded path moves a major 10% within days to weeks. */
const STEPS_MAX = 240;
const PRICE_ONE = 100_000_000n;

type Raise = (finding: FindingInput) => void;
type ProbeOutcome = { status: 'ran' | 'skipped'; note: string };

const priceText = (units: bigint): string => `${units / PRICE_ONE}.${(units % PRICE_ONE).toString().padStart(8, '0')}`;

async function openPosition(context: ProbeContext, account: TradingAccount, leg: Leg): Promise<PositionView | string> {
  const { session } = context;
  const order = await session.call(
    'trading.order',
    { symbol: leg.symbol, side: leg.side, sizeMicro: SIZE_MICRO, leverage: LEVERAGE_MAX },
    account.apiKey,
  );
  if (order.kind !== 'ok')
    return `the ${leg.symbol} ${leg.side} of ${formatDecimal(SIZE_MICRO)} at leverage ${LEVERAGE_MAX} was not accepted (${order.kind === 'refused' ? refusalWords(order.refusal) : order.kind})`;
  const listed = await openLegs(context, account);
  return listed?.get(leg) ?? `the opened ${leg.symbol} ${leg.side} is not in the positions list`;
}

/** The probe's positions still open, by leg; null when the list cannot be read. */
async function openLegs(context: ProbeContext, account: TradingAccount): Promise<Map<Leg, PositionView> | null> {
  const listed = await context.session.call('trading.positions', {}, account.apiKey);
  if (listed.kind !== 'ok') return null;
  const found = new Map<Leg, PositionView>();
  for (const leg of LEGS) {
    const position = listed.value.positions.find(
      (candidate) => candidate.symbol === leg.symbol && candidate.side === leg.side,
    );
    if (position !== undefined) found.set(leg, position);
  }
  return found;
}

/** Part 1: margin and liquidation price against the documented formulas. */
function checkFormula(leg: Leg, position: PositionView, raise: Raise): string {
  if (position.entryPrice === null)
    return `${leg.symbol} ${leg.side}: the list shows no entry price, so the formulas were not checked`;
  const entryPrice = position.entryPrice;
  const expectedMargin = (SIZE_MICRO + BigInt(LEVERAGE_MAX) - 1n) / BigInt(LEVERAGE_MAX);
  const moveBps = 10_000n / BigInt(LEVERAGE_MAX) - MAINTENANCE_BPS;
  const expectedPrice = (entryPrice * (leg.side === 'long' ? 10_000n - moveBps : 10_000n + moveBps)) / 10_000n;
  const shown = position.liquidationPrice;
  if (
    position.marginMicro !== null &&
    (position.marginMicro - expectedMargin > DISPLAY_ROUNDING_MICRO ||
      expectedMargin - position.marginMicro > DISPLAY_ROUNDING_MICRO)
  ) {
    raise({
      id: 'rule:trading:liquidation-margin',
      severity: 'minor',
      kind: 'rule',
      title: `a ${formatDecimal(SIZE_MICRO)} ${leg.symbol} ${leg.side} at leverage ${LEVERAGE_MAX} holds margin ${formatDecimal(position.marginMicro)}, not size / leverage`,
      endpoint: 'trading.positions',
      expected: formatDecimal(expectedMargin),
      seen: formatDecimal(position.marginMicro),
      evidence: `entry ${priceText(entryPrice)}`,
    });
  }
  if (shown !== null) {
    const distance = shown > expectedPrice ? shown - expectedPrice : expectedPrice - shown;
    if (distance * 10_000n > entryPrice * PRICE_TOLERANCE_BPS) {
      raise({
        id: 'rule:trading:liquidation-price',
        severity: 'minor',
        kind: 'rule',
        title: `the liquidation price of a ${leg.symbol} ${leg.side} at leverage ${LEVERAGE_MAX} is ${priceText(shown)}, not entry × (1 ${leg.side === 'long' ? '−' : '+'} 1/${LEVERAGE_MAX} ${leg.side === 'long' ? '+' : '−'} 0.5%)`,
        endpoint: 'trading.positions',
        expected: priceText(expectedPrice),
        seen: priceText(shown),
        evidence: `entry ${priceText(entryPrice)}`,
      });
    }
  }
  return `${leg.symbol} ${leg.side} entry ${priceText(entryPrice)}, margin ${position.marginMicro === null ? 'not shown' : formatDecimal(position.marginMicro)}, liquidation price ${shown === null ? 'not shown' : priceText(shown)} (formula ${priceText(expectedPrice)})`;
}

/** Part 2: moves afp serve's manual clock until the position is gone; the balance across that step must not move. */
async function driveToLiquidation(context: ProbeContext, account: TradingAccount, raise: Raise): Promise<string> {
  const { target } = context.session;
  if (!target.afpServe || target.adminUrl === null)
    return 'liquidation not measured: a live price cannot be moved and the target is not an afp serve whose clock afp controls';
  // The run's own wait clock where it is this serve's (its paces then see the moves), else a new one.
  const clock =
    context.clock instanceof RemoteServeClock ? context.clock : await RemoteServeClock.ofManualServe(target.adminUrl);
  if (clock === null)
    return "liquidation not measured: the afp serve's clock is not manual (start it with --clock manual)";
  let before = await account.balance();
  for (let step = 1; step <= STEPS_MAX; step++) {
    await clock.sleep(STEP_MS);
    const open = await openLegs(context, account);
    const after = await account.balance();
    if (open === null) return `liquidation not measured: the positions could not be read after ${step} step(s) of 6 h`;
    const gone = LEGS.filter((leg) => !open.has(leg)).map((leg) => `${leg.symbol} ${leg.side}`);
    if (gone.length === 0) {
      before = after;
      continue;
    }
    if (before === null || after === null)
      return `${gone.join(' and ')} liquidated within ${step} step(s) of 6 h; the balance could not be read`;
    return `${gone.join(' and ')} liquidated within ${step} step(s) of 6 h; ${judgeBalance(before, after, raise)}`;
  }
  return `liquidation not reached in ${STEPS_MAX} steps of 6 h`;
}

function judgeBalance(before: Micro, after: Micro, raise: Raise): string {
  const evidence = `balance before the step ${formatDecimal(before)}, after ${formatDecimal(after)}`;
  if (after < 0n)
    raise({
      id: 'money:trading:liquidation-negative',
      severity: 'critical',
      kind: 'money',
      title: `a liquidation left the balance negative (${formatDecimal(after)})`,
      endpoint: 'trading.positions',
      expected: 'at least 0',
      seen: formatDecimal(after),
      evidence,
    });
  else if (after < before)
    raise({
      id: 'money:trading:liquidation-took-balance',
      severity: 'critical',
      kind: 'money',
      title: `a liquidation took ${formatDecimal(before - after)} from the balance beyond the margin`,
      endpoint: 'trading.positions',
      expected: formatDecimal(before),
      seen: formatDecimal(after),
      evidence,
    });
  else if (after > before)
    raise({
      id: 'rule:trading:liquidation-returned-margin',
      severity: 'major',
      kind: 'rule',
      title: `a liquidation handed ${formatDecimal(after - before)} back to the balance (the margin is forfeited)`,
      endpoint: 'trading.positions',
      expected: formatDecimal(before),
      seen: formatDecimal(after),
      evidence,
    });
  return evidence;
}

export async function tradingLiquidation(context: ProbeContext, raise: Raise): Promise<ProbeOutcome> {
  const { session } = context;
  const unavailable = session.offers('trading.order') ?? session.offers('trading.positions');
  if (unavailable !== null) return { status: 'skipped', note: unavailable };
  const account = await tradingAccount(context, true);
  if (typeof account === 'string') return { status: 'skipped', note: account };
  const formulas: string[] = [];
  for (const leg of LEGS) {
    const position = await openPosition(context, account, leg);
    if (typeof position === 'string') return { status: 'skipped', note: position };
    formulas.push(checkFormula(leg, position, raise));
  }
  const liquidation = await driveToLiquidation(context, account, raise);
  return {
    status: 'ran',
    note: `${account.label}: ${formatDecimal(SIZE_MICRO)} at leverage ${LEVERAGE_MAX}: ${formulas.join('; ')}; ${liquidation}`,
  };
}
