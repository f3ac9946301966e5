// The replay probes of `afp audit fairness` against a real `afp serve` on loopback (manual clock):
// the documents' casino refuses every replay (a spent draw, a never-dealt draw) and answers a batch
// sent twice with new bets on new nonces — no finding, and the client-picked nonce is skipped with
// its reason (style A offers no `casino.draw-at`); with the deliberate `casino-replayable-nonce`
// defect each replay is settled again, three critical findings with evidence and curl lines; the
// deployed dialect tries the client-picked nonce too (its `casino.draw-at` row) and afp's deployed
// casino refuses it.
import { afterEach, describe, expect, test } from 'vitest';
import { Deadline } from '../../src/core/deadline.ts';
import type { WaitClock } from '../../src/core/clock.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { runReplayProbes, type ReplayProbeResult } from '../../src/audit/probes/replay-probes.ts';
import { FindingsCollector } from '../../src/report/findings/finding.ts';
import { openLiveAccount } from '../../src/live/live-account.ts';
import { LiveSession } from '../../src/live/live-session.ts';
import { curlOf } from '../../src/live/curl.ts';
import type { Target } from '../../src/live/target.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import type { DefectName } from '../../src/services/shared/context.ts';
import { START_MS } from '../client/fixtures.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const handles: ServeHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close({ forceAfterMs: 0 });
});

const clock: WaitClock = { nowMs: () => 0, sleep: async () => undefined };

async function replay(
  dialect: 'A' | 'deployed',
  defects: readonly DefectName[] = [],
): Promise<{ findings: FindingsCollector; results: ReplayProbeResult[] }> {
  const deployed = dialect === 'deployed';
  const handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: deployed ? DEPLOYED_ROUTES : ALL_ROUTES,
    ...(deployed ? { layout: DEPLOYED_LAYOUT } : {}),
    seed: '13',
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    defects,
    log: () => undefined,
  });
  handles.push(handle);
  const urls = handle.urls;
  const adminUrl = (deployed ? urls.casino : urls.api) as string;
  const target: Target = {
    name: 'afp serve',
    source: adminUrl,
    afpServe: true,
    adminUrl,
    services: { casino: { url: urls.casino as string, dialect } },
    register: { service: 'casino' },
    funding: { method: 'admin-deposit' },
    limits: {},
    fairness: deployed ? 'deployed' : 'afp',
  };
  const session = new LiveSession({ target, clock, deadline: new Deadline(clock, 60) });
  const account = await openLiveAccount({
    session,
    key: null,
    fundMicro: 5_000_000n,
    clock,
    deadline: new Deadline(clock, 60),
  });
  if (!account.ok) throw new Error(account.message);
  const findings = new FindingsCollector();
  const results = await runReplayProbes({ session, apiKey: account.value.apiKey, findings, curlOf, runTag: 't1' });
  return { findings, results };
}

describe('replay probes', () => {
  test('the documents casino refuses every replay: three probes ran, no finding; the client-picked nonce is skipped with its reason', async () => {
    const { findings, results } = await replay('A');
    expect(results.map((result) => [result.name, result.status])).toEqual([
      ['draw-replay', 'ran'],
      ['batch-replay', 'ran'],
      ['seed-nonce-reuse', 'ran'],
    ]);
    expect(results[0]?.note).toMatch(
      /^deal nonce \d+, draw settled \(bet bet_\w+\); the same draw again: refused 404 NOT_FOUND; a draw for nonce \d+, never dealt: refused 404 NOT_FOUND$/,
    );
    expect(results[1]?.note).toMatch(
      /^the same batch of 3 twice: 3 then 3 bets placed, 0 old bet ids, 0 reused nonces, balance [\d.]+ → [\d.]+$/,
    );
    expect(results[2]?.note).toMatch(
      /nonces (\d+) and (?!\1)\d+; a client-picked nonce not tried: dialect A does not offer casino\.draw-at/,
    );
    expect(findings.list()).toEqual([]);
  });

  test('casino-replayable-nonce: the replayed draw, the batch and the client seed each settle again — critical, with evidence and the curl lines', async () => {
    const { findings, results } = await replay('A', ['casino-replayable-nonce']);
    expect(results.map((result) => result.findingIds)).toEqual([
      ['replay:casino.draw:settled-twice'],
      ['replay:casino.batch:nonce-reused'],
      ['replay:casino.bet:client-seed-nonce-reused'],
    ]);
    const listed = findings.list();
    expect(listed.map((finding) => finding.severity)).toEqual(['critical', 'critical', 'critical']);
    const draw = listed.find((finding) => finding.id === 'replay:casino.draw:settled-twice');
    expect(draw).toMatchObject({ kind: 'money', endpoint: 'casino.draw (the video-poker draw)' });
    expect(draw?.evidence).toMatch(
      /^deal nonce 0 \(client seed afp-replay-draw-t1\); first draw bet bet_\w+; the same draw again: bet bet_\w+, balance [\d.]+ → [\d.]+$/,
    );
    const lines = draw?.reproduce?.split(' && ') ?? [];
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(lines[1]);
    expect(lines[0]).toMatch(
      /^curl -sS -X POST 'http:\/\/127\.0\.0\.1:\d+\/api\/v1\/games\/video-poker\/draw' .*--data '\{"nonce":0,"holds":\[0,1,2,3,4\],"amount":0\.01\}'$/,
    );
    const batch = listed.find((finding) => finding.id === 'replay:casino.batch:nonce-reused');
    expect(batch?.reproduce?.split(' && ')).toHaveLength(2);
    expect(batch?.reproduce).toContain('/api/v1/bets/batch');
  });

  test('the deployed dialect also draws at a client-picked spent nonce; afp serve --dialect deployed refuses it and every replay', async () => {
    const { findings, results } = await replay('deployed');
    expect(results.map((result) => [result.name, result.status])).toEqual([
      ['draw-replay', 'ran'],
      ['batch-replay', 'ran'],
      ['seed-nonce-reuse', 'ran'],
    ]);
    expect(results[0]?.note).toMatch(
      /the same draw again: refused 400 hand_not_found; a draw for nonce \d+, never dealt: refused 400 hand_not_found$/,
    );
    expect(results[2]?.note).toMatch(/a draw at the spent \(client seed, nonce \d+\): refused 400 hand_not_found$/);
    expect(findings.list().filter((finding) => finding.severity !== 'info')).toEqual([]);
  });

  test('casino-replayable-nonce on the deployed dialect: the draw at a spent (client seed, nonce) is settled — critical', async () => {
    const { findings } = await replay('deployed', ['casino-replayable-nonce']);
    const ids = findings
      .list()
      .filter((finding) => finding.severity === 'critical')
      .map((finding) => finding.id);
    expect(ids).toContain('replay:casino.draw:settled-twice');
    expect(ids).toContain('replay:casino.bet:client-seed-nonce-reused');
  });
});
