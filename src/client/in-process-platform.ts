/**
 * The whole platform in one process, behind the typed client: what a library user reaches for to
 * test an agent against faucet, escrow and casino without sockets. Why a factory: the parts
 * (Platform, Dispatcher, routes, VirtualClock, transport) are afp's architecture, and a user
 * should not have to know how they fit to make one call.
 * Time is virtual: it moves only through `clock.set` / `clock.advance`, and due timers (escrow
 * expiries, tournament ends) run at the next request at or after their instant.
 */
import { VirtualClock } from '../core/clock.ts';
import { Dispatcher } from '../http/dispatcher.ts';
import { ALL_ROUTES } from '../http/routes/index.ts';
import { Platform, type PlatformOptions } from '../platform/platform.ts';
import { AfpClient, type ClientOptions } from './client.ts';
import { inProcessTransport } from './in-process.ts';
import type { Transport } from './transport.ts';

export interface InProcessPlatformOptions {
  /** The platform's seed (ids, casino server seeds); default '1'. */
  readonly seed?: string;
  /** The virtual clock's start, ms since the epoch; default 2025-01-01T00:00:00Z. */
  readonly startMs?: number;
  readonly faults?: PlatformOptions['faults'];
  readonly closures?: PlatformOptions['closures'];
}

export interface InProcessPlatform {
  readonly platform: Platform;
  readonly clock: VirtualClock;
  readonly transport: Transport;
  /** A client for one caller: its bearer key and the IP the per-IP limits see. */
  client(options?: ClientOptions): AfpClient;
}

export const IN_PROCESS_START_MS = Date.parse('2025-01-01T00:00:00.000Z');

export function createInProcessPlatform(options: InProcessPlatformOptions = {}): InProcessPlatform {
  const startMs = options.startMs ?? IN_PROCESS_START_MS;
  const clock = new VirtualClock(startMs);
  const platform = new Platform({
    seed: options.seed ?? '1',
    startMs,
    ...(options.faults === undefined ? {} : { faults: options.faults }),
    ...(options.closures === undefined ? {} : { closures: options.closures }),
  });
  const transport = inProcessTransport({ dispatcher: new Dispatcher(platform, ALL_ROUTES), clock });
  return { platform, clock, transport, client: (clientOptions = {}) => new AfpClient(transport, clientOptions) };
}
