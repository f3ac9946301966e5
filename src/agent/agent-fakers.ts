/**
 * AgentFakers: one Faker for all the agents of a run, each agent drawing from its own stream.
 *
 * Why: a Faker instance binds every method of its ~30 modules and holds a Mersenne Twister state
 * of 624 numbers, about 30 KB; one per agent made it nine tenths of an agent's memory (issue 19:
 * at most 4 KB per agent). An agent now keeps only its faker seed and how many draws it has made
 * (`FakerStream`, two numbers); `select` points the shared Faker's randomizer at that stream,
 * restoring it from the seed and the count when it is not among the last STREAMS_KEPT_MAX used.
 * A restored stream takes over the buffer of the one it evicts (MersenneStream.reseed), so the
 * cache is a fixed 2.5 MB and a restore allocates nothing.
 * Invariant: an agent draws exactly what its own seeded Faker would have drawn (the same
 * generator, reseeded and advanced), so names, memos and reasons, hence reports, are unchanged.
 * Agents run one at a time and a draw is synchronous, so one shared Faker is never interleaved.
 * Non-goal: live load (src/load), whose agents are few and keep their own Faker.
 */
import type { Faker, Randomizer } from '@faker-js/faker';
import { englishFaker } from './english-faker.ts';
import { MersenneStream } from './mersenne-stream.ts';

/** What an agent keeps of its faker: the seed its stream starts from and the draws made so far. */
export interface FakerStream {
  readonly fakerSeed: number;
  fakerDraws: number;
}

/**
 * Live streams kept (2.5 KB each): the quickstart's thousand agents all stay live; beyond that a
 * stream not used lately is rebuilt from its seed (~10 µs plus its draws so far).
 */
export const STREAMS_KEPT_MAX = 1024;

export class AgentFakers {
  private readonly faker: Faker;
  private readonly kept = new Map<FakerStream, MersenneStream>();
  private current: { stream: FakerStream; generator: MersenneStream } | null = null;

  constructor() {
    const delegate: Randomizer = {
      next: () => {
        const current = this.current;
        if (current === null) throw new Error('AgentFakers: a draw before select()');
        current.stream.fakerDraws++;
        return current.generator.next();
      },
      seed: () => {
        throw new Error('AgentFakers: an agent stream is seeded by select(), not by faker.seed()');
      },
    };
    this.faker = englishFaker(delegate);
  }

  /** The shared Faker, drawing from `stream` until the next select. */
  select(stream: FakerStream): Faker {
    if (this.current?.stream !== stream) this.current = { stream, generator: this.generatorOf(stream) };
    return this.faker;
  }

  private generatorOf(stream: FakerStream): MersenneStream {
    const kept = this.kept.get(stream);
    if (kept !== undefined) {
      this.kept.delete(stream);
      this.kept.set(stream, kept);
      return kept;
    }
    let generator: MersenneStream;
    const oldest = this.kept.size >= STREAMS_KEPT_MAX ? this.kept.entries().next() : null;
    if (oldest !== null && oldest.done !== true) {
      const [evicted, reused] = oldest.value;
      this.kept.delete(evicted);
      reused.reseed(stream.fakerSeed);
      generator = reused;
    } else {
      generator = new MersenneStream(stream.fakerSeed);
    }
    generator.skip(stream.fakerDraws);
    this.kept.set(stream, generator);
    return generator;
  }
}
