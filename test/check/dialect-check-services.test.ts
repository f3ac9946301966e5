// `afp check --target` through the deployed trading and domains (src/check/dialect/
// dialect-commands-services.ts) against a real `afp serve --dialect deployed --clock manual` on
// loopback: the trading and domains rows are drawn on the check's own service accounts (funded by
// the serve's admin deposit) and hold, with the deployment's documented disagreements as info
// findings only; the stand-in's trading-fee-unpaid defect is a minor rule finding (a fee of 0, stated and charged); a target file that
// cannot fund trading or domains accounts leaves those rows out with the reason.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { main as checkEnding } from '../../src/cli/check.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import type { DefectName } from '../../src/services/shared/context.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { coded } from '../cli/ending-code.ts';

const main = coded(checkEnding);

const START_MS = Date.parse('2025-01-01T00:00:00.000Z');
const SERVICE_ROWS = [
  'tradingBalance',
  'tradeOpen',
  'tradeClose',
  'tradeAboveBalance',
  'tradeTooLarge',
  'domainsBalance',
  'domainRegister',
  'domainLookup',
  'domainGift',
  'domainOffer',
];
const handles: ServeHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close({ forceAfterMs: 1_000 });
});

async function deployed(defects: readonly DefectName[] = []): Promise<Readonly<Record<string, string | undefined>>> {
  const handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: DEPLOYED_ROUTES,
    layout: DEPLOYED_LAYOUT,
    seed: '5',
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    defects,
    log: () => undefined,
  });
  handles.push(handle);
  return handle.urls;
}

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main([...argv, '--quiet'], {
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
  });
  return { code, out, err };
}

