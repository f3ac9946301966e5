// A deployment behind a reverse proxy that now and then answers for it: a 502 or 504 page (nginx's
// HTML) where the service's JSON should be (src/live/gateway-answer.ts). Such a page is not the
// API's answer: the live commands report it as a minor `limit:<op>:gateway:<status>` finding, send
// a GET again, and never read the page as the API's shape or refusal. Before, the same proxy made
// `afp audit money` and `afp audit fairness` exit 3 (major `shape:casino.bet:not-json`, major
// `fairness:audit:refused:http_502`) and `afp check --target` end "an answer differs from the model"
// (exit 3) on a working stand-in. A write met by a gateway is not sent again (the target may have
// taken it): the house-edge audit counts it unsettled and goes on; the check stops with exit 4
// (the target did not answer), never 3. In-process: the deployed stand-in on real loopback
// listeners (manual clock, limits lifted), behind a loopback proxy that forwards every request.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseDeployedRulesFile } from '../../../src/cli/deployed-rules-file.ts';
import { drawSeed, parseHouseEdgeArgs } from '../../../src/cli/audit-house-edge.ts';
import { runHouseEdgeLive } from '../../../src/cli/audit-house-edge-live.ts';
import { parseFairnessArgs, runFairness } from '../../../src/cli/audit-fairness.ts';
import { parseMoneyArgs, runMoney } from '../../../src/cli/audit-money.ts';
import { main as checkEnding } from '../../../src/cli/check.ts';
import {
  RULES_SERVE_START_MS as START_MS,
  serveDeployedRules,
  type RulesServe,
} from '../../fixtures/deployed-rules-serve.ts';
import { rewritingProxy, type Rewrite } from '../../fixtures/rewriting-proxy.ts';
import { sink } from '../../fixtures/audit-sink.ts';
import type { AuditedFinding } from '../../fixtures/money-audit.ts';
import { coded } from '../../cli/ending-code.ts';
import { codeOf } from '../../cli/ending-code.ts';

const checkMain = coded(checkEnding);

