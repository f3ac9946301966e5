/**
 * JSON text of simulator values for messages and violations: bigint amounts become decimal
 * strings of micro-units (JSON has no bigint), keys keep their insertion order, and the text is
 * cut at a bound so one huge body cannot flood a report (STYLE rule 7).
 */

const TEXT_LENGTH_MAX = 4_000;

export function jsonText(value: unknown, lengthMax = TEXT_LENGTH_MAX): string {
  const text =
    JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item)) ?? 'undefined';
  return text.length <= lengthMax ? text : `${text.slice(0, lengthMax)}…`;
}