describe('afp check through the deployed trading and domains', () => {
  test('every trading and domains row drawn and held; the documented disagreements are info findings', async () => {
    const urls = await deployed();
    const directory = await mkdtemp(join(tmpdir(), 'afp-dialect-services-'));
    const { code, out, err } = await run([
      '--target',
      urls.casino as string,
      '--seed',
      '7',
      '--runs',
      '10',
      '--max-commands',
      '60',
      '--fail-on',
      'minor',
      '--out',
      directory,
    ]);
    // The console lists the first findings only; the report has them all.
    const report = JSON.parse(await readFile(join(directory, 'findings.json'), 'utf8')) as {
      findings: { id: string; severity: string; seen: unknown }[];
    };
    await rm(directory, { recursive: true, force: true });
    expect([code, err]).toEqual([0, '']);
    const commands = /^commands: (.*)$/m.exec(out)?.[1]?.split(', ') ?? [];
    expect(commands).toEqual(expect.arrayContaining(SERVICE_ROWS));
    expect(out).not.toMatch(/^note: command (trading|trade|domain)/m);
    expect(out).toMatch(/^findings: ([1-9]\d*) \(0 critical, 0 major, 0 minor, \1 info\)$/m);
    // The deployment's own rules, each an info finding: position_too_large, domain_unavailable, no priced transfer.
    const seen = (id: string): unknown =>
      report.findings.find((finding) => finding.id === id && finding.severity === 'info')?.seen;
    expect(seen('rule:trading.refusal.too-large:deployed')).toBe('400 position_too_large');
    expect(seen('rule:trading.refusal.over-balance:deployed')).toBe('400 insufficient_balance');
    expect(seen('rule:domains.refusal.taken:deployed')).toBe('400 domain_unavailable');
    expect(seen('rule:domains.transfer.priced:deployed')).toBe('no priced transfer');
    // The stand-in keeps afp's 0.2% fee (docs/decisions/deployed-dialect.md), so the fee rule passes: no fee finding.
    expect(report.findings.some((finding) => finding.id.startsWith('rule:trading.fee.rate'))).toBe(false);
    expect(out).toMatch(/^ok: 10 runs held \(at most 60 commands each, \d+ sent\)$/m);
  });

  test('the stand-in run with trading-fee-unpaid: a fee of 0 is the target’s own rule, a minor finding (exit 3 with --fail-on minor)', async () => {
    // The answer states the fee it charged (none), and the balance agrees: a rule the target set, not a
    // broken run (the in-process check, test/check/trading/trading-check.test.ts, holds afp's own platform to its 0.2%).
    const urls = await deployed(['trading-fee-unpaid']);
    const argv = ['--target', urls.casino as string, '--seed', '7', '--runs', '20', '--max-commands', '40'];
    const held = await run(argv);
    expect(held.code, held.out).toBe(0);
    expect(held.out).toMatch(/^ok: 20 runs held/m);
    const strict = await run([...argv, '--fail-on', 'minor']);
    expect(strict.code, strict.out).toBe(3);
    expect(strict.out).toMatch(
      /^ {2}minor rule:trading\.fee\.rate: the fee of a market order, as a share of its size: '0(\.0+)?%', expected '0\.2%' \(documents\) or '0\.035% \+ builder fee' \(dialect deployed\): a rule of the target's own/m,
    );
  });

  test('a target file that cannot fund trading or domains accounts: those rows left out, with the reason', async () => {
    const urls = await deployed();
    const directory = await mkdtemp(join(tmpdir(), 'afp-dialect-services-'));
    try {
      const file = join(directory, 'deployed.yaml');
      const services = (['casino', 'faucet', 'escrow', 'trading', 'domains'] as const).map(
        (service) => `  ${service}: { url: ${urls[service] as string}, dialect: deployed }`,
      );
      await writeFile(
        file,
        [
          'name: deployed-faucet',
          'services:',
          ...services,
          'register: { service: casino }',
          'funding: { method: faucet }',
          'fairness: deployed',
          '',
        ].join('\n'),
      );
      const { code, out } = await run(['--target', file, '--seed', '3', '--runs', '1', '--max-commands', '5']);
      expect(code).toBe(0);
      for (const row of SERVICE_ROWS)
        expect(out).toMatch(
          new RegExp(
            `^note: command ${row} left out of the sequences: (trading|domains) keeps its own accounts and balances .*funds only by faucet`,
            'm',
          ),
        );
      expect(/^commands: (.*)$/m.exec(out)?.[1]?.split(', ')).not.toContain('tradeOpen');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  test('a funding command funds the trading and domains accounts too (told AFP_SERVICE): their rows drawn and held', async () => {
    // A prober's deployment funded by a command: afp audit money funded its trading accounts through
    // it, but afp check left every trading and domains row out ("only an afp serve funds them").
    const urls = await deployed();
    const directory = await mkdtemp(join(tmpdir(), 'afp-dialect-services-'));
    try {
      const services = (['casino', 'faucet', 'escrow', 'trading', 'domains'] as const).map(
        (service) => `  ${service}: { url: ${urls[service] as string}, dialect: deployed }`,
      );
      // The stand-in's admin deposit credits an agent of any of its services; the command records which service asked.
      const seen = join(directory, 'services.txt');
      const fund = [
        `import { appendFileSync } from 'node:fs';`,
        `appendFileSync(${JSON.stringify(seen)}, process.env.AFP_SERVICE + ' ');`,
        `const answer = await fetch(${JSON.stringify(`${urls.casino as string}/_afp/casino/deposit`)}, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ agent_id: process.env.AFP_AGENT_ID, chain: 'base', amount: process.env.AFP_AMOUNT, confirmed: true }) });`,
        `if (!answer.ok) process.exit(1);`,
      ].join(' ');
      const file = join(directory, 'deployed.yaml');
      await writeFile(
        file,
        [
          'name: deployed-command',
          'services:',
          ...services,
          'register: { service: casino }',
          `funding: { method: command, command: ${JSON.stringify(`node --input-type=module -e ${JSON.stringify(fund)}`)} }`,
          'fairness: deployed',
          '',
        ].join('\n'),
      );
      const { code, out, err } = await run(['--target', file, '--seed', '7', '--runs', '3', '--max-commands', '40']);
      expect([code, err], out).toEqual([0, '']);
      expect(out).not.toMatch(/^note: command (trading|trade|domain)/m);
      const commands = /^commands: (.*)$/m.exec(out)?.[1]?.split(', ') ?? [];
      expect(commands).toEqual(expect.arrayContaining(['tradeOpen', 'domainRegister']));
      const asked = new Set((await readFile(seen, 'utf8')).trim().split(' '));
      expect([...asked].sort()).toEqual(['casino', 'domains', 'trading']);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
