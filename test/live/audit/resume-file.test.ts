// The resume file of `afp audit money --include-slow --resume-file FILE` (src/audit/probes/resume-file.ts):
// written whole with mode 0600 and read back field for field; and read strictly — a file over its
// byte limit, not JSON, of another version, for another target or dialect, or with a field missing
// or of the wrong kind is refused with one line naming what is wrong (the CLI exits 2 with it).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import {
  readResumeFile,
  renderResume,
  RESUME_BYTES_MAX,
  writeResumeFile,
  type ResumeDocument,
} from '../../../src/audit/probes/resume-file.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-resume-file-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const TARGET = { origin: 'https://casino.example', dialect: 'deployed' };
const DOCUMENT: ResumeDocument = {
  target: TARGET.origin,
  dialect: TARGET.dialect,
  dueClock: 'wall',
  command:
    'afp audit money --target targets/deployed.yaml --key "$KEY" --second-key "$SECOND_KEY" --resume \'slow file.json\'',
  agentId: 'agent_a',
  secondAgentId: 'agent_b',
  writtenAtMs: Date.parse('2026-03-01T10:00:00Z'),
  escrows: [
    {
      name: 'escrow-dispute',
      escrowId: 'esc_1',
      dueAtMs: Date.parse('2026-03-03T10:00:02Z'),
      dueAtWallMs: Date.parse('2026-03-03T10:00:02Z'),
      waitMs: 172_802_000,
      awaited: "the resolution of a dispute within the documents' 48 h window",
      creatorBefore: 49_900_000n,
      secondBefore: 1_000_000n,
      fee: {
        known: true,
        feeMicro: 1_000n,
        stated: true,
        source: 'the 1% its creation stated',
        creatorDeltaMicro: 0n,
        counterpartyDeltaMicro: 0n,
      },
      statedFeeMicro: 1_000n,
      reproduce: "curl -X POST 'https://casino.example/api/v1/escrow/create'",
      openStatuses: ['locked', 'disputed'],
    },
  ],
};

let written = 0;
/** `text` in a file of its own; its path. */
function fileOf(text: string): string {
  written += 1;
  const path = join(DIR, `resume-${written}.json`);
  writeFileSync(path, text);
  return path;
}

/** The written document as JSON, changed by `change`, in a file; the reader's message for it. */
function refusedWith(change: (json: Record<string, unknown>) => void, target = TARGET): string {
  const json = JSON.parse(renderResume(DOCUMENT)) as Record<string, unknown>;
  change(json);
  const read = readResumeFile(fileOf(JSON.stringify(json)), target);
  if (read.ok) throw new Error('read, where a refusal was expected');
  return read.message;
}

const firstEscrow = (json: Record<string, unknown>): Record<string, unknown> =>
  (json['escrows'] as Array<Record<string, unknown>>)[0] as Record<string, unknown>;

describe('resume file', () => {
  test('written whole, owner-only, no temporary left; read back as written', () => {
    const path = join(DIR, 'slow file.json');
    expect(writeResumeFile(path, renderResume(DOCUMENT))).toBeNull();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(DIR).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    const read = readResumeFile(path, TARGET);
    expect(read).toEqual({ ok: true, value: DOCUMENT });
    const json = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    expect(json['afp_resume']).toBe(1);
    expect(firstEscrow(json)['due_at']).toBe('2026-03-03T10:00:02.000Z');
    expect(firstEscrow(json)['due_at_wall']).toBe('2026-03-03T10:00:02.000Z');
  });

  test('a file afp cannot write where it was asked: the error, not a throw', () => {
    expect(writeResumeFile(join(DIR, 'no-such-folder', 'slow.json'), '{}')).toMatch(/ENOENT/);
  });

  test('another version, another target, another dialect: refused naming it', () => {
    expect(refusedWith((json) => (json['afp_resume'] = 2))).toMatch(/: afp_resume is 2, not 1$/);
    expect(refusedWith((json) => delete json['afp_resume'])).toMatch(/: afp_resume is null, not 1$/);
    expect(refusedWith(() => undefined, { ...TARGET, origin: 'http://127.0.0.1:9' })).toMatch(
      /: written for https:\/\/casino\.example, not this target \(http:\/\/127\.0\.0\.1:9\)$/,
    );
    expect(refusedWith(() => undefined, { ...TARGET, dialect: 'documents' })).toMatch(
      /: written for the deployed dialect; this target's casino speaks documents$/,
    );
  });

  test('a field missing or of the wrong kind: refused naming the field', () => {
    expect(refusedWith((json) => delete json['dialect'])).toContain(
      'target, dialect, command, agent_id and second_agent_id are strings',
    );
    expect(refusedWith((json) => (json['due_clock'] = 'sundial'))).toContain('due_clock is "serve" or "wall"');
    expect(refusedWith((json) => (json['written_at'] = 'yesterday'))).toContain('written_at is not an instant');
    expect(refusedWith((json) => (json['escrows'] = []))).toContain('escrows is a list of 1 to 16');
    expect(refusedWith((json) => delete firstEscrow(json)['escrow_id'])).toContain(
      'escrows[0]: escrow_id, awaited and reproduce are strings',
    );
    expect(refusedWith((json) => (firstEscrow(json)['name'] = 'escrow-forever'))).toContain(
      'escrows[0]: name is escrow-expiry or escrow-dispute',
    );
    expect(refusedWith((json) => (firstEscrow(json)['due_at_ms'] = 1.5))).toContain(
      'escrows[0]: due_at_ms and wait_ms are whole milliseconds',
    );
    expect(refusedWith((json) => delete firstEscrow(json)['due_at_wall'])).toContain(
      'escrows[0]: due_at_wall is not an instant',
    );
    expect(refusedWith((json) => (firstEscrow(json)['creator_before_micro'] = 49.9))).toContain(
      'escrows[0]: creator_before_micro is not micro-USDC',
    );
    expect(refusedWith((json) => delete firstEscrow(json)['second_before_micro'])).toContain(
      'escrows[0]: second_before_micro is not micro-USDC',
    );
    expect(refusedWith((json) => (firstEscrow(json)['fee'] = { known: true, source: 'x' }))).toContain(
      'escrows[0]: fee.fee_micro and fee.stated are given where the fee is known',
    );
    expect(refusedWith((json) => (firstEscrow(json)['open_statuses'] = 'locked'))).toContain(
      'escrows[0]: open_statuses is a list of strings',
    );
  });

  test('not JSON, not an object, over the byte limit, missing: one line each, unread past the limit', () => {
    const refused = (path: string): string => {
      const read = readResumeFile(path, TARGET);
      if (read.ok) throw new Error('read, where a refusal was expected');
      expect(read.message.split('\n')).toHaveLength(1);
      return read.message;
    };
    expect(refused(fileOf('{"afp_resume": 1,'))).toMatch(/: not JSON$/);
    expect(refused(fileOf('[1, 2]'))).toMatch(/: not an object$/);
    expect(refused(fileOf(' '.repeat(RESUME_BYTES_MAX + 1)))).toMatch(
      /: over 1048576 bytes: not a resume file afp wrote$/,
    );
    expect(refused(join(DIR, 'never-written.json'))).toMatch(/never-written\.json: ENOENT/);
  });
});
