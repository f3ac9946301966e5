// AgentFakers (issue 19): one shared Faker, each agent drawing from its own stream, must draw
// exactly what a Faker of the agent's own, seeded as before, would: names, memos and reasons end
// up in reports, whose digests must not move. Interleaved agents, and more agents than the live
// streams kept (so a stream is rebuilt from its seed and draw count), both checked.
import { Faker, base, en } from '@faker-js/faker';
import { describe, expect, test } from 'vitest';
import { AgentFakers, STREAMS_KEPT_MAX, type FakerStream } from '../../src/agent/agent-fakers.ts';

function ownFaker(seed: number): Faker {
  const faker = new Faker({ locale: [en, base] });
  faker.seed(seed);
  return faker;
}

const draw = (faker: Faker, round: number): string =>
  round % 2 === 0 ? faker.person.fullName() : `${faker.commerce.productName()} / ${faker.lorem.sentence()}`;

describe('AgentFakers', () => {
  test('interleaved agents draw what their own seeded Fakers draw', () => {
    const fakers = new AgentFakers();
    const seeds = [1, 42, 0x7fff_fffe];
    const streams: FakerStream[] = seeds.map((seed) => ({ fakerSeed: seed, fakerDraws: 0 }));
    const owns = seeds.map(ownFaker);
    for (let round = 0; round < 5; round++) {
      for (const [index, stream] of streams.entries()) {
        expect(draw(fakers.select(stream), round)).toBe(draw(owns[index] as Faker, round));
      }
    }
    expect(streams.every((stream) => stream.fakerDraws > 0)).toBe(true);
  });

  test('a stream evicted from the live ones is rebuilt where it was', () => {
    const fakers = new AgentFakers();
    const agents = STREAMS_KEPT_MAX + 10;
    const streams: FakerStream[] = Array.from({ length: agents }, (_, index) => ({
      fakerSeed: 1_000 + index,
      fakerDraws: 0,
    }));
    const owns = streams.map((stream) => ownFaker(stream.fakerSeed));
    for (let round = 0; round < 3; round++) {
      for (const [index, stream] of streams.entries())
        expect(draw(fakers.select(stream), round)).toBe(draw(owns[index] as Faker, round));
    }
  });

  test('reseeding the shared Faker is refused: a stream is chosen by select', () => {
    const fakers = new AgentFakers();
    expect(() => fakers.select({ fakerSeed: 7, fakerDraws: 0 }).seed(3)).toThrow(/select/);
  });
});
