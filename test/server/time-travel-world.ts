// A small world for the time-travel tests, over HTTP to any served platform (in-process listeners
// or an `afp serve` child): the bench's century world (bench/century-world.ts: two casino agents
// funded by simulated deposits, and one of each other timer), re-exported here with what the tests
// read of it.
import type { Target, World } from '../../bench/century-world.ts';

export {
  buildWorld,
  DAY_MS,
  HOUR_MS,
  urlTarget,
  type Answer,
  type Target,
  type World,
} from '../../bench/century-world.ts';

/** What the world's timers did, as the agents see it. */
export async function observe(target: Target, world: World): Promise<unknown> {
  const read = async (mount: string, path: string, key: string): Promise<Record<string, unknown>> =>
    (await target.send(mount, 'GET', path, { key })).body;
  return {
    escrow: await read('api', `/escrow/${world.escrowId}`, world.alice),
    disputed: await read('api', `/escrow/${world.disputedId}`, world.alice),
    withdrawals: await read('casino', '/api/v1/auth/withdrawals', world.bob),
    tournament: await read('casino', `/api/v1/tournaments/${world.tournamentId}`, world.alice),
    aliceLedger: await read('casino', '/api/v1/auth/ledger', world.alice),
    bobLedger: await read('casino', '/api/v1/auth/ledger', world.bob),
    balances: [
      await read('casino', '/api/v1/auth/balance', world.alice),
      await read('casino', '/api/v1/auth/balance', world.bob),
    ],
  };
}
