/**
 * Rendering helpers shared by route rows: money as a JSON number (style A) or a decimal string
 * (style B), instants as ISO 8601 UTC text. Rendering is the only place money leaves bigint.
 */
import { formatDecimal, toNumber, type Micro } from '../core/money.ts';

export const moneyA = (amount: Micro): number => toNumber(amount);
export const moneyB = (amount: Micro): string => formatDecimal(amount);
export const isoTime = (ms: number): string => new Date(ms).toISOString();
