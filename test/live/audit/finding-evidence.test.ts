// Every finding above info of a live house-edge audit carries its evidence: the endpoint (the call
// and the path it went to), the field, expected, seen, and the curl of a real request that shows it
// (`$AFP_KEY`, never the key). Before, on a stand-in with its rules changed, most had none: an
// edge or a scheme difference (an aggregate over many bets) named no request at all, a payouts
// finding had a curl but no endpoint, and a minimum-bet or refusal finding no curl. An aggregate
// finding names a representative bet's request and says so in its evidence.
// In-process: the deployed stand-in with several rules changed, its limits lifted, a few bets.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseDeployedRulesFile } from '../../../src/cli/deployed-rules-file.ts';
import { serveDeployedRules } from '../../fixtures/deployed-rules-serve.ts';
import { liveHouseEdge } from '../../fixtures/live-house-edge.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-finding-evidence-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const RULES = `casino:
  coin_flip: { payout: 1.97 }
  wheel: { compare: fraction }
  keno: { draw: uniform }
  dice: { edge_factor: 0.99 }
bets: { minimum: 0.05 }
money: { float_noise: true }
`;

describe('live house-edge findings carry endpoint, field and a reproducing curl', () => {
  test('a rules-changed deployed stand-in: no finding above info lacks endpoint, field, expected, seen or reproduce', async () => {
    const rules = parseDeployedRulesFile(RULES, 'rules.yaml');
    if (!rules.ok) throw new Error(rules.message);
    const served = await serveDeployedRules(rules.value);
    try {
      const { text, findings, key } = await liveHouseEdge(served, {
        args: ['--games', 'coin_flip,wheel,keno,dice,blackjack,mines', '--bets', '120', '--fail-on', 'none'],
        seed: '11',
        out: join(DIR, 'edge'),
      });
      const above = findings.filter((finding) => finding.severity !== 'info');
      // Enough kinds to mean something: payouts, a scheme difference, an edge, a minimum.
      const kinds = new Set(above.map((finding) => finding.id.replace(/:[^:]*$/, ':').split(':')[0]));
      expect([...kinds].sort(), text).toEqual(expect.arrayContaining(['edge', 'rule']));
      for (const suffix of [':payouts', ':scheme', ':minimum-bet'])
        expect(
          above.some((finding) => finding.id.endsWith(suffix)),
          `${suffix}: ${above.map((finding) => finding.id).join(', ')}`,
        ).toBe(true);
      for (const finding of above) {
        const where = `${finding.id}: ${JSON.stringify(finding)}`;
        expect(finding.endpoint, where).toMatch(/^casino\.[a-z]+ \((GET|POST) \/api\/v1\/\S+\)$/);
        expect(finding.field, where).not.toBeNull();
        expect(finding.expected, where).not.toBeNull();
        expect(finding.seen, where).not.toBeNull();
        // The game list is public: its curl sends no key (a finding on the target's listed words).
        if (finding.endpoint === 'casino.games (GET /api/v1/games)')
          expect(finding.reproduce, where).toMatch(/^curl -sS 'http:\/\/127\.0\.0\.1:\d+\/api\/v1\/games'$/);
        else expect(finding.reproduce, where).toMatch(/^curl -sS .*"Authorization: Bearer \$AFP_KEY"/);
        expect(finding.reproduce, where).not.toContain(key);
        expect(finding.reproduce, where).toContain(finding.endpoint?.replace(/^.*\((?:GET|POST) (\S+)\)$/, '$1'));
      }
      // An aggregate names its representative request as such.
      const edge = above.find((finding) => finding.id.startsWith('edge:'));
      expect(edge?.evidence).toMatch(/reproduce: bet \S+'s request, a representative of the \d+ verified bets/);
    } finally {
      await served.close();
    }
  });
});
