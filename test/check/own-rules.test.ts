// `afp check --target` judges a value that neither the documents nor the target's dialect give as
// the target's own rule (a minor `rule:` finding, the run holds), not as a broken target, unless the
// value is another state of the same record. Real loopback listeners: a deployed stand-in (manual
// clock) whose escrow service is reached through a proxy that rewrites one field of its answers:
//   - every `"status":"funded"` shown as `"active"`: a name of the target's own → exit 0, minor;
//   - a held escrow read back as `"released"`: the escrow in another state → exit 3, shrunk.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { main } from '../../src/cli/check.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { adminFundedTargetText } from '../fixtures/deployed-target.ts';
import { manualServes } from '../fixtures/manual-serves.ts';
import { rewritingProxy, type Rewrite } from '../fixtures/rewriting-proxy.ts';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});
const serve = manualServes({
  trustedProxies: LOOPBACK_PROXIES,
  routes: DEPLOYED_ROUTES,
  layout: DEPLOYED_LAYOUT,
  seed: '5',
  startMs: Date.parse('2025-01-01T00:00:00.000Z'),
});

async function checkThrough(rewrite: Rewrite): Promise<{ code: number; text: string }> {
  const handle = await serve();
  const casino = handle.urls.casino as string;
  const proxy = await rewritingProxy(handle.urls.escrow as string, rewrite);
  closers.push(proxy.close);
  const directory = await mkdtemp(join(tmpdir(), 'afp-own-rules-'));
  const file = join(directory, 'target.yaml');
  await writeFile(file, adminFundedTargetText('own-rules', { casino, escrow: proxy.url }, casino));
  let text = '';
  const code = await main(
    ['--target', file, '--seed', '7', '--runs', '8', '--max-commands', '30', '--out', directory, '--quiet'],
    { out: (chunk) => void (text += chunk), err: (chunk) => void (text += chunk) },
  );
  return { code, text };
}

describe('a value of the target’s own', () => {
  test('an escrow status no document names is a minor rule finding, and the run holds (exit 0)', async () => {
    const { code, text } = await checkThrough((_request, answer) =>
      answer.text.replaceAll('"status":"funded"', '"status":"active"'),
    );
    expect(code, text).toBe(0);
    expect(text).toMatch(
      /^ {2}minor rule:escrow\.status\.created: the status of a new escrow: 'active', expected 'locked' \(documents\) or 'funded' \(dialect deployed\): a rule of the target's own( \(×\d+\))?$/m,
    );
    expect(text).toMatch(/^ok: 8 runs held/m);
  });

  test('a held escrow read back as released contradicts the run (exit 3)', async () => {
    const { code, text } = await checkThrough((request, answer) =>
      request.method === 'GET' ? answer.text.replaceAll('"status":"funded"', '"status":"released"') : answer.text,
    );
    expect(code, text).toBe(3);
    expect(text).toContain("the status of a new escrow: 'released', expected 'locked' (documents) or 'funded'");
  });
});