const DIR = mkdtempSync(join(tmpdir(), 'afp-gateway-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const PAGE_502 =
  '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';
const PAGE_504 =
  '<html><head><title>504 Gateway Time-out</title></head><body><h1>504 Gateway Time-out</h1></body></html>';

/**
 * The stand-in behind a proxy whose `pick` chooses the calls a gateway answers for (after the
 * stand-in took them: the worst case for a write). The serve's own address in its answers is the
 * proxy's, so every casino call goes through it.
 */
async function behindProxy(
  pick: (request: { method: string; path: string }, index: number) => string | null,
): Promise<{ served: RulesServe; url: string; close(): Promise<void> }> {
  const rules = parseDeployedRulesFile('money: { float_noise: true }\n', 'float.yaml');
  if (!rules.ok) throw new Error(rules.message);
  const served = await serveDeployedRules(rules.value, '8');
  let proxyUrl = '';
  let index = 0;
  const rewrite: Rewrite = (request, answer) => {
    if (request.path.startsWith('/_afp')) return answer.text.replaceAll(served.casino, proxyUrl);
    const page = pick(request, index++);
    if (page === null) return answer.text.replaceAll(served.casino, proxyUrl);
    return { status: page === PAGE_504 ? 504 : 502, text: page };
  };
  const proxy = await rewritingProxy(served.casino, rewrite);
  proxyUrl = proxy.url;
  return {
    served,
    url: proxy.url,
    close: async () => {
      await proxy.close();
      await served.close();
    },
  };
}

function findingsOf(out: string): AuditedFinding[] {
  return (JSON.parse(readFileSync(join(out, 'findings.json'), 'utf8')) as { findings: AuditedFinding[] }).findings;
}

const idsOf = (findings: readonly AuditedFinding[]): string[] =>
  findings.map((finding) => `${finding.severity} ${finding.id}`);

describe('a gateway in front of the target answers for it now and then', () => {
  test('audit money and audit fairness: GETs sent again, a minor gateway finding, no shape finding, exit 0', async () => {
    // Every 5th GET, and the first audit trail read, answered by the gateway.
    let audits = 0;
    const target = await behindProxy((request, index) => {
      if (request.method !== 'GET') return null;
      if (request.path.includes('/fairness/audit') && audits++ === 0) return PAGE_502;
      return index % 5 === 2 ? PAGE_502 : null;
    });
    try {
      const key = await target.served.fundedKey('30');
      const moneyFlags = parseMoneyArgs(['--target', target.url, '--key', key, '--out', join(DIR, 'money')], START_MS);
      if ('errors' in moneyFlags) throw new Error(moneyFlags.errors.join('; '));
      const money = sink();
      const moneyCode = await codeOf(runMoney({ ...moneyFlags, quiet: true }, money.io, target.served.clock), money.io);
      const moneyIds = idsOf(findingsOf(join(DIR, 'money')));
      expect(moneyCode, `${money.text()}\n${moneyIds.join('\n')}`).toBe(0);
      expect(moneyIds).toContain('minor limit:casino.balance:gateway:502');
      expect(moneyIds.filter((id) => /not-json|error-shape/.test(id) && !id.startsWith('info '))).toStrictEqual([]);

      const fairFlags = parseFairnessArgs(['--target', target.url, '--key', key, '--out', join(DIR, 'fair')], START_MS);
      if ('errors' in fairFlags) throw new Error(fairFlags.errors.join('; '));
      const fair = sink();
      const fairCode = await codeOf(runFairness({ ...fairFlags, quiet: true }, fair.io, target.served.clock), fair.io);
      const fairFindings = findingsOf(join(DIR, 'fair'));
      expect(fairCode, `${fair.text()}\n${idsOf(fairFindings).join('\n')}`).toBe(0);
      const gateway = fairFindings.find((finding) => finding.id === 'limit:casino.audit:gateway:502');
      expect(gateway?.evidence).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/\S+ answered 502 \(sent again\): <html>/);
      expect(idsOf(fairFindings).filter((id) => /not-json|refused:http_502/.test(id))).toStrictEqual([]);
    } finally {
      await target.close();
    }
  });

  test('audit house-edge: a bet the gateway answered for is unsettled, and the audit goes on (exit 0)', async () => {
    const target = await behindProxy((request, index) =>
      request.method === 'POST' && index % 9 === 4 ? PAGE_504 : null,
    );
    try {
      const key = await target.served.fundedKey('30');
      const flags = parseHouseEdgeArgs(
        ['--target', target.url, '--key', key, '--games', 'coin_flip,dice', '--bets', '60', '--usdc', '5'],
        drawSeed,
      );
      if ('errors' in flags) throw new Error(flags.errors.join('; '));
      const edge = sink();
      const code = await codeOf(
        runHouseEdgeLive({ ...flags, seed: '3', out: join(DIR, 'edge'), quiet: true }, edge.io, target.served.clock),
        edge.io,
      );
      const findings = findingsOf(join(DIR, 'edge'));
      expect(code, `${edge.text()}\n${idsOf(findings).join('\n')}`).toBe(0);
      expect(edge.text()).not.toMatch(/stopped: the target stopped answering/);
      expect(idsOf(findings).some((id) => /^minor limit:casino\.(bet|batch):gateway:504$/.test(id))).toBe(true);
      expect(findings.some((finding) => /bets' outcomes were not read/.test(finding.title))).toBe(true);
    } finally {
      await target.close();
    }
  });

  test('check --target: a write the gateway answered for ends the check unavailable (exit 4), never a mismatch', async () => {
    let bets = 0;
    const target = await behindProxy((request) =>
      request.method === 'POST' && request.path.includes('/games/') && bets++ === 1 ? PAGE_504 : null,
    );
    try {
      let text = '';
      const code = await checkMain(
        ['--target', target.url, '--seed', '2', '--runs', '3', '--out', join(DIR, 'check')],
        {
          out: (chunk) => void (text += chunk),
          err: (chunk) => void (text += chunk),
        },
      );
      expect(code, text).toBe(4);
      expect(text).toMatch(
        /answered 504 by a gateway in front of the target, not by its API \(not sent again: whether the target took it is unknown\)/,
      );
      expect(text).not.toMatch(/differs from the model|not deterministic/);
    } finally {
      await target.close();
    }
  });
});
