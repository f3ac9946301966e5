/**
 * The one number format of each kind of report column (issue 18: "a number format that is one
 * thing per column"): a column of USDC amounts shows every amount with the same 6 decimals (the
 * platform's exact precision: 0.100000, 5.000000, 1.234567), never 0.10 beside 1.234567; and the
 * status columns of endpoints.csv are fixed, so the header is the same whatever the run.
 * Pure and exact: amounts are printed from the bigint micro-units, never through a float.
 * Non-goal: JSON and JSONL, whose fields are not columns (they keep the API's decimal strings).
 */
import { ERROR_STATUS } from '../core/errors.ts';
import type { Micro } from '../core/money.ts';

const MICRO_PER_USDC = 1_000_000n;

/** USDC with exactly 6 decimals from micro-units: 100000n → "0.100000", -1n → "-0.000001". */
export function usdcColumnText(amount: Micro): string {
  const negative = amount < 0n;
  const magnitude = negative ? -amount : amount;
  const fraction = (magnitude % MICRO_PER_USDC).toString().padStart(6, '0');
  return `${negative ? '-' : ''}${magnitude / MICRO_PER_USDC}.${fraction}`;
}

/**
 * The status columns of endpoints.csv, ascending: the successes afp's routes answer, every status
 * of the spec's error table, and the transport's own refusals (405 method, 413 body too large,
 * 415 content type). Any other status is counted in the `other` column that follows them.
 */
export const ENDPOINT_STATUSES: readonly number[] = [
  ...new Set([200, 201, ...Object.values(ERROR_STATUS), 405, 413, 415]),
].sort((a, b) => a - b);
