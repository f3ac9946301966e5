/**
 * Domain valuation: the real service's heuristic (spec/NOTES.md "Domains"), in exact integers.
 *
 * score = clamp(0.35·tld + 0.35·length + 0.20·keyword − 0.10·penalty + pronounce, 0, 100), kept
 * as hundredths (`scoreCenti`, 0..10,000) so no float rounding decides a category boundary;
 * value = floor price × score / 50, rounded down to the micro. Categories: premium ≥ 80,
 * standard ≥ 60, budget ≥ 40, else low-value. A pure function of the name: no state, no clock.
 */
import type { Micro } from '../../core/money.ts';
import type { DomainName } from './domain-name.ts';

export type ValuationCategory = 'premium' | 'standard' | 'budget' | 'low-value';

export interface Valuation {
  readonly domain: string;
  readonly tldScore: number;
  readonly lengthScore: number;
  readonly keywordBonus: number;
  readonly penalty: number;
  readonly pronounceability: number;
  /** The score in hundredths, 0..10,000. */
  readonly scoreCenti: number;
  readonly floorMicro: Micro;
  readonly valueMicro: Micro;
  readonly category: ValuationCategory;
}

const TLD_SCORE: Readonly<Record<string, number>> = {
  agent: 95,
  ai: 90,
  defi: 88,
  trade: 85,
  eth: 85,
  bot: 80,
  dao: 80,
  web3: 78,
  crypto: 75,
  app: 70,
  nft: 70,
  dev: 68,
  io: 65,
  com: 60,
  xyz: 50,
};
const TLD_SCORE_OTHER = 40;

const FLOOR_MICRO: Readonly<Record<string, Micro>> = { agent: 5_000_000n, ai: 10_000_000n, eth: 15_000_000n };
const FLOOR_OTHER_MICRO: Micro = 2_000_000n;

export const VALUATION_KEYWORDS: readonly string[] = [
  'defi',
  'ai',
  'trade',
  'swap',
  'agent',
  'bot',
  'dao',
  'nft',
  'wallet',
  'yield',
  'stake',
  'earn',
  'crypto',
  'pay',
  'send',
  'lend',
  'borrow',
];

export function lengthScore(length: number): number {
  if (length <= 3) return 100;
  if (length <= 5) return 80;
  if (length <= 8) return 60;
  if (length <= 12) return 40;
  return 20;
}

function countOf(label: string, test: (code: number) => boolean): number {
  let count = 0;
  for (let index = 0; index < label.length; index++) if (test(label.charCodeAt(index))) count++;
  return count;
}

const isDigit = (code: number): boolean => code >= 48 && code <= 57;
const isVowel = (code: number): boolean => code === 97 || code === 101 || code === 105 || code === 111 || code === 117;

export function valuationCategory(scoreCenti: number): ValuationCategory {
  if (scoreCenti >= 8000) return 'premium';
  if (scoreCenti >= 6000) return 'standard';
  if (scoreCenti >= 4000) return 'budget';
  return 'low-value';
}

export function valueDomain(domain: DomainName): Valuation {
  const { label, tld } = domain;
  const tldScore = TLD_SCORE[tld] ?? TLD_SCORE_OTHER;
  const length = lengthScore(label.length);
  const keywordBonus = VALUATION_KEYWORDS.some((keyword) => label.includes(keyword)) ? 30 : 0;
  const digits = countOf(label, isDigit);
  const digitPenalty = digits * 2 > label.length ? 15 : digits > 0 ? 5 : 0;
  const penalty = (label.includes('-') ? 10 : 0) + digitPenalty;
  // Vowels between 20% and 60% of the label, bounds included: 5·v ≥ n and 5·v ≤ 3·n.
  const vowels = countOf(label, isVowel);
  const pronounceability = vowels * 5 >= label.length && vowels * 5 <= label.length * 3 ? 10 : 0;
  const raw = 35 * tldScore + 35 * length + 20 * keywordBonus - 10 * penalty + 100 * pronounceability;
  const scoreCenti = Math.min(10_000, Math.max(0, raw));
  const floorMicro = FLOOR_MICRO[tld] ?? FLOOR_OTHER_MICRO;
  const valueMicro = (floorMicro * BigInt(scoreCenti)) / 5_000n;
  return {
    domain: domain.name,
    tldScore,
    lengthScore: length,
    keywordBonus,
    penalty,
    pronounceability,
    scoreCenti,
    floorMicro,
    valueMicro,
    category: valuationCategory(scoreCenti),
  };
}
