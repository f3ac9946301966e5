// Test fixtures for the client and server tests: the same seeded platform behind the in-process
// transport and behind a real `afp serve` listener set (127.0.0.1, ephemeral ports, manual clock),
// so a test can run one request sequence on both and compare the answers.
import { VirtualClock } from '../../src/core/clock.ts';
import { AfpClient } from '../../src/client/client.ts';
import { httpTransport } from '../../src/client/http-transport.ts';
import { inProcessTransport } from '../../src/client/in-process.ts';
import type { Transport } from '../../src/client/transport.ts';
import { Dispatcher } from '../../src/http/dispatcher.ts';
import type { Route } from '../../src/http/route.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { Platform } from '../../src/platform/platform.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

export const START_MS = Date.parse('2025-01-01T00:00:00.000Z');
export const SEED = '7';

export interface InProcessSetup {
  readonly platform: Platform;
  readonly dispatcher: Dispatcher;
  readonly clock: VirtualClock;
  readonly transport: Transport;
  readonly client: AfpClient;
}

export function inProcessSetup(options: { routes?: readonly Route[]; seed?: string } = {}): InProcessSetup {
  const clock = new VirtualClock(START_MS);
  const platform = new Platform({ seed: options.seed ?? SEED, startMs: START_MS });
  const dispatcher = new Dispatcher(platform, options.routes ?? ALL_ROUTES);
  const transport = inProcessTransport({ dispatcher, clock, checkJsonRoundTrip: true });
  return { platform, dispatcher, clock, transport, client: new AfpClient(transport) };
}

export interface ServedSetup {
  readonly serve: ServeHandle;
  readonly transport: Transport;
  readonly client: AfpClient;
}

export async function servedSetup(options: { routes?: readonly Route[]; seed?: string } = {}): Promise<ServedSetup> {
  const lines: string[] = [];
  const serve = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: options.routes ?? ALL_ROUTES,
    seed: options.seed ?? SEED,
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    log: (line) => lines.push(line),
  });
  const transport = httpTransport({ urls: serve.urls, timeoutMs: 10_000 });
  return { serve, transport, client: new AfpClient(transport) };
}
