/**
 * New Fakers in English, loaded without Faker's other locales.
 *
 * Why: `import { Faker, en, base } from '@faker-js/faker'` evaluates the package's index, which
 * builds a Faker for each of its 77 locales. That took about 270 ms of every `afp run` and of
 * every sweep worker's start-up, for one locale used. The `@faker-js/faker/locale/en` entry
 * loads English and base only (about 40 ms). Its one instance gives the class and the merged
 * definitions; a Faker built from them draws exactly what `new Faker({ locale: [en, base] })`
 * draws (test/sim/english-faker.test.ts), so names and memos, hence digests, are unchanged.
 */
import type { Faker, Randomizer } from '@faker-js/faker';
import { faker as englishInstance } from '@faker-js/faker/locale/en';

const FakerClass = Object.getPrototypeOf(englishInstance).constructor as typeof Faker;

/** A Faker in English (English over base), drawing from `randomizer` or from its own seedable one. */
export function englishFaker(randomizer?: Randomizer): Faker {
  return new FakerClass({
    locale: englishInstance.rawDefinitions,
    ...(randomizer === undefined ? {} : { randomizer }),
  });
}
