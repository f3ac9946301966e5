/**
 * Prices read from a JSON number into afp's 8-decimal units (trading answers show prices as
 * numbers in style A and in the deployed dialect). Exact for a plain decimal of at most 8 places;
 * anything else (exponent notation, more places, negative) is null, never a rounded guess.
 */
const PRICE_DECIMALS = 8;

export function priceUnits(value: number | null): bigint | null {
  if (value === null) return null;
  const match = /^(\d{1,15})(?:\.(\d{1,8}))?$/.exec(String(value));
  return match === null
    ? null
    : BigInt(match[1] ?? '0') * 10n ** BigInt(PRICE_DECIMALS) + BigInt((match[2] ?? '').padEnd(PRICE_DECIMALS, '0'));
}
