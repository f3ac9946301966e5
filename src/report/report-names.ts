/**
 * The report files a scenario may ask for (`reports:`), by name. Why here and not in the scenario
 * schema: the reports are this layer's; the scenario (src/scenario) names them from above.
 */
/** `casino` (casino.csv) and `html` (report.html) are written only when the run placed casino bets. */
export const REPORT_NAMES = [
  'summary',
  'agents',
  'endpoints',
  'escrows',
  'events',
  'casino',
  'html',
  'orders',
  'positions',
  'domains',
  'referrals',
  'wallet',
] as const;
export type ReportName = (typeof REPORT_NAMES)[number];
