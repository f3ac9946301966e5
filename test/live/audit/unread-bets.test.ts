// The house-edge audit's balance check judges only bets whose outcome it read. A target whose
// video-poker draw answers 200 with a body afp cannot read has placed (and settled) the bet; the
// balance then moves by amounts no answer states, so the check says it is not judged (info)
// instead of calling the target's money wrong (critical). Real loopback listeners: a deployed
// stand-in (published rules, limits lifted, manual clock) behind a small proxy that forwards every
// request and replaces the draw's answer with `{"ok":true}`.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseDeployedRulesFile } from '../../../src/cli/deployed-rules-file.ts';
import { parseHouseEdgeArgs } from '../../../src/cli/audit-house-edge.ts';
import { runHouseEdgeLive } from '../../../src/cli/audit-house-edge-live.ts';
import { serveDeployedRules } from '../../fixtures/deployed-rules-serve.ts';
import { adminFundedTargetText } from '../../fixtures/deployed-target.ts';
import { rewritingProxy } from '../../fixtures/rewriting-proxy.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-unread-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

interface Finding {
  readonly id: string;
  readonly severity: string;
}

describe('bets whose outcome afp did not read', () => {
  test('the balance check is not judged (info), never a critical balance-delta', async () => {
    const rules = parseDeployedRulesFile('{}\n', 'published.yaml');
    if (!rules.ok) throw new Error(rules.message);
    const served = await serveDeployedRules(rules.value);
    // The draw is sent on and placed; its answer replaced by one afp cannot read.
    const proxy = await rewritingProxy(served.casino, (request, answer) =>
      request.path.endsWith('/games/video-poker/draw') && answer.status < 300 ? '{"ok":true}' : answer.text,
    );
    try {
      const file = join(DIR, 'target.yaml');
      writeFileSync(file, adminFundedTargetText('unread-draws', { casino: proxy.url }, served.casino));
      const out = join(DIR, 'edge');
      const flags = parseHouseEdgeArgs(
        [
          ...['--target', file, '--key', await served.fundedKey('20'), '--games', 'coin_flip,video_poker'],
          ...['--bets', '20', '--usdc', '1', '--out', out, '--quiet'],
        ],
        () => '5',
      );
      if ('errors' in flags) throw new Error(flags.errors.join('; '));
      let text = '';
      const io = { out: (chunk: string) => void (text += chunk), err: (chunk: string) => void (text += chunk) };
      await runHouseEdgeLive(flags, io, served.clock);
      const findings = (JSON.parse(readFileSync(join(out, 'findings.json'), 'utf8')) as { findings: Finding[] })
        .findings;
      const ids = findings.map((finding) => finding.id);
      expect(ids, text).toContain('money:edge-audit:balance-delta-not-judged');
      expect(ids, text).not.toContain('money:edge-audit:balance-delta');
      expect(findings.find((finding) => finding.id === 'money:edge-audit:balance-delta-not-judged')?.severity).toBe(
        'info',
      );
      // The coin flips it did read were verified as usual.
      expect(text).toMatch(/coin_flip +heads/);
    } finally {
      await proxy.close();
      await served.close();
    }
  });
});
