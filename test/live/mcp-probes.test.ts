// The MCP-door probes of `afp audit money` (src/audit/probes/mcp-probes.ts) through the command a
// user runs, against real loopback serves whose /mcp is the MCP SDK's own server: the deployed
// stand-in with the deployment's two MCP flaws (DEPLOYED.md §3, §4: claim_faucet skips the per-IP
// cooldown, release_escrow credits nobody) is found out, with evidence and a curl line that keeps
// the key out; the same stand-in without them, the documents' style A, and a deployment whose
// services serve no /mcp at all raise nothing (no false alarm). The deployed serves trust no proxy, as afp serve starts by default: every request
// comes from one address, 127.0.0.1, as a user's audit does from one machine.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { LOOPBACK_PROXIES, NO_PROXIES } from '../../src/http/trusted-proxies.ts';
import { deployedLayout } from '../../src/server/deployed-layout.ts';
import type { DefectName } from '../../src/services/shared/context.ts';
import { DEFAULT_CONFIG } from '../../src/services/shared/config.ts';
import { adminFundedTargetText } from '../fixtures/deployed-target.ts';
import { manualServes } from '../fixtures/manual-serves.ts';
import { ESCROW_FEE_UNSTATED, rewritingProxy } from '../fixtures/rewriting-proxy.ts';
import { auditedServes, moneyAudit, type AuditedFinding, type MoneyAudit } from '../fixtures/money-audit.ts';

const START_MS = Date.parse('2025-03-01T00:00:00Z');
const DIR = mkdtempSync(join(tmpdir(), 'afp-mcp-probes-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));
const SERVE = { trustedProxies: LOOPBACK_PROXIES, seed: '9', startMs: START_MS } as const;
const DEPLOYED = {
  ...SERVE,
  trustedProxies: NO_PROXIES,
  routes: DEPLOYED_ROUTES,
  layout: deployedLayout({ floatMoney: true }),
};
const MCP_DEFECTS: readonly DefectName[] = ['mcp-claim-skips-ip-cooldown', 'mcp-release-credits-nobody'];
const { serves, audit } = auditedServes({ base: SERVE, deployed: DEPLOYED, defects: MCP_DEFECTS, dir: DIR });
/** The deployed stand-in with an escrow fee of 5%, not the documents' 1%: with and without the unpaid release. */
const FIVE_PERCENT = {
  ...DEPLOYED,
  config: { ...DEFAULT_CONFIG, escrow: { ...DEFAULT_CONFIG.escrow, feeBps: 500n } },
};
const fivePercent = {
  fair: manualServes(FIVE_PERCENT),
  unpaid: manualServes({ ...FIVE_PERCENT, defects: ['mcp-release-credits-nobody'] }),
};

type Finding = AuditedFinding;

const proxies: Server[] = [];
const rewriters: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const proxy of proxies.splice(0)) await new Promise((resolve) => proxy.close(resolve));
  for (const close of rewriters.splice(0)) await close();
});

/**
 * What a proxy's /mcp answers: nothing there (404), an event stream saying "done" to every call and
 * doing nothing, or every tool failing in words (`isError`, a sentence that is not JSON).
 */
type FakeDoor = 'absent' | 'hollow' | 'failing';
const HOLLOW_ANSWER = `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'done' }] } })}\n\n`;
const FAILING_ANSWER = `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'Escrow service unavailable' }], isError: true } })}\n\n`;

/** A loopback proxy to `upstream` whose /mcp is `door` instead of the service's. */
async function withDoor(upstream: string, door: FakeDoor, words?: (text: string) => string): Promise<string> {
  const proxy = createServer((incoming, outgoing) => {
    if ((incoming.url ?? '/').split('?')[0] === '/mcp') {
      incoming.resume();
      if (door === 'absent')
        outgoing.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}');
      else
        outgoing
          .writeHead(200, { 'content-type': 'text/event-stream' })
          .end(door === 'hollow' ? HOLLOW_ANSWER : FAILING_ANSWER);
      return;
    }
    const forwarded = httpRequest(
      `${upstream}${incoming.url ?? '/'}`,
      { method: incoming.method, headers: incoming.headers },
      (answer) => {
        if (words === undefined) {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
          return;
        }
        // The answer in the target's own words: read whole, rewritten, sent with its new length.
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const text = words(Buffer.concat(chunks).toString('utf8'));
          outgoing.writeHead(answer.statusCode ?? 502, {
            'content-type': answer.headers['content-type'] ?? 'application/json',
          });
          outgoing.end(text);
        });
      },
    );
    incoming.pipe(forwarded);
  });
  proxies.push(proxy);
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

