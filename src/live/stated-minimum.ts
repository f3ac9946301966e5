/**
 * The minimum bet a target states when it refuses a bet below it. Why: a live audit bets at the
 * documents' minimum (0.01 USDC, slots 0.10), and a target that raised its minimum refused every
 * such bet, so the audit verified nothing and still said "passed". The audit now measures the
 * target's minimum from the refusal and bets at it (edge-audit.ts, money-probes.ts); `afp check`
 * learns it (dialect-commands.ts).
 * Read from the refusal only (minimumRefusal, the one reader every caller uses):
 * - any refusal: the documents' `min_bet` field, else the message's words "Minimum bet is $0.05"
 *   (the deployment's, DEPLOYED.md §2.4) or "amount must be at least 0.05" (afp's);
 * - a refusal whose name is the minimum rule's (MINIMUM_RULE_NAMES: DEPLOYED.md §2.4's
 *   `minimum_bet`), in the target's own words: a field named as a minimum (MINIMUM_FIELD:
 *   `min`, `minimum`, `min_bet`, `minimum_amount`, `min_stake`, `..._usd(c)`), else the one number
 *   its message writes ("Bets below 0.05 USDC are not accepted": stated-amount.ts). Such a
 *   refusal that states no amount still says the stake was below the target's minimum: `unstated`.
 * Amounts are read as the target writes them (a double's noise included) to the nearest micro.
 * A stated amount not above what was sent teaches nothing (null): a bet refused at or above the
 * minimum its own refusal states is the target's defect, and the callers report it as one.
 * Limits: a stated minimum above STATED_MINIMUM_MAX_MICRO is not adopted (a broken or hostile target
 * could ask for any stake); the audit's stakes budget bounds what the adopted one costs.
 */
import { formatDecimal, type Micro } from '../core/money.ts';
import { deployedMinimumMicro, PUBLISHED_DEPLOYED_RULES } from '../services/casino/deployed/deployed-casino-rules.ts';
import { findGame } from '../services/casino/games/index.ts';
import { WIDE_BET_RANGE } from '../services/casino/games/game-terms.ts';
import type { FindingInput } from '../report/findings/finding.ts';
import type { Refusal } from './operations.ts';
import { amountMicroOf, refusalNamed, soleNumberInMessage, statedField } from './stated-amount.ts';
import type { DialectName } from './target.ts';

/** 100 USDC: far above any minimum a casino for agents asks, far below a wallet's worth. */
export const STATED_MINIMUM_MAX_MICRO: Micro = 100_000_000n;

const AMOUNT = String.raw`\$? *(\d{1,9}(?:\.\d{1,20})?)`;
/** Words that state a bet's minimum, and nothing else (not a balance's "at least"): read in any refusal. */
const MESSAGE_PATTERNS: readonly RegExp[] = [
  new RegExp(String.raw`minimum bet(?: is| of)?:? *${AMOUNT}`, 'i'),
  new RegExp(String.raw`\bamount must be at least *${AMOUNT}`, 'i'),
];

/** The names a refusal of a bet below the minimum goes by: DEPLOYED.md §2.4's, and the same words shortened or turned round. */
const MINIMUM_RULE_NAMES: ReadonlySet<string> = new Set([
  'minimum_bet',
  'min_bet',
  'below_minimum',
  'bet_below_minimum',
  'amount_below_minimum',
]);

/** A field naming a minimum amount, read in a refusal named as the minimum rule only. */
const MINIMUM_FIELD = /^min(?:imum)?(?:_(?:bet|amount|stake))?(?:_usdc?)?$/i;

const amountOf = (value: unknown): Micro | null => {
  const micro = amountMicroOf(value, 'nearest');
  return micro !== null && micro > 0n ? micro : null;
};

/** What a refusal says of the target's minimum bet (minimumRefusal). */
export type MinimumRefusal =
  /** It states a minimum above what was sent, within STATED_MINIMUM_MAX_MICRO. */
  | { readonly kind: 'stated'; readonly micro: Micro }
  /** Its name is the minimum rule's, and it states no amount afp can read: the minimum is above what was sent. */
  | { readonly kind: 'unstated' };

