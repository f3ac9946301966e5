// A served platform and its twin, for the model-based property test (twin-property.test.ts).
// The subject is `afp serve` as its listeners run it (in-process, on loopback): --data with a
// command log on a real SQLite file, checkpoints every few commands (taken by the worker thread),
// a manual clock moved through POST /_afp/clock (sliced, clock-move.ts), and time travel. The twin
// is a bare Platform behind the in-process dispatcher with a virtual clock: it receives the same
// requests, never checkpoints, never restarts, never snapshots or reverts; its clock only moves
// forward, as ordinary advancing (the dispatcher runs the due timers before each request).
// Every request goes to both (the mirror transport); the two answers must be equal, and the
// subject's goes on to afp check's model. Between commands, disturbances (twin-disturbances.ts)
// touch the subject alone and then demand the same state digest as the twin's.
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { isDeepStrictEqual } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHECK_START_MS, marketClosuresFrom, runNames } from '../../src/check/check-target.ts';
import { inProcessTarget } from '../../src/check/in-process-target.ts';
import { createModel, type CheckModel } from '../../src/check/check-model.ts';
import type { CheckSystem } from '../../src/check/model-command.ts';
import { AfpClient } from '../../src/client/client.ts';
import { httpTransport } from '../../src/client/http-transport.ts';
import { inProcessTransport } from '../../src/client/in-process.ts';
import type { Transport, TransportRequest, TransportResponse } from '../../src/client/transport.ts';
import { VirtualClock } from '../../src/core/clock.ts';
import { formatDecimal } from '../../src/core/money.ts';
import { Dispatcher } from '../../src/http/dispatcher.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { Platform } from '../../src/platform/platform.ts';
import { platformDigest } from '../../src/platform/state-digest.ts';
import type { CommandLog } from '../../src/server/command-log.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { DEFAULT_CONFIG } from '../../src/services/shared/config.ts';
import { FEE_ACCOUNT } from '../../src/services/wallet/chain-book.ts';
import { CHAIN_ROWS } from '../../src/services/wallet/wallet-config.ts';
import { mintBody, mintOnChain } from '../../src/services/wallet/wallet-mint.ts';
import { openedLog } from '../fixtures/command-logs.ts';

export const TWIN_SEED = '5';
/** Small, so that a run of a few dozen commands crosses several checkpoints of the worker. */
export const TWIN_CHECKPOINT_EVERY = 8;

/** What the commands may do: all of it, as in-process (the subject serves every door afp check's in-process runs use). */
const CAPABILITIES = inProcessTarget({ seed: Number(TWIN_SEED) }).capabilities;

export class TwinMismatch extends Error {
  override readonly name = 'TwinMismatch';
}

/** The twin: a platform that is only ever sent requests and moved forward. */
interface Twin {
  readonly platform: Platform;
  readonly clock: VirtualClock;
  readonly transport: Transport;
}

function freshTwin(): Twin {
  const clock = new VirtualClock(CHECK_START_MS);
  const platform = new Platform({
    seed: TWIN_SEED,
    startMs: CHECK_START_MS,
    // As afp serve builds its platform: funding in spans (the same state, whatever steps reach an instant).
    fundingSpans: true,
    trading: { shocks: [], closures: marketClosuresFrom(CHECK_START_MS) },
  });
  const transport = inProcessTransport({
    dispatcher: new Dispatcher(platform, ALL_ROUTES),
    clock,
    checkJsonRoundTrip: true,
  });
  return { platform, clock, transport };
}

/** What the disturbances count over the whole test (the test asserts they happened). */
export interface TwinCounts {
  digests: number;
  roundTrips: number;
  restarts: number;
  /** Restarts whose recovery loaded a checkpoint (and replayed only the tail). */
  checkpointLoads: number;
  requests: number;
}

/** The subject (served, with --data) and the twin of one test: one server, reset between runs. */
export class TwinPair {
  readonly dir = mkdtempSync(join(tmpdir(), 'afp-twin-'));
  readonly file = join(this.dir, 'subject.afp');
  readonly counts: TwinCounts = { digests: 0, roundTrips: 0, restarts: 0, checkpointLoads: 0, requests: 0 };
  private handle: ServeHandle | null = null;
  private log: CommandLog | null = null;
  private twin: Twin = freshTwin();
  private runIndex = 0;
  /** Snapshots the subject holds (a revert keeps its snapshot): a round trip is skipped near the bound. */
  held = 0;

