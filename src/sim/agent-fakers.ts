/**
 * AgentFakers: one Faker for all the agents of a run, each agent drawing from its own stream.
 *
 * Why: a Faker instance binds every method of its ~30 modules and holds a Mersenne Twister state
 * of 624 numbers, about 30 KB; one per agent made it nine tenths of an agent's memory (issue 19:
 * at most 4 KB per agent). An agent now keeps only its faker seed and how many draws it has made
 * (`FakerStream`, two numbers); `select` points the shared Faker's randomizer at that stream,
 * restoring it from the seed and the count when it is not among the last STREAMS_KEPT_MAX used.
 * Invariant: an agent draws exactly what its own seeded Faker would have drawn (the same
 * randomizer, reseeded and advanced), so names, memos and reasons, hence reports, are unchanged.
 * Agents run one at a time and a draw is synchronous, so one shared Faker is never interleaved.
 * Non-goal: live load (src/load), whose agents are few and keep their own Faker.
 */
import { Faker, base, en, generateMersenne53Randomizer, type Randomizer } from '@faker-js/faker';

/** What an agent keeps of its faker: the seed its stream starts from and the draws made so far. */
export interface FakerStream {
  readonly fakerSeed: number;
  fakerDraws: number;
}

/** Live randomizers kept (about 5 KB each): agents that act often draw without a replay. */
export const STREAMS_KEPT_MAX = 256;

export class AgentFakers {
  private readonly faker: Faker;
  private readonly kept = new Map<FakerStream, Randomizer>();
  private current: { stream: FakerStream; randomizer: Randomizer } | null = null;

  constructor() {
    const delegate: Randomizer = {
      next: () => {
        const current = this.current;
        if (current === null) throw new Error('AgentFakers: a draw before select()');
        current.stream.fakerDraws++;
        return current.randomizer.next();
      },
      seed: () => {
        throw new Error('AgentFakers: an agent stream is seeded by select(), not by faker.seed()');
      },
    };
    this.faker = new Faker({ locale: [en, base], randomizer: delegate });
  }

  /** The shared Faker, drawing from `stream` until the next select. */
  select(stream: FakerStream): Faker {
    if (this.current?.stream !== stream) this.current = { stream, randomizer: this.randomizerOf(stream) };
    return this.faker;
  }

  private randomizerOf(stream: FakerStream): Randomizer {
    const kept = this.kept.get(stream);
    if (kept !== undefined) {
      this.kept.delete(stream);
      this.kept.set(stream, kept);
      return kept;
    }
    const randomizer = generateMersenne53Randomizer(stream.fakerSeed);
    for (let draw = 0; draw < stream.fakerDraws; draw++) randomizer.next();
    if (this.kept.size >= STREAMS_KEPT_MAX) {
      const oldest = this.kept.keys().next();
      if (oldest.done !== true) this.kept.delete(oldest.value);
    }
    this.kept.set(stream, randomizer);
    return randomizer;
  }
}
