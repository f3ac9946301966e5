/**
 * A whole number a refusal's words state, read by the first of some patterns that finds one: the
 * batch maximum (stated-batch-maximum.ts) and the domains an agent may hold
 * (stated-domain-maximum.ts) are read this way. Why one reader: the two loops were the same.
 * Each pattern's first group is the number (at most six digits, so it is a safe integer).
 */
export function statedCount(message: string, patterns: readonly RegExp[]): number | null {
  for (const pattern of patterns) {
    const found = pattern.exec(message);
    const stated = found?.[1] === undefined ? NaN : Number(found[1]);
    if (Number.isSafeInteger(stated)) return stated;
  }
  return null;
}
