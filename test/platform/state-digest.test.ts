// The state digest at any depth: the rate limiter's entries form a list by last use as long as
// the limiter holds entries, and a digest of a platform that met thousands of client addresses
// failed ("nested deeper than 2000", then the stack of JSON.stringify). The text is now written
// without recursion and is the same text as before (the tree's JSON) wherever the old one worked.
import { describe, expect, test } from 'vitest';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { Dispatcher } from '../../src/http/dispatcher.ts';
import { capturePlatform } from '../../src/platform/platform-snapshot.ts';
import { Platform } from '../../src/platform/platform.ts';
import { classRegistry, encodeState, encodeStateText, StateCodecError } from '../../src/platform/state-codec.ts';
import { platformDigest, platformStateText } from '../../src/platform/state-digest.ts';

const START_MS = Date.UTC(2026, 0, 1);

/** A platform that registered `count` agents, each from its own address (one limiter entry each). */
function registered(count: number): Platform {
  const platform = new Platform({ seed: '2', startMs: START_MS });
  const dispatcher = new Dispatcher(platform, ALL_ROUTES);
  for (let index = 0; index < count; index++) {
    const ip = `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
    const answer = dispatcher.dispatch(
      { mount: 'api', method: 'POST', path: '/register', body: { agent_id: `d${index}` } },
      START_MS + index,
      ip,
    );
    expect(answer.status).toBe(201);
  }
  return platform;
}

describe('the state digest', () => {
  test('a platform whose limiter holds 5,000 entries digests, and its copy digests the same', () => {
    const platform = registered(5_000);
    const digest = platformDigest(platform);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(platformDigest(capturePlatform(platform).copy)).toBe(digest);
  });

  test('the text is the JSON of the tree, where the tree can be written', () => {
    const platform = registered(50);
    const text = platformStateText(platform);
    expect(JSON.stringify(JSON.parse(text))).toBe(text);
    class Box {
      items: unknown[] = [1n, undefined, Number.NaN, -0, 'x', null, new Map([['k', new Set([true])]])];
    }
    const registry = classRegistry([Box]);
    const none = new Map();
    expect(encodeStateText({ box: new Box() }, registry, none)).toBe(
      '["o","","box",["o","Box","items",["a",["b","1"],["u"],["n","NaN"],["n","-0"],"x",null,["m","k",["s",true]]]]]',
    );
    expect(encodeState({ box: new Box() }, registry, none)).toEqual(
      JSON.parse(encodeStateText({ box: new Box() }, registry, none)),
    );
  });

  test('an inline plain record inside itself is refused with its path', () => {
    const looped: Record<string, unknown> = { name: 'loop' };
    looped['self'] = { back: looped };
    expect(() => encodeStateText({ root: looped }, classRegistry([]), new Map(), { inline: true })).toThrow(
      StateCodecError,
    );
    expect(() => encodeStateText({ root: looped }, classRegistry([]), new Map(), { inline: true })).toThrow(
      /\$\.root\.self\.back: a plain record inside itself/,
    );
  });
});
