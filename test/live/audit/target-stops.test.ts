// A target that stops answering in the middle of a live audit.
// House edge: its bets were placed,
// then the rotation that reveals their seed is never answered (every call after it is hung up).
// Found by a probe: the audit then called every bet's seed "not revealed" (major, exit 3) though
// nothing was withheld. Now the phase's bets are only unverified, the audit stops as unreachable
// and exits 4, with no fairness finding. In-process: the deployed stand-in on real loopback
// listeners (manual clock, limits lifted), behind a loopback proxy that hangs up from the rotation on.
// Money: the probes the target's silence skipped are no pass either. `afp audit money` exits 4 (the
// target did not answer), names the probes it could not run and the last unanswered call, and its
// findings report's verdict says so. Before, a prober's deployment that died at its first tournament
// left the audit "ok", exit 0, the two pot probes merely listed as skipped (ECONNRESET). The proxy
// hangs up from the first tournament creation on.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { drawSeed, parseHouseEdgeArgs } from '../../../src/cli/audit-house-edge.ts';
import { parseMoneyArgs, runMoney } from '../../../src/cli/audit-money.ts';
import { runHouseEdgeLive } from '../../../src/cli/audit-house-edge-live.ts';
import { parseDeployedRulesFile } from '../../../src/cli/deployed-rules-file.ts';
import { RULES_SERVE_START_MS as START_MS, serveDeployedRules } from '../../fixtures/deployed-rules-serve.ts';
import { rewritingProxy } from '../../fixtures/rewriting-proxy.ts';
import { sink } from '../../fixtures/audit-sink.ts';
import { codeOf } from '../../cli/ending-code.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-target-stops-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

test('the rotation is never answered: exit 4 (unreachable), no "not revealed" finding', async () => {
  const rules = parseDeployedRulesFile('money: { float_noise: true }\n', 'float.yaml');
  if (!rules.ok) throw new Error(rules.message);
  const served = await serveDeployedRules(rules.value, '9');
  let proxyUrl = '';
  let stopped = false;
  const proxy = await rewritingProxy(served.casino, (request, answer) => {
    if (request.path.includes('/fairness/rotate')) stopped = true;
    if (stopped && !request.path.startsWith('/_afp')) return null;
    return answer.text.replaceAll(served.casino, proxyUrl);
  });
  proxyUrl = proxy.url;
  try {
    const key = await served.fundedKey('20');
    const flags = parseHouseEdgeArgs(
      ['--target', proxy.url, '--key', key, '--games', 'coin_flip,dice', '--bets', '40', '--max-seconds', '120'],
      drawSeed,
    );
    if ('errors' in flags) throw new Error(flags.errors.join('; '));
    const edge = sink();
    const out = join(DIR, 'edge');
    const code = await codeOf(
      runHouseEdgeLive({ ...flags, seed: '3', out, quiet: true }, edge.io, served.clock),
      edge.io,
    );
    const findings = (JSON.parse(readFileSync(join(out, 'findings.json'), 'utf8')) as { findings: { id: string }[] })
      .findings;
    expect(stopped).toBe(true);
    expect(code, edge.text()).toBe(4);
    expect(edge.text()).toMatch(/stopped: the target stopped answering/);
    expect(findings.filter((finding) => finding.id.startsWith('fairness:')).map((finding) => finding.id)).toEqual([]);
  } finally {
    await proxy.close();
    await served.close();
  }
});

test('audit money: the target dies at its first tournament; exit 4 (unreachable), naming the probes it could not run', async () => {
  const rules = parseDeployedRulesFile('money: { float_noise: true }\n', 'float.yaml');
  if (!rules.ok) throw new Error(rules.message);
  const served = await serveDeployedRules(rules.value, '8');
  let proxyUrl = '';
  let stopped = false;
  const proxy = await rewritingProxy(served.casino, (request, answer) => {
    if (request.method === 'POST' && request.path.includes('/tournaments')) stopped = true;
    if (stopped && !request.path.startsWith('/_afp')) return null;
    return answer.text.replaceAll(served.casino, proxyUrl);
  });
  proxyUrl = proxy.url;
  try {
    const key = await served.fundedKey('30');
    const out = join(DIR, 'money');
    const flags = parseMoneyArgs(['--target', proxy.url, '--key', key, '--out', out], START_MS);
    if ('errors' in flags) throw new Error(flags.errors.join('; '));
    const printed = sink();
    const code = await codeOf(runMoney({ ...flags, quiet: true }, printed.io, served.clock), printed.io);
    const text = printed.text();
    expect(stopped).toBe(true);
    expect(code, text).toBe(4);
    expect(text).toMatch(/^skipped tournament-pool: /m);
    expect(text).toMatch(
      /^stopped: the target did not answer, so these could not run: tournament-pool, challenge-settlement \(last: (POST|GET) http:\/\/127\.0\.0\.1:\d+\/\S+: .+\)$/m,
    );
    const report = JSON.parse(readFileSync(join(out, 'findings.json'), 'utf8')) as { verdict: unknown };
    expect(JSON.stringify(report.verdict)).toMatch(/the target did not answer, so these could not run/);
  } finally {
    await proxy.close();
    await served.close();
  }
});
