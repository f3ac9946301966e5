/**
 * The minimum bet a target states when it refuses a bet below it. Why: a live audit bets at the
 * documents' minimum (0.01 USDC, slots 0.10), and a target that raised its minimum refused every
 * such bet, so the audit verified nothing and still said "passed". The audit now measures the
 * target's minimum from the refusal and bets at it (edge-audit.ts, money-probes.ts).
 * Read from the refusal only: the documents' `min_bet` field (a JSON number or a decimal string),
 * else the message's words, "Minimum bet is $0.05" (the deployment states it only there, DEPLOYED.md
 * §2.4) or "amount must be at least 0.05" (afp's). A refusal that states no amount, or none above what was sent, teaches
 * nothing (null).
 * Limits: a stated minimum above STATED_MINIMUM_MAX_MICRO is not adopted (a broken or hostile target
 * could ask for any stake); the audit's stakes budget bounds what the adopted one costs.
 */
import { formatDecimal, parseDecimal, parseNumber, type Micro } from '../core/money.ts';
import type { FindingInput } from './finding.ts';
import type { Refusal } from './operations.ts';

/** 100 USDC: far above any minimum a casino for agents asks, far below a wallet's worth. */
export const STATED_MINIMUM_MAX_MICRO: Micro = 100_000_000n;

const AMOUNT = String.raw`\$? *(\d{1,9}(?:\.\d{1,6})?)`;
/** Words that state a bet's minimum, and nothing else (not a balance's "at least"). */
const MESSAGE_PATTERNS: readonly RegExp[] = [
  new RegExp(String.raw`minimum bet(?: is| of)?:? *${AMOUNT}`, 'i'),
  new RegExp(String.raw`\bamount must be at least *${AMOUNT}`, 'i'),
];

function amountOf(value: unknown): Micro | null {
  const parsed =
    typeof value === 'number' && Number.isFinite(value)
      ? parseNumber(value)
      : typeof value === 'string'
        ? parseDecimal(value)
        : null;
  return typeof parsed === 'bigint' && parsed > 0n ? parsed : null;
}

/**
 * The finding of a minimum learned from `refusal`: minor, kind `rule` (a rule the target changed,
 * not a defect), one id per game. `then` says what the command does from now on.
 */
export function minimumBetFinding(input: {
  readonly game: string;
  readonly statedMicro: Micro;
  readonly sentMicro: Micro;
  readonly refusal: Refusal;
  readonly then: string;
  readonly evidence?: string;
  readonly reproduce?: string;
}): FindingInput {
  const { game, statedMicro, sentMicro, refusal } = input;
  return {
    id: `rule:${game}:minimum-bet`,
    severity: 'minor',
    kind: 'rule',
    title: `${game}'s minimum bet on the target is ${formatDecimal(statedMicro)}, not ${formatDecimal(sentMicro)}: ${input.then}`,
    endpoint: 'casino.bet',
    field: 'amount',
    expected: `${formatDecimal(sentMicro)} accepted (the documents' minimum)`,
    seen: refusal.body,
    evidence: input.evidence ?? refusal.message,
    ...(input.reproduce === undefined ? {} : { reproduce: input.reproduce }),
  };
}

/**
 * The stake a target says a dealt video-poker hand holds, when it refuses a draw of another amount
 * (`committed_amount`: a target that commits the stake at the deal, as afp's own platform does);
 * null when it states none, or none within STATED_MINIMUM_MAX_MICRO.
 */
export function statedCommittedMicro(refusal: Refusal): Micro | null {
  const body = refusal.body;
  const stated =
    typeof body === 'object' && body !== null && !Array.isArray(body) ? amountOf(body['committed_amount']) : null;
  return stated !== null && stated <= STATED_MINIMUM_MAX_MICRO ? stated : null;
}

/** The minimum the refusal states, when it is above `sentMicro` (what the refused bet staked) and within the limit; else null. */
export function statedMinimumMicro(refusal: Refusal, sentMicro: Micro): Micro | null {
  const body = refusal.body;
  const field = typeof body === 'object' && body !== null && !Array.isArray(body) ? amountOf(body['min_bet']) : null;
  let stated = field;
  for (const pattern of MESSAGE_PATTERNS) {
    if (stated !== null) break;
    const match = pattern.exec(refusal.message);
    stated = match === null ? null : amountOf(match[1]);
  }
  return stated !== null && stated > sentMicro && stated <= STATED_MINIMUM_MAX_MICRO ? stated : null;
}
