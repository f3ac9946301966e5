/**
 * `afp check`'s in-process target: every run gets a new Platform (same seed, fixed start instant,
 * optional deliberate defects), a VirtualClock moved only by the advance-time command, and the
 * in-process transport with the JSON round-trip check on (what passes here passes over HTTP).
 * Casino agents are funded with simulated chain deposits (the platform's own door, as the clock
 * is); wallet chains through the same mint as afp serve's door, and the chains' fee accounts read.
 * Split from check-target.ts (the shared target interface) beside live-target.ts.
 */
import { AfpClient } from '../client/client.ts';
import { inProcessTransport } from '../client/in-process.ts';
import { VirtualClock } from '../core/clock.ts';
import { Dispatcher } from '../http/dispatcher.ts';
import { ALL_ROUTES } from '../http/routes/index.ts';
import { Platform } from '../platform/platform.ts';
import { answerMint } from '../platform/wallet-mint-door.ts';
import type { DefectName } from '../services/shared/context.ts';
import { FEE_ACCOUNT } from '../services/wallet/chain-book.ts';
import { CHAIN_ROWS } from '../services/wallet/wallet-config.ts';
import { createModel, type CheckCapabilities } from './check-model.ts';
import { CHECK_START_MS, marketClosuresFrom, runNames, type CheckTarget } from './check-target.ts';
import type { CheckSystem } from './model-command.ts';

export function inProcessTarget(options: { seed: number; defects?: readonly DefectName[] }): CheckTarget {
  const capabilities: CheckCapabilities = {
    styleA: true,
    exactTime: true,
    advance: true,
    pool: true,
    casino: true,
    deposits: true,
    domains: true,
    trading: true,
    wallet: true,
  };
  const defects = options.defects ?? [];
  let runIndex = 0;
  return {
    description: `in-process (a fresh platform per run from ${new Date(CHECK_START_MS).toISOString()}, virtual clock${defects.length > 0 ? `, defects: ${defects.join(', ')}` : ''})`,
    capabilities,
    notes: [],
    newRun: () => {
      runIndex += 1;
      const clock = new VirtualClock(CHECK_START_MS);
      const marketClosures = marketClosuresFrom(CHECK_START_MS);
      const platform = new Platform({
        seed: String(options.seed),
        startMs: CHECK_START_MS,
        defects,
        trading: { closures: marketClosures },
      });
      const real = inProcessSystem(platform, clock);
      return Promise.resolve({
        model: createModel({
          nowMs: CHECK_START_MS,
          capabilities,
          names: runNames('', runIndex),
          marketClosures,
          tradingPrices: { seed: String(options.seed), shocks: [] },
        }),
        real,
      });
    },
  };
}

/** The system a run's commands act on: the platform through its transport, and its own doors (clock, deposits, mint, fee accounts). */
function inProcessSystem(platform: Platform, clock: VirtualClock): CheckSystem {
  const transport = inProcessTransport({
    dispatcher: new Dispatcher(platform, ALL_ROUTES),
    clock,
    checkJsonRoundTrip: true,
  });
  return {
    client: new AfpClient(transport),
    nowMs: () => clock.nowMs(),
    moveClock: (toMs) => {
      clock.set(toMs);
      return Promise.resolve();
    },
    deposit: (agentId, amountMicro) => {
      // The platform runs the timers due by now first, as the dispatcher does before a request.
      platform.advanceTo(clock.nowMs());
      const outcome = platform.casino.account.simulateDeposit({ agentId, chain: 'base', amountMicro }, clock.nowMs());
      return Promise.resolve(
        outcome.ok
          ? { status: outcome.value.status, confirmAtMs: outcome.value.confirmAtMs }
          : { status: `${outcome.code}: ${outcome.message}`, confirmAtMs: null },
      );
    },
    walletMint: (body) =>
      Promise.resolve(
        answerMint(
          platform,
          { chain: body.chain, address: body.address, amount: body.amount, token: body.token ?? null },
          clock.nowMs(),
        ),
      ),
    walletFeeAccount: (chain) => {
      platform.advanceTo(clock.nowMs());
      return platform.wallet.chains.balanceOf(
        chain,
        CHAIN_ROWS.find((row) => row.chain === chain)?.nativeAsset ?? '',
        FEE_ACCOUNT,
      );
    },
  };
}
