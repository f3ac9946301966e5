/**
 * The classes a platform state may hold, for the state codec (state-codec.ts): every class met in
 * the graph of a freshly built Platform (that covers the classes the files keep to themselves:
 * the limiter's bindings, the platform's context), plus the exported classes made later, as agents
 * register, bet and get rate limited. A class met in a state and missing here makes encoding
 * throw, naming it (test/platform/state-codec.test.ts walks an exercised platform), never a
 * silently dropped field. The registry's fingerprint (the sorted names) is stored with every
 * checkpoint: a checkpoint of another set of classes is not loaded.
 */
import { Ledger } from '../core/ledger.ts';
import { Rng } from '../core/rng.ts';
import { WideAmounts } from '../core/wide-amounts.ts';
import { AgentBets } from '../services/casino/agent-bets.ts';
import { BankrollCurves } from '../services/casino/bankroll-curves.ts';
import { BetStats } from '../services/casino/bet-stats.ts';
import { CasinoAgent } from '../services/casino/casino-agent.ts';
import { DailyGameCap } from '../services/casino/daily-game-cap.ts';
import { JournalRing } from '../services/casino/account/journal-ring.ts';
import { DrawStream } from '../services/casino/fair/draw-stream.ts';
import { DistributionSampler } from '../services/casino/kelly/distribution-sampler.ts';
import { BankrollCurve } from '../services/casino/kelly/kelly-history.ts';
import { DepositKeyring } from '../services/wallet/keys/deposit-keyring.ts';
import { IdentityEntry, LimiterHandle, ServiceEntry } from './limiter-entry.ts';
import { AuthenticatedCaller, Platform } from './platform.ts';
import { classRegistry, type ClassRegistry, type TransientFields } from './state-codec.ts';
import { BucketAndDay, DayCounter, TokenBucket } from './token-bucket.ts';

/** Made after the platform is built (not met in a fresh one). */
const LATER_CLASSES = [
  AuthenticatedCaller,
  LimiterHandle,
  IdentityEntry,
  ServiceEntry,
  BucketAndDay,
  DayCounter,
  TokenBucket,
  CasinoAgent,
  AgentBets,
  BetStats,
  BankrollCurves,
  BankrollCurve,
  DailyGameCap,
  JournalRing,
  WideAmounts,
  DrawStream,
  DistributionSampler,
  DepositKeyring,
];

/** Kinds the codec writes itself (not classes of the registry). */
const BUILT_IN = new Set<unknown>([
  Map.prototype,
  Set.prototype,
  Array.prototype,
  Object.prototype,
  Buffer.prototype,
  Uint8Array.prototype,
  Uint16Array.prototype,
  Uint32Array.prototype,
  Int8Array.prototype,
  Int16Array.prototype,
  Int32Array.prototype,
  Float64Array.prototype,
  BigInt64Array.prototype,
  BigUint64Array.prototype,
]);

let registry: ClassRegistry | undefined;

/** The registry (built once per process). */
export function stateClassRegistry(): ClassRegistry {
  registry ??= buildRegistry();
  return registry;
}

/** The Authorization memo: header texts (keys) and a cache a restart rebuilds — never at rest. */
export const PLATFORM_TRANSIENT: TransientFields = new Map<object, Readonly<Record<string, () => unknown>>>([
  [Platform.prototype, { authMemo: () => new Map(), lastAuthorization: () => '', lastCaller: () => null }],
  // The swap aggregator's account nodes: derived again from its stored master seed on first use.
  [DepositKeyring.prototype, { nodes: () => null }],
  // The ledger's lookup memo and its listeners' scratch: which accounts moved last is not state
  // (funding in spans moves the same balances in fewer transfers, services/trading/funding-spans.ts).
  [
    Ledger.prototype,
    {
      after: () => ({ fromMicro: 0n, toMicro: 0n }),
      recentName: () => '',
      recentSlot: () => undefined,
      olderName: () => '',
      olderSlot: () => undefined,
    },
  ],
]);

function buildRegistry(): ClassRegistry {
  const prototypes = new Map<object, string>();
  const add = (prototype: object): void => {
    if (BUILT_IN.has(prototype) || prototypes.has(prototype)) return;
    prototypes.set(prototype, (prototype as { constructor: { name: string } }).constructor.name);
  };
  for (const kind of LATER_CLASSES) add(kind.prototype);
  collectPrototypes(new Platform({ seed: 'registry', startMs: 0 }), add);
  return classRegistry(
    [],
    [...prototypes].map(([prototype, name]) => [name, prototype] as const),
  );
}

/** Every prototype (other than the built-in kinds) met in the graph of `root`; bounded by the graph. */
function collectPrototypes(root: unknown, add: (prototype: object) => void): void {
  const seen = new Set<unknown>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value !== 'object' || seen.has(value)) continue;
    seen.add(value);
    if (value instanceof Map) for (const [key, item] of value) stack.push(key, item);
    else if (value instanceof Set || Array.isArray(value))
      for (const item of value as Iterable<unknown>) stack.push(item);
    else if (!ArrayBuffer.isView(value)) {
      const prototype = Reflect.getPrototypeOf(value);
      if (value instanceof Rng) continue; // the codec writes an Rng as its seed and position
      if (prototype !== null) add(prototype);
      for (const key of Reflect.ownKeys(value)) stack.push((value as Record<PropertyKey, unknown>)[key]);
    }
  }
}