const mcpFindings = (findings: readonly Finding[]): Finding[] =>
  findings.filter((finding) => finding.id.includes(':mcp-'));

describe('afp audit money: the MCP doors', () => {
  test('the deployed stand-in with the deployment’s MCP flaws: the skipped cooldown (major) and the unpaid release (critical)', async () => {
    const ran = await audit('defects');
    expect(ran.code, ran.text).toBe(3);
    const found = mcpFindings(ran.findings);
    expect(found.map((finding) => [finding.id, finding.severity]).sort()).toEqual([
      ['money:escrow:mcp-release-unpaid', 'critical'],
      ['money:faucet:mcp-skips-cooldown', 'major'],
    ]);
    const claim = found.find((finding) => finding.id === 'money:faucet:mcp-skips-cooldown') as Finding;
    expect(claim.title).toContain('from an address whose HTTP claim it refuses (429 ip_rate_limited)');
    expect(claim.reproduce).toMatch(
      /^curl -sS -X POST 'http:\/\/127\.0\.0\.1:\d+\/mcp' -H 'Content-Type: application\/json' -H 'Accept: application\/json, text\/event-stream' --data '\{"jsonrpc":"2\.0","id":1,"method":"tools\/call","params":\{"name":"claim_faucet","arguments":\{"agent_casino_id":"ag_\w+"\}\}\}'$/,
    );
    const release = found.find((finding) => finding.id === 'money:escrow:mcp-release-unpaid') as Finding;
    expect(release.title).toContain('released an escrow of 0.20 and credited the counterparty 0.00 of 0.198');
    // The key travels as an argument: the curl line reads it from $AFP_KEY, and no report holds it.
    expect(release.reproduce).toContain(`"casino_api_key":"'"$AFP_KEY"'"`);
    expect(readFileSync(join(DIR, 'defects', 'findings.json'), 'utf8')).not.toMatch(/sk_live_[0-9a-f]/);
  });

  test('the deployed stand-in without the flaws, and the documents’ style A: no MCP finding', async () => {
    const deployed = await audit('deployed');
    expect(deployed.code, deployed.text).toBe(0);
    expect(mcpFindings(deployed.findings)).toEqual([]);
    expect(deployed.text).toMatch(
      /^ran {5}mcp-faucet-cooldown: HTTP refused a second agent's claim from this address \(429 ip_rate_limited\); claim_faucet refused a third \(400 ip_rate_limited\)$/m,
    );
    expect(deployed.text).toMatch(
      /^ran {5}mcp-escrow-release: escrow \S+ released through MCP: the counterparty's balance .* \(due 0\.198\)$/m,
    );
    const documents = await audit('documents');
    expect(documents.code, documents.text).toBe(0);
    expect(mcpFindings(documents.findings)).toEqual([]);
    // The documents' faucet keeps no per-address cooldown; its MCP door has no claim the probe can send.
    expect(documents.text).toMatch(/^skipped mcp-faucet-cooldown: /m);
    expect(documents.text).toMatch(/^ran {5}mcp-escrow-release: escrow \S+ released through MCP: .* \(due 0\.198\)$/m);
  });

  /** The deployed stand-in, its faucet and escrow behind proxies whose /mcp is `door`; audited through a target file. */
  async function auditBehind(door: FakeDoor, escrowWords?: (text: string) => string): Promise<MoneyAudit> {
    const handle = await serves.deployed();
    const casino = handle.urls.casino as string;
    const name = `${door}${escrowWords === undefined ? '' : '-own-words'}`;
    const file = join(DIR, `${name}.yaml`);
    const services = {
      casino,
      faucet: await withDoor(handle.urls.faucet as string, door),
      escrow: await withDoor(handle.urls.escrow as string, door, escrowWords),
    };
    writeFileSync(file, adminFundedTargetText(`${door}-door`, services, casino));
    return moneyAudit(file, join(DIR, name), START_MS, casino);
  }

  test('a deployment whose faucet and escrow serve no /mcp: both probes skipped with why, no finding', async () => {
    const ran = await auditBehind('absent');
    expect(ran.code, ran.text).toBe(0);
    expect(mcpFindings(ran.findings)).toEqual([]);
    expect(ran.text).toMatch(
      /^skipped mcp-faucet-cooldown: claim_faucet answered 404 not_found, not the cooldown's refusal \(429 ip_rate_limited\): no door to compare/m,
    );
    expect(ran.text).toMatch(
      /^skipped mcp-escrow-release: release_escrow was refused 404 not_found; released over HTTP instead$/m,
    );
  });

  test('a door whose tools fail in words: the lines quote the target\'s own text, never a made-up "400 http_400"', async () => {
    const ran = await auditBehind('failing');
    expect(ran.text).toMatch(
      /^skipped mcp-faucet-cooldown: claim_faucet answered 400 mcp_tool_error: "Escrow service unavailable", not the cooldown's refusal \(429 ip_rate_limited\)/m,
    );
    expect(ran.text).toMatch(
      /^skipped mcp-escrow-release: release_escrow was refused 400 mcp_tool_error: "Escrow service unavailable"; released over HTTP instead$/m,
    );
    expect(ran.text).not.toContain('http_400');
    expect(mcpFindings(ran.findings)).toEqual([]);
  });

  test('a door that answers "done" in words afp cannot read and does nothing: judged by the balances, not its words', async () => {
    const ran = await auditBehind('hollow');
    // The claim paid nothing (no finding); the release left the escrow funded: major, and it was released over HTTP.
    expect(ran.text).toMatch(
      /^ran {5}mcp-faucet-cooldown: .*claim_faucet answered without an error but ag_\w+'s balance did not rise$/m,
    );
    expect(mcpFindings(ran.findings).map((finding) => [finding.id, finding.severity])).toEqual([
      ['money:escrow:mcp-release-ignored', 'major'],
    ]);
    expect(ran.text).toMatch(
      /^ran {5}mcp-escrow-release: escrow \S+: release_escrow left it funded; released over HTTP — 1 findings$/m,
    );
  });

  test('the same door on an escrow service with a held status of its own (active): still ignored (major), not money gone (critical)', async () => {
    const ran = await auditBehind('hollow', (text) => text.replaceAll('"status":"funded"', '"status":"active"'));
    expect(mcpFindings(ran.findings).map((finding) => [finding.id, finding.severity])).toEqual([
      ['money:escrow:mcp-release-ignored', 'major'],
    ]);
    expect(ran.text).toMatch(
      /^ran {5}mcp-escrow-release: escrow \S+: release_escrow left it active; released over HTTP — 1 findings$/m,
    );
  });

  /** A 5% stand-in whose escrow answers state no fee (commission_usd and the rest dropped on the wire), audited through a target file. */
  async function auditUnstatedFee(serve: 'fair' | 'unpaid'): Promise<MoneyAudit> {
    const handle = await fivePercent[serve]();
    const casino = handle.urls.casino as string;
    const proxy = await rewritingProxy(handle.urls.escrow as string, ESCROW_FEE_UNSTATED);
    rewriters.push(proxy.close);
    const file = join(DIR, `unstated-${serve}.yaml`);
    writeFileSync(file, adminFundedTargetText(`unstated-${serve}`, { casino, escrow: proxy.url }, casino));
    return moneyAudit(file, join(DIR, `unstated-${serve}`), START_MS, casino);
  }

  test("an escrow fee of 5% that no answer states: measured by a control release over HTTP, not the documents' 1% — no false alarm, and the unpaid release still found", async () => {
    // Before, the documents' 1% was assumed: the release due 0.198, the 0.19 paid called money gone (critical).
    const fair = await auditUnstatedFee('fair');
    expect(mcpFindings(fair.findings), fair.text).toEqual([]);
    expect(fair.text).toMatch(
      /^ran {5}mcp-escrow-release: escrow \S+ released through MCP: the counterparty's balance .* \(due 0\.19\)$/m,
    );
    const unpaid = await auditUnstatedFee('unpaid');
    const found = mcpFindings(unpaid.findings);
    expect(found.map((finding) => [finding.id, finding.severity])).toEqual([
      ['money:escrow:mcp-release-unpaid', 'critical'],
    ]);
    expect(found[0]?.title).toContain('released an escrow of 0.20 and credited the counterparty 0.00 of 0.19');
    expect(found[0]?.evidence).toMatch(
      /due the amount less the fee 0\.01 measured \(no fee stated; control escrow esc_\w+ of 0\.20 released over HTTP: /,
    );
  });
});