/**
 * The amount `refusal` states as the minimum, or null where it states none (see the header for
 * where it is read). The message's one number is not read where it is the stake sent (`sentMicro`):
 * "Bet of 0.01 is below the minimum" quotes the bet, not the minimum.
 */
function statedAmount(refusal: Refusal, sentMicro: Micro): Micro | null {
  const named = refusalNamed(refusal, MINIMUM_RULE_NAMES);
  const field =
    statedField(refusal, /^min_bet$/, amountOf) ?? (named ? statedField(refusal, MINIMUM_FIELD, amountOf) : null);
  if (field !== null) return field;
  for (const pattern of MESSAGE_PATTERNS) {
    const match = pattern.exec(refusal.message);
    const stated = match === null ? null : amountOf(match[1]);
    if (stated !== null) return stated;
  }
  const sole = named ? amountOf(soleNumberInMessage(refusal)) : null;
  return sole === sentMicro ? null : sole;
}

/**
 * What `refusal` says of the target's minimum bet, given `sentMicro` (what the refused bet staked):
 * a minimum above it (stated), or the minimum rule's name with no amount (unstated); null for any
 * other refusal, and for one stating a minimum not above `sentMicro` or past the limit.
 */
export function minimumRefusal(refusal: Refusal, sentMicro: Micro): MinimumRefusal | null {
  const stated = statedAmount(refusal, sentMicro);
  if (stated === null) return refusalNamed(refusal, MINIMUM_RULE_NAMES) ? { kind: 'unstated' } : null;
  return stated > sentMicro && stated <= STATED_MINIMUM_MAX_MICRO ? { kind: 'stated', micro: stated } : null;
}

/** The minimum the refusal states, when it is above `sentMicro` (what the refused bet staked) and within the limit; else null. */
export function statedMinimumMicro(refusal: Refusal, sentMicro: Micro): Micro | null {
  const read = minimumRefusal(refusal, sentMicro);
  return read?.kind === 'stated' ? read.micro : null;
}

/**
 * The minimum bet of `game` the documents of `dialect` give: DEPLOYED.md §2.4's one minimum for
 * every game (PUBLISHED_DEPLOYED_RULES, never a stand-in's --rules), else the game's own in afp's
 * modules (casino.md), else the core games' 0.01.
 */
export function documentsMinimumMicro(game: string, dialect: DialectName): Micro {
  if (dialect === 'deployed') return deployedMinimumMicro(PUBLISHED_DEPLOYED_RULES);
  return findGame(game)?.minBetMicro ?? WIDE_BET_RANGE.minBetMicro;
}

/**
 * The finding of a minimum learned from `refusal`: minor, kind `rule` (a rule the target changed,
 * not a defect), one id per game. `statedMicro` null: the refusal named the minimum rule but stated
 * no amount (the minimum is above `sentMicro`). `expected` is the documents' minimum
 * (`documentsMicro`, documentsMinimumMicro), `seen` the stake refused and the refusal as it came;
 * `then` says what the command does from now on.
 */
export function minimumBetFinding(input: {
  readonly game: string;
  readonly statedMicro: Micro | null;
  readonly sentMicro: Micro;
  readonly documentsMicro: Micro;
  readonly refusal: Refusal;
  readonly then: string;
  readonly evidence?: string;
  readonly reproduce?: string;
}): FindingInput {
  const { game, statedMicro, sentMicro, documentsMicro, refusal } = input;
  const minimum =
    statedMicro === null
      ? `above ${formatDecimal(sentMicro)} (its refusal, ${refusal.name}, states no amount), where the documents' is`
      : `${formatDecimal(statedMicro)}, not`;
  return {
    id: `rule:${game}:minimum-bet`,
    severity: 'minor',
    kind: 'rule',
    title: `${game}'s minimum bet on the target is ${minimum} ${formatDecimal(documentsMicro)}: ${input.then}`,
    endpoint: 'casino.bet',
    field: 'amount',
    expected: `${formatDecimal(documentsMicro)} (the documents' minimum bet)`,
    seen: { refused: formatDecimal(sentMicro), answer: refusal.body },
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
