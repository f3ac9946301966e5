/**
 * The limits of the live fairness audit's bets (--max-bets), apart from the audit (fairness-audit.ts,
 * which re-exports them): `afp audit fairness` checks its flags against them before the audit loads.
 */
export const FAIRNESS_BETS_DEFAULT = 10_000;
export const FAIRNESS_BETS_MAX = 100_000;
