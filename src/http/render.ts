/**
 * Rendering helpers shared by route rows: money as a JSON number (style A) or a decimal string
 * (style B), instants as ISO 8601 UTC text. Rendering is the only place money leaves bigint.
 * They run on every response, so the number and the instant take fast forms that are
 * byte-identical to the plain definitions (tested against them): `toNumber` divides the bigint's
 * exact double (src/core/money.ts), `isoTime` memoizes day prefixes (src/core/iso-time.ts).
 */
import { formatDecimal, toNumber, type Micro } from '../core/money.ts';

export { isoTime } from '../core/iso-time.ts';

export const moneyA = (amount: Micro): number => toNumber(amount);
export const moneyB = (amount: Micro): string => formatDecimal(amount);
