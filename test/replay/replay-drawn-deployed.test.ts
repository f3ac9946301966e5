// A casino recording replayed through the deployed dialect (issue 70 part 4): every game's bet,
// batch, audit, verification and tournament play is sent, and the outcomes the target draws itself
// are held to what must hold whatever the draw. Against afp serve --dialect deployed (honest) no
// finding goes beyond info. (A payout off the answer's own result is a money difference:
// test/replay/drawn-outcomes.test.ts; afp's defects that pay short show the short multiplier too,
// so an answer stays consistent with itself, and it is the audits that hold it to the game's law.)
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parseDocument } from 'yaml';
import { scenarioServeSettings } from '../../src/cli/serve-settings.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { startServe } from '../../src/server/listeners.ts';
import { recordScenario, replayThroughDialect, type ScenarioRecording } from './scenario-replay-fixture.ts';

let directory: string;
let recording: ScenarioRecording;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'afp-replay-drawn-'));
  const document = parseDocument(await readFile(join('scenarios', 'house-edge.yaml'), 'utf8'));
  const populations = document.get('populations', true) as {
    items: { get(k: string): unknown; set(k: string, v: unknown): void }[];
  };
  for (const population of populations.items)
    population.set(
      'count',
      Math.max(Math.min(2, Number(population.get('count'))), Math.round(Number(population.get('count')) / 26)),
    );
  document.set('duration', '1h');
  document.set('casino', { starting_deposit: '100.00' });
  const file = join(directory, 'house-edge.yaml');
  await writeFile(file, document.toString());
  recording = await recordScenario(file, directory, 'house-edge.jsonl');
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function replayInto(name: string): ReturnType<typeof replayThroughDialect> {
  const serve = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: DEPLOYED_ROUTES,
    layout: DEPLOYED_LAYOUT,
    port: 0,
    clockMode: 'manual',
    log: () => undefined,
    ...scenarioServeSettings(recording.scenario, { clockMode: 'manual', wallNowMs: Date.now() }),
  });
  try {
    return await replayThroughDialect(recording.recordPath, serve.urls.casino as string, directory, name);
  } finally {
    await serve.close();
  }
}

test('an honest deployed stand-in: bets, batches, audits, verifications and plays are sent; nothing beyond info', async () => {
  const { code, output, findings } = await replayInto('honest');
  expect(
    findings.filter((finding) => finding.severity !== 'info').map((finding) => finding.id),
    output,
  ).toEqual([]);
  expect(code, output).toBe(0);
  const operations = /^operations: .*$/m.exec(output)?.[0] ?? '';
  for (const op of ['casino.bet', 'casino.batch', 'casino.audit', 'casino.verify', 'casino.tournament-play'])
    expect(operations, output).toMatch(new RegExp(`${op.replace('.', '\\.')} [1-9]`));
});