  async start(): Promise<void> {
    this.log = await openedLog(this.file, {
      seed: TWIN_SEED,
      startMs: CHECK_START_MS,
      clockMode: 'manual',
      wallOffsetMs: 0,
      config: DEFAULT_CONFIG,
      faults: [],
      closures: [],
      trading: { shocks: [], closures: marketClosuresFrom(CHECK_START_MS) },
      defects: [],
    });
    await this.serve();
  }

  /** A fresh run: the subject reset through its door (logged, snapshots dropped), a new twin, a new model. */
  async newRun(): Promise<{ model: CheckModel; real: TwinSystem }> {
    this.runIndex++;
    const reset = await this.admin('POST', '/_afp/reset', {});
    if (reset.status !== 200) throw new TwinMismatch(`reset answered ${reset.status}`);
    this.held = 0;
    this.twin = freshTwin();
    const model = createModel({
      nowMs: CHECK_START_MS,
      capabilities: CAPABILITIES,
      names: runNames('', this.runIndex),
      marketClosures: marketClosuresFrom(CHECK_START_MS),
      tradingPrices: { seed: TWIN_SEED, shocks: [] },
    });
    return { model, real: new TwinSystem(this) };
  }

  /** The subject's address of a mount (it changes on a restart). */
  subjectTransport(): Transport {
    return httpTransport({ urls: this.subject.urls, timeoutMs: 30_000 });
  }

  get subject(): ServeHandle {
    if (this.handle === null) throw new Error('the subject is not serving');
    return this.handle;
  }

  get twinSide(): Twin {
    return this.twin;
  }

  /** An admin request to the subject alone. */
  async admin(method: 'GET' | 'POST', path: string, body?: unknown): Promise<TransportResponse> {
    return await this.subjectTransport()({ mount: 'api', method, path, ...(body === undefined ? {} : { body }) });
  }

  /** The subject's GET /_afp/digest and the twin's digest at the same instant; throws when they differ. */
  async expectSameDigest(after: string): Promise<void> {
    const answer = await this.admin('GET', '/_afp/digest');
    const body = answer.body as { digest?: unknown; now_ms?: unknown };
    this.twin.platform.advanceTo(this.twin.clock.nowMs());
    const twinDigest = platformDigest(this.twin.platform);
    if (answer.status !== 200 || body.now_ms !== this.twin.clock.nowMs() || body.digest !== twinDigest)
      throw new TwinMismatch(
        `after ${after}: the subject's digest ${String(body.digest)} at ${String(body.now_ms)} (status ${answer.status}), the twin's ${twinDigest} at ${this.twin.clock.nowMs()}`,
      );
    this.counts.digests++;
  }

  /** Closes the subject gracefully (the checkpoint due is written by its worker) and serves the same file again. */
  async restart(): Promise<void> {
    await this.subject.close({ forceAfterMs: 1_000 });
    this.log?.close();
    this.handle = null;
    this.log = await openedLog(this.file);
    await this.serve();
    this.counts.restarts++;
    if (this.subject.recovery?.checkpointSeq !== undefined) this.counts.checkpointLoads++;
  }

