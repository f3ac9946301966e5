// The dispatcher's contract with a row: a RouteContext of the request's own (a row may keep it),
// the row's successStatus as the answer's status, and render's body answered with `_info` added.
import { describe, expect, test } from 'vitest';
import { succeed } from '../../src/core/errors.ts';
import { Dispatcher } from '../../src/http/dispatcher.ts';
import { defineRoute, type RouteContext } from '../../src/http/route.ts';
import { Platform } from '../../src/platform/platform.ts';
import { START_MS } from '../client/fixtures.ts';

interface Seen {
  readonly context: RouteContext;
  readonly nowMs: number;
  readonly ip: string;
}

/** A row that keeps the context object itself beside copies of its fields. */
function capturingRow(seen: Seen[]) {
  return defineRoute<null, Seen>({
    id: 'test.B.capture',
    service: 'escrow',
    style: 'B',
    mount: 'api',
    method: 'POST',
    path: '/capture',
    auth: 'none',
    summary: 'captures its context',
    parse: () => null,
    run: (context) => {
      const entry = { context, nowMs: context.nowMs, ip: context.ip };
      seen.push(entry);
      return succeed(entry);
    },
    successStatus: 201,
    render: (entry) => ({ now_ms: entry.nowMs, ip: entry.ip }),
  });
}

describe('RouteContext', () => {
  const setup = (): { dispatcher: Dispatcher; seen: Seen[]; platform: Platform } => {
    const seen: Seen[] = [];
    const platform = new Platform({ seed: 'route-context', startMs: START_MS });
    return { dispatcher: new Dispatcher(platform, [capturingRow(seen)]), seen, platform };
  };
  const send = (dispatcher: Dispatcher, nowMs: number, ip: string) =>
    dispatcher.handle({ mount: 'api', method: 'POST', path: '/capture', query: {}, headers: {}, ip }, nowMs);

  test('during the call it holds this request: platform, instant, originating IP, no caller on auth none', () => {
    const { dispatcher, seen, platform } = setup();
    send(dispatcher, START_MS + 1000, '10.0.0.1');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.nowMs).toBe(START_MS + 1000);
    expect(seen[0]?.ip).toBe('10.0.0.1');
    expect(seen[0]?.context.platform).toBe(platform);
    expect(seen[0]?.context.caller).toBeNull();
  });

  test('each request has its own: a context a row kept still says its request after the next one', () => {
    const { dispatcher, seen } = setup();
    send(dispatcher, START_MS + 1000, '10.0.0.1');
    send(dispatcher, START_MS + 2000, '10.0.0.2');
    const [first, second] = seen;
    expect(first?.context).not.toBe(second?.context);
    expect([first?.context.nowMs, first?.context.ip]).toEqual([START_MS + 1000, '10.0.0.1']);
    expect([second?.context.nowMs, second?.context.ip]).toEqual([START_MS + 2000, '10.0.0.2']);
  });

  test("a success answers the row's successStatus with render's body plus _info", () => {
    const { dispatcher } = setup();
    const response = send(dispatcher, START_MS + 1000, '10.0.0.3');
    expect(response.status).toBe(201);
    expect(response.routeId).toBe('test.B.capture');
    expect(Object.keys(response.body)).toEqual(['now_ms', 'ip', '_info']);
    expect(response.body).toMatchObject({ now_ms: START_MS + 1000, ip: '10.0.0.3' });
  });
});
