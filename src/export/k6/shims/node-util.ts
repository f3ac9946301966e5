/**
 * node:util inside the k6 bundle: `isDeepStrictEqual` over JSON-like values (what afp compares
 * with it: bet outcome details), as k6 has no node:* modules (k6-bundle.ts maps it here).
 * Non-goal: Maps, Sets, Dates, prototypes — JSON values only.
 */
export function isDeepStrictEqual(left: unknown, right: unknown): boolean {
  if (Object.is(left, right)) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  const leftKeys = Object.keys(left);
  const rightKeys = Object.keys(right);
  if (leftKeys.length !== rightKeys.length) return false;
  return leftKeys.every(
    (key) =>
      Object.hasOwn(right, key) &&
      isDeepStrictEqual((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key]),
  );
}
