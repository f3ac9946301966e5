// The checkpoint codec (src/server/checkpoint-codec.ts) on graphs of every kind it writes: the
// state codec's tree (a second, independent walk that spells out sharing as references) is the
// oracle — a decoded graph has the same tree as the original. Refusals name their path; damaged
// bytes are refused, never half-read into a state.
import { describe, expect, test } from 'vitest';
import { Rng } from '../../src/core/rng.ts';
import { classRegistry, encodeState, StateCodecError, type TransientFields } from '../../src/platform/state-codec.ts';
import { decodeCheckpoint, encodeCheckpoint } from '../../src/server/checkpoint-codec.ts';

class Account {
  balanceMicro = 0n;
  owner = '';
  history: number[] = [];
  secret = 'sk_test';
}
class Holder {
  account: Account | null = null;
  rng = new Rng('holder');
}
const REGISTRY = classRegistry([Account, Holder]);
const TRANSIENT: TransientFields = new Map([[Account.prototype, { secret: () => '' }]]);
const NONE: TransientFields = new Map();

function sample(): Record<string, unknown> {
  const account = new Account();
  account.balanceMicro = -(2n ** 80n);
  account.owner = 'alice';
  account.history.push(1, -0, Number.NaN, Number.POSITIVE_INFINITY, 1.5e300);
  const holder = new Holder();
  holder.account = account;
  holder.rng.uint32();
  const bytes = new ArrayBuffer(16);
  const floats = new Float64Array(bytes);
  floats[0] = 0.25;
  const wide = new BigInt64Array(bytes, 8, 1);
  wide[0] = -5n;
  const frozen = Object.freeze({ rate: 3, name: 'frozen' });
  const bare = Object.create(null) as Record<string, unknown>;
  bare['k'] = 'v';
  const cycle: Record<string, unknown> = { name: 'cycle' };
  cycle['self'] = cycle;
  const body = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as unknown;
  return {
    holder,
    again: account,
    list: [account, frozen, frozen, null, undefined, true, false, ''],
    byId: new Map<unknown, unknown>([
      ['a', account],
      [7, { nested: [1, 2] }],
    ]),
    tags: new Set(['x', 'y', account]),
    floats,
    wide,
    buffer: Buffer.from('bytes of its own'),
    bare,
    cycle,
    body,
  };
}

function tree(root: unknown, transient: TransientFields = TRANSIENT): string {
  return JSON.stringify(encodeState(root, REGISTRY, transient));
}

describe('checkpoint codec', () => {
  test('a graph of every kind comes back with the same tree, sharing and cycles; its rng draws on where it was', () => {
    const original = sample();
    const bytes = encodeCheckpoint(original, REGISTRY, NONE);
    const decoded = decodeCheckpoint(bytes, REGISTRY) as ReturnType<typeof sample>;
    expect(tree(decoded, NONE)).toBe(tree(original, NONE));
    const holder = decoded['holder'] as Holder;
    expect(holder).toBeInstanceOf(Holder);
    expect(holder.account).toBe(decoded['again']);
    expect((decoded['cycle'] as Record<string, unknown>)['self']).toBe(decoded['cycle']);
    expect(Object.isFrozen((decoded['list'] as unknown[])[1])).toBe(true);
    expect((decoded['floats'] as Float64Array).buffer).toBe((decoded['wide'] as BigInt64Array).buffer);
    expect(Buffer.isBuffer(decoded['buffer'])).toBe(true);
    expect(Reflect.getPrototypeOf(decoded['bare'] as object)).toBeNull();
    expect(Object.keys(decoded['body'] as object)).toEqual(['__proto__', 'x']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(holder.rng.uint32()).toBe((original['holder'] as Holder).rng.uint32());
  });

  test('the same graph gives the same bytes, and a decoded graph encodes to them again', () => {
    const bytes = encodeCheckpoint(sample(), REGISTRY, NONE);
    expect(Buffer.compare(bytes, encodeCheckpoint(sample(), REGISTRY, NONE))).toBe(0);
    expect(Buffer.compare(bytes, encodeCheckpoint(decodeCheckpoint(bytes, REGISTRY), REGISTRY, NONE))).toBe(0);
  });

  test('a list as long as the limiter may hold (100,000 links, far past any call stack) is written and read', () => {
    interface Link {
      readonly n: number;
      newer: Link | null;
      older: Link | null;
    }
    const links: Link[] = [];
    for (let n = 0; n < 100_000; n++) {
      const link: Link = { n, newer: null, older: links.at(-1) ?? null };
      if (link.older !== null) link.older.newer = link;
      links.push(link);
    }
    const decoded = decodeCheckpoint(
      encodeCheckpoint({ first: links[0], byN: new Map(links.map((link) => [link.n, link])) }, REGISTRY, NONE),
      REGISTRY,
    ) as { first: Link; byN: Map<number, Link> };
    let walked = 0;
    for (let link: Link | null = decoded.first; link !== null; link = link.newer) walked++;
    expect(walked).toBe(100_000);
    expect(decoded.byN.get(99_999)?.older).toBe(decoded.byN.get(99_998));
  });

  test('transient fields are written empty: the secret is not in the bytes', () => {
    const bytes = encodeCheckpoint(sample(), REGISTRY, TRANSIENT);
    expect(bytes.toString('latin1')).not.toContain('sk_test');
    expect((decodeCheckpoint(bytes, REGISTRY) as { again: Account }).again.secret).toBe('');
  });

  test('into: the root is decoded onto the given object', () => {
    const target = new Holder();
    const source = new Holder();
    source.account = new Account();
    const decoded = decodeCheckpoint(encodeCheckpoint(source, REGISTRY, NONE), REGISTRY, target);
    expect(decoded).toBe(target);
    expect(target.account).toBeInstanceOf(Account);
    expect(() => decodeCheckpoint(encodeCheckpoint(source, REGISTRY, NONE), REGISTRY, new Account())).toThrow(
      StateCodecError,
    );
  });

  test('what it cannot write is refused with its path', () => {
    class Unknown {}
    expect(() => encodeCheckpoint({ a: { b: new Unknown() } }, REGISTRY, NONE)).toThrow(
      /\$\.a\.b: an instance of Unknown/,
    );
    expect(() => encodeCheckpoint({ list: [() => 1] }, REGISTRY, NONE)).toThrow(/\$\.list\.0: a function/);
    expect(() => encodeCheckpoint({ [Symbol('s')]: 1 }, REGISTRY, NONE)).toThrow(/a symbol key/);
  });

  test('damaged bytes are refused', () => {
    const bytes = encodeCheckpoint(sample(), REGISTRY, NONE);
    expect(() => decodeCheckpoint(bytes.subarray(0, bytes.length - 1), REGISTRY)).toThrow(StateCodecError);
    expect(() => decodeCheckpoint(bytes.subarray(0, 10), REGISTRY)).toThrow(StateCodecError);
    const badVersion = Buffer.from(bytes);
    badVersion.writeUInt32LE(99, 4);
    expect(() => decodeCheckpoint(badVersion, REGISTRY)).toThrow(/layout/);
    expect(() => decodeCheckpoint(encodeCheckpoint(new Holder(), REGISTRY, NONE), classRegistry([Account]))).toThrow(
      /unknown class 'Holder'/,
    );
  });
});