  async close(): Promise<void> {
    await this.handle?.close({ forceAfterMs: 1_000 });
    this.log?.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async serve(): Promise<void> {
    if (this.log === null) throw new Error('no command log');
    this.handle = await startServe({
      routes: ALL_ROUTES,
      seed: TWIN_SEED,
      port: 0,
      clockMode: 'manual',
      startMs: CHECK_START_MS,
      trustedProxies: LOOPBACK_PROXIES,
      commandLog: this.log,
      checkpointEveryCommands: TWIN_CHECKPOINT_EVERY,
      // No shedding: a busy machine's loop delay must not turn an answer into a 503 on one side only.
      shed: { maxInFlight: 0, maxEventLoopDelayMs: 0 },
      log: () => undefined,
    });
  }
}

/** JSON as the wire carries it (the twin's in-process answers hold the same values, in objects). */
function wire(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

function describe(request: TransportRequest): string {
  return `${request.method} ${request.mount}${request.path}${request.body === undefined ? '' : ` ${JSON.stringify(request.body)}`}`;
}

/** afp check's system over the pair: every request to the twin, then to the subject; equal answers or a TwinMismatch. */
export class TwinSystem implements CheckSystem {
  readonly client: AfpClient;
  readonly pair: TwinPair;

  constructor(pair: TwinPair) {
    this.pair = pair;
    this.client = new AfpClient((request) => this.mirror(request));
  }

  nowMs(): number {
    return this.pair.twinSide.clock.nowMs();
  }

  async moveClock(toMs: number): Promise<void> {
    this.pair.twinSide.clock.set(toMs);
    const answer = await this.pair.admin('POST', '/_afp/clock', { to_ms: toMs });
    const nowMs = (answer.body as { now_ms?: unknown }).now_ms;
    if (answer.status !== 200 || nowMs !== toMs)
      throw new TwinMismatch(`POST /_afp/clock to ${toMs}: the subject answered ${answer.status} at ${String(nowMs)}`);
  }

  async deposit(agentId: string, amountMicro: bigint): Promise<{ status: string; confirmAtMs: number | null }> {
    const twin = this.pair.twinSide;
    twin.platform.advanceTo(twin.clock.nowMs());
    const outcome = twin.platform.casino.account.simulateDeposit(
      { agentId, chain: 'base', amountMicro },
      twin.clock.nowMs(),
    );
    const answer = await this.pair.admin('POST', '/_afp/casino/deposit', {
      agent_id: agentId,
      chain: 'base',
      amount: formatDecimal(amountMicro),
    });
    const body = answer.body as { confirm_at_ms?: unknown; status?: unknown; code?: unknown };
    const same = outcome.ok
      ? answer.status === 200 &&
        body.confirm_at_ms === outcome.value.confirmAtMs &&
        body.status === outcome.value.status
      : answer.status !== 200 && body.code === outcome.code;
    if (!same)
      throw new TwinMismatch(
        `deposit ${agentId} ${formatDecimal(amountMicro)}: the twin ${JSON.stringify(outcome.ok ? outcome.value : outcome.code)}, the subject ${answer.status} ${JSON.stringify(body)}`,
      );
    return outcome.ok
      ? { status: outcome.value.status, confirmAtMs: outcome.value.confirmAtMs }
      : { status: `${outcome.code}: ${outcome.message}`, confirmAtMs: null };
  }

  async walletMint(body: {
    chain: string;
    address: string;
    amount: string;
    token?: string;
  }): Promise<{ status: number; body: unknown }> {
    const twin = this.pair.twinSide;
    twin.platform.advanceTo(twin.clock.nowMs());
    const minted = mintOnChain(
      twin.platform.wallet,
      { chain: body.chain, address: body.address, amount: body.amount, token: body.token ?? null },
      twin.clock.nowMs(),
    );
    const answer = await this.pair.admin('POST', '/_afp/wallet/mint', body);
    const expected = minted.ok ? mintBody(minted.value) : null;
    if (minted.ok ? answer.status !== 200 || !isDeepStrictEqual(answer.body, wire(expected)) : answer.status === 200)
      throw new TwinMismatch(
        `mint ${JSON.stringify(body)}: the twin ${JSON.stringify(expected ?? (minted.ok ? null : minted.code))}, the subject ${answer.status} ${JSON.stringify(answer.body)}`,
      );
    return { status: answer.status, body: answer.body };
  }

  walletFeeAccount(chain: Parameters<NonNullable<CheckSystem['walletFeeAccount']>>[0]): bigint {
    const asset = CHAIN_ROWS.find((row) => row.chain === chain)?.nativeAsset ?? '';
    const read = (platform: Platform): bigint => platform.wallet.chains.balanceOf(chain, asset, FEE_ACCOUNT);
    const twin = this.pair.twinSide;
    twin.platform.advanceTo(twin.clock.nowMs());
    const subject = this.pair.subject.platform;
    subject.advanceTo(twin.clock.nowMs());
    const [ofTwin, ofSubject] = [read(twin.platform), read(subject)];
    if (ofTwin !== ofSubject)
      throw new TwinMismatch(`the ${chain} fee account: the twin ${ofTwin}, the subject ${ofSubject}`);
    return ofSubject;
  }

  private async mirror(request: TransportRequest): Promise<TransportResponse> {
    const ofTwin = await this.pair.twinSide.transport(request);
    const ofSubject = await this.pair.subjectTransport()(request);
    this.pair.counts.requests++;
    if (ofTwin.status !== ofSubject.status || !isDeepStrictEqual(wire(ofTwin.body), ofSubject.body))
      throw new TwinMismatch(
        `${describe(request)}: the twin answered ${ofTwin.status} ${JSON.stringify(ofTwin.body)}, the subject ${ofSubject.status} ${JSON.stringify(ofSubject.body)}`,
      );
    return ofSubject;
  }
}
