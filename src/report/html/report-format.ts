/**
 * Fixed number formatting of report.html, the source of its byte-stability: every number written
 * (as text or into the chart data) goes through one of these.
 *
 * toFixed and Number-to-string are exactly specified by ECMAScript, so the same number gives the
 * same characters on every engine. Non-finite numbers become null (data) or "—" (text): a caller's
 * NaN must not make the JSON invalid. Negative zero is written as zero.
 */

/** `value` rounded to `decimals` decimals, as a number for the chart data (null if not finite). */
export function roundedOrNull(value: number, decimals: number): number | null {
  if (!Number.isFinite(value)) return null;
  const rounded = Number(value.toFixed(decimals));
  return rounded === 0 ? 0 : rounded;
}

const missing = '—';

function fixedText(value: number, decimals: number): string {
  const text = value.toFixed(decimals);
  return /^-0\.?0*$/.test(text) ? text.slice(1) : text;
}

/** A fraction as a percentage with 3 decimals: 0.0270270 → "2.703%". */
export function percentText(fraction: number | null): string {
  if (fraction === null || !Number.isFinite(fraction)) return missing;
  return `${fixedText(fraction * 100, 3)}%`;
}

/** An integer count with comma grouping: 1234567 → "1,234,567" (no locale involved). */
export function countText(count: number): string {
  if (!Number.isFinite(count)) return missing;
  const digits = Math.abs(Math.round(count)).toString();
  const grouped = digits.replace(/\B(?=(\d{3})+$)/g, ',');
  return count < 0 && grouped !== '0' ? `-${grouped}` : grouped;
}

/** A USDC amount with 2 decimals: 12.3456 → "12.35". */
export function usdcText(amount: number): string {
  if (!Number.isFinite(amount)) return missing;
  return fixedText(amount, 2);
}
