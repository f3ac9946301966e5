// A small recorded run for the replay tests: four agents over one virtual day and a bit, driven
// in-process (VirtualClock + Dispatcher + ALL_ROUTES) through the typed client, every exchange
// handed to the recorder exactly as the simulator does (`onExchange({ atMs, agentId, request,
// response })`). Covers both styles, produced values reused in paths, bodies, the bearer header
// and a referral code, an expiry timer, a faucet cooldown, errors and a malformed raw body.
import { AfpClient } from '../../src/client/client.ts';
import { inProcessTransport } from '../../src/client/in-process.ts';
import type { Transport } from '../../src/client/transport.ts';
import { VirtualClock } from '../../src/core/clock.ts';
import { Dispatcher } from '../../src/http/dispatcher.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { Platform } from '../../src/platform/platform.ts';
import type { DefectName } from '../../src/services/shared/context.ts';
import { createRecorder, type Recorder } from '../../src/replay/recorder.ts';

export const START_MS = Date.parse('2025-03-01T00:00:00.000Z');
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

export interface RecordedRun {
  readonly recorder: Recorder;
  readonly platform: Platform;
}

export async function recordSmallRun(options: { seed: string; defects?: DefectName[] }): Promise<RecordedRun> {
  const clock = new VirtualClock(START_MS);
  const platform = new Platform({ seed: options.seed, startMs: START_MS, defects: options.defects ?? [] });
  const inner = inProcessTransport({
    dispatcher: new Dispatcher(platform, ALL_ROUTES),
    clock,
    checkJsonRoundTrip: true,
  });
  const recorder = createRecorder({ scenario: 'replay-fixture', seed: options.seed, startMs: START_MS });
  const as = (agentId: string, ip: string): AfpClient => {
    const transport: Transport = async (request) => {
      const response = await inner(request);
      recorder.onExchange({ atMs: clock.nowMs(), agentId, request, response });
      return response;
    };
    return new AfpClient(transport, { ip });
  };
  const at = (offsetMs: number): void => clock.set(START_MS + offsetMs);

  const aliceRegistered = await as('alice-0001', '10.0.0.1').faucetB.register({
    agent_id: 'alice-0001',
    metadata: { framework: 'langchain' },
  });
  const bobRegistered = await as('bob-0002', '10.0.0.2').faucetB.register({ agent_id: 'bob-0002' });
  if (!aliceRegistered.ok || !bobRegistered.ok) throw new Error('fixture: B registration failed');
  const alice = as('alice-0001', '10.0.0.1').withKey(aliceRegistered.body.api_key);
  const bob = as('bob-0002', '10.0.0.2').withKey(bobRegistered.body.api_key);
  const carolRegistered = await as('carol-0003', '10.0.0.3').faucetA.register({
    agent_id: 'carol-0003',
    referrer: aliceRegistered.body.referral_code,
  });
  const daveRegistered = await as('dave-0004', '10.0.0.4').faucetA.register({ agent_id: 'dave-0004' });
  if (!carolRegistered.ok || !daveRegistered.ok) throw new Error('fixture: A registration failed');
  const carol = as('carol-0003', '10.0.0.3').withKey(carolRegistered.body.api_key);
  const dave = as('dave-0004', '10.0.0.4').withKey(daveRegistered.body.api_key);

  at(MINUTE_MS);
  await carol.faucetA.claim();
  await dave.faucetA.claim();
  await carol.faucetA.claim(); // 409 FAUCET_CLAIMED
  await carol.faucetA.agent('carol-0003');

  at(5 * MINUTE_MS);
  const toBob = await alice.escrowB.create({
    amount: '2.50',
    receiver: bobRegistered.body.agent_address,
    description: 'design work',
    expires_in: 3_600,
  });
  const toAlice = await bob.escrowB.create({ amount: 1.2, receiver: 'alice-0001', expires_in: 7_200 });
  if (!toBob.ok || !toAlice.ok) throw new Error('fixture: escrow creation failed');

  at(10 * MINUTE_MS);
  await bob.escrowB.get(toBob.body.escrow_id);
  await bob.escrowB.release(toBob.body.escrow_id); // 403: only the sender releases
  await alice.escrowB.release(toBob.body.escrow_id);
  await alice.escrowB.release(toBob.body.escrow_id); // 409: already released
  await alice.escrowB.get('esc_0000000000000000'); // 404

  at(30 * MINUTE_MS);
  const aEscrow = await carol.escrowA.create({
    buyer: 'carol-0003',
    seller: daveRegistered.body.agent_address,
    amount: 0.5,
    memo: 'a test',
  });
  if (!aEscrow.ok) throw new Error('fixture: A escrow creation failed');
  await dave.escrowA.get(aEscrow.body.escrow_id);
  await carol.escrowA.release({ escrow_id: aEscrow.body.escrow_id });
  await carol.escrowA.list({ role: 'sender' });
  await alice.raw({
    mount: 'api',
    method: 'POST',
    path: '/escrow',
    rawBody: { text: '{"amount": 1,', contentType: 'application/json' },
  });

  at(3 * HOUR_MS); // bob's escrow to alice expired at 5 min + 2 h
  await bob.escrowB.get(toAlice.body.escrow_id);
  await alice.escrowB.list({ role: 'all' });
  await alice.faucetB.status();

  at(23 * HOUR_MS);
  await bob.faucetB.claim(); // 409: the cooldown of the registration grant runs 24 h

  at(24 * HOUR_MS + 5 * MINUTE_MS);
  await alice.faucetB.claim();
  await bob.faucetB.claim();
  await alice.faucetB.referrals();
  await as('anonymous', '10.0.0.9').faucetB.agents({ limit: 10 });
  return { recorder, platform };
}
