/**
 * The bounds of a fairness audit's bets (`afp audit fairness --max-bets`): the audit
 * (live/fairness-audit.ts) stops at the bound, and the command checks its flag against them
 * before the audit loads (through the light face, src/audit/options.ts).
 */
export const FAIRNESS_BETS_DEFAULT = 10_000;
export const FAIRNESS_BETS_MAX = 100_000;
