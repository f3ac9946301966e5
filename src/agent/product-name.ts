/**
 * A product name exactly as Faker's `commerce.productName()` draws it, without its template engine.
 *
 * Why: `productName()` expands the locale's pattern through `helpers.fake`, which searches and
 * slices the template text and resolves each `{{module.method}}` by name on every call: about
 * 5.6 KB of garbage per name, 40 MB (7%) of what a quickstart seed allocates (escrow memos and
 * dispute reasons), and every sweep worker collects it. English has one pattern, "adjective
 * material product", and Faker picks from a list of one without a draw, so the three picks below
 * draw exactly what the template draws: same names, same later draws, same digests
 * (test/sim/product-name.test.ts). A Faker whose locale has other patterns goes through Faker.
 */
import type { Faker } from '@faker-js/faker';

const ENGLISH_PATTERN = '{{commerce.productAdjective}} {{commerce.productMaterial}} {{commerce.product}}';

/** `faker.commerce.productName()`, the same text from the same draws. */
export function productName(faker: Faker): string {
  const patterns = faker.definitions.commerce.product_name.pattern;
  if (patterns.length !== 1 || patterns[0] !== ENGLISH_PATTERN) return faker.commerce.productName();
  const { commerce } = faker;
  return `${commerce.productAdjective()} ${commerce.productMaterial()} ${commerce.product()}`;
}
