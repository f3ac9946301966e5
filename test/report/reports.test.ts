// Report writers: exact bytes of every file for a small hand-built RunRecord, the digest over
// them, byte-stability (same record twice, same bytes and digest; one event changed, another
// digest), CSV quoting, and streaming events.jsonl in chunks giving the same bytes as in memory.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { stringify } from 'csv-stringify/sync';
import {
  agentsCsvChunks,
  CSV_CHUNK_ROWS,
  escrowsCsvChunks,
  renderAgentsCsv,
  renderEndpointsCsv,
  renderEscrowsCsv,
} from '../../src/report/csv-tables.ts';
import { CHUNK_LINES, eventLine, isoFormatter, renderEventsJsonl } from '../../src/report/events-jsonl.ts';
import type { RunRecord } from '../../src/report/run-record.ts';
import { renderSummaryJson } from '../../src/report/summary-json.ts';
import { summaryTable } from '../../src/report/summary-table.ts';
import { renderReports, reportDigest, writeReports } from '../../src/report/write-reports.ts';
import type { DomainEvent } from '../../src/services/shared/events.ts';
import { KeptEvents } from '../../src/report/run-events.ts';

const START = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;

function makeRecord(): RunRecord {
  return {
    scenario: 'tiny-run',
    seed: '42',
    startMs: START,
    endMs: START + 24 * HOUR,
    reproduce: 'afp run scenarios/tiny-run.yaml --seed 42',
    outcome: 'invariant-failed',
    agents: [
      {
        agentId: 'bob',
        archetype: 'escrow-buyer',
        displayName: 'Bob "The Builder"',
        tier: 'pro',
        balanceMicro: 7_990_000n,
        requests: 5,
        errors: 1,
        rateLimited: 0,
      },
      {
        agentId: 'alice',
        archetype: 'escrow-buyer',
        displayName: 'Smith, Alice',
        tier: 'free',
        balanceMicro: 12_000_000n,
        requests: 3,
        errors: 0,
        rateLimited: 0,
      },
      {
        agentId: 'carol',
        archetype: 'faucet-farmer',
        displayName: 'Carol',
        tier: 'free',
        balanceMicro: 12_000_000n,
        requests: 4,
        errors: 2,
        rateLimited: 1,
      },
    ],
    endpoints: [
      { endpoint: 'faucet.B.register', service: 'faucet', style: 'B', calls: 3, statuses: { '201': 3 } },
      { endpoint: 'escrow.B.create', service: 'escrow', style: 'B', calls: 2, statuses: { '201': 1, '422': 1 } },
      {
        endpoint: 'faucet.B.claim',
        service: 'faucet',
        style: 'B',
        calls: 4,
        statuses: { '429': 1, '200': 2, '409': 1 },
      },
      { endpoint: 'unmatched', service: 'escrow', style: 'B', calls: 2, statuses: { '404': 2 } },
      { endpoint: 'escrow.B.release', service: 'escrow', style: 'B', calls: 1, statuses: { '200': 1 } },
    ],
    escrows: [
      {
        escrowId: 'esc_b',
        senderId: 'alice',
        receiverId: 'bob',
        amountMicro: 5_000_000n,
        feeMicro: 50_000n,
        status: 'released',
        createdAtMs: START + 2 * HOUR,
        expiresAtMs: START + 26 * HOUR,
        settledAtMs: START + 3 * HOUR,
      },
      {
        escrowId: 'esc_a',
        senderId: 'bob',
        receiverId: 'alice',
        amountMicro: 100_000n,
        feeMicro: 1_000n,
        status: 'locked',
        createdAtMs: START + 2 * HOUR,
        expiresAtMs: START + 8 * HOUR,
        settledAtMs: null,
      },
      {
        escrowId: 'esc_0',
        senderId: 'bob',
        receiverId: 'alice',
        amountMicro: 1_234_567n,
        feeMicro: 12_346n,
        status: 'expired',
        createdAtMs: START + HOUR,
        expiresAtMs: START + 7 * HOUR,
        settledAtMs: START + 7 * HOUR,
      },
    ],
    events: new KeptEvents([
      {
        type: 'agent.registered',
        atMs: START,
        agentId: 'alice',
        style: 'B',
        referrerId: null,
        grantMicro: 10_000_000n,
      },
      {
        type: 'faucet.claimed',
        atMs: START + 60_000,
        agentId: 'alice',
        style: 'B',
        amountMicro: 2_000_000n,
        nextClaimAtMs: START + 24 * HOUR + 60_000,
      },
      {
        type: 'faucet.claimed',
        atMs: START + 120_000,
        agentId: 'bob',
        style: 'A',
        amountMicro: 1_000_000n,
        nextClaimAtMs: null,
      },
      {
        type: 'escrow.created',
        atMs: START + 2 * HOUR,
        escrowId: 'esc_b',
        senderId: 'alice',
        receiverId: 'bob',
        amountMicro: 5_000_000n,
        feeMicro: 50_000n,
        expiresAtMs: START + 26 * HOUR,
      },
      {
        type: 'escrow.released',
        atMs: START + 3 * HOUR,
        escrowId: 'esc_b',
        netMicro: 4_950_000n,
        feeMicro: 50_000n,
        referrerId: 'carol',
        referralMicro: 7_500n,
      },
    ]),
    invariants: [
      { name: 'conservation', checks: 12, violations: 0, first: null },
      {
        name: 'faucet-cooldown',
        checks: 4,
        violations: 1,
        first: {
          atMs: START + 120_000,
          event: '{"type":"faucet.claimed","agentId":"bob"}',
          message: 'claimed twice within 24h',
        },
      },
    ],
    totals: {
      requests: 12,
      agents: 3,
      escrows: 3,
      ledgerSumMicro: 0n,
      feeIncomeMicro: 42_500n,
      faucetPoolMicro: 99_999_968_000_000n,
      agentBalancesMicro: 31_990_000n,
    },
  };
}

const AGENTS_CSV = [
  'agent_id,archetype,display_name,tier,balance,requests,errors,rate_limited',
  'alice,escrow-buyer,"Smith, Alice",free,12.000000,3,0,0',
  'bob,escrow-buyer,"Bob ""The Builder""",pro,7.990000,5,1,0',
  'carol,faucet-farmer,Carol,free,12.000000,4,2,1',
  '',
].join('\n');

const ENDPOINTS_CSV = [
  'endpoint,service,style,calls,200,201,400,401,403,404,405,409,413,415,422,429,500,503,other',
  'escrow.B.create,escrow,B,2,0,1,0,0,0,0,0,0,0,0,1,0,0,0,0',
  'escrow.B.release,escrow,B,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0',
  'faucet.B.claim,faucet,B,4,2,0,0,0,0,0,0,1,0,0,0,1,0,0,0',
  'faucet.B.register,faucet,B,3,0,3,0,0,0,0,0,0,0,0,0,0,0,0,0',
  'unmatched,escrow,B,2,0,0,0,0,0,2,0,0,0,0,0,0,0,0,0',
  '',
].join('\n');

const ESCROWS_CSV = [
  'escrow_id,sender,receiver,amount,fee,status,created_at,expires_at,settled_at',
  'esc_0,bob,alice,1.234567,0.012346,expired,2026-01-01T01:00:00.000Z,2026-01-01T07:00:00.000Z,2026-01-01T07:00:00.000Z',
  'esc_a,bob,alice,0.100000,0.001000,locked,2026-01-01T02:00:00.000Z,2026-01-01T08:00:00.000Z,',
  'esc_b,alice,bob,5.000000,0.050000,released,2026-01-01T02:00:00.000Z,2026-01-02T02:00:00.000Z,2026-01-01T03:00:00.000Z',
  '',
].join('\n');

const EVENTS_JSONL = [
  '{"type":"agent.registered","at":"2026-01-01T00:00:00.000Z","agentId":"alice","style":"B","referrerId":null,"grant":"10.00"}',
  '{"type":"faucet.claimed","at":"2026-01-01T00:01:00.000Z","agentId":"alice","style":"B","amount":"2.00","nextClaimAt":"2026-01-02T00:01:00.000Z"}',
  '{"type":"faucet.claimed","at":"2026-01-01T00:02:00.000Z","agentId":"bob","style":"A","amount":"1.00","nextClaimAt":null}',
  '{"type":"escrow.created","at":"2026-01-01T02:00:00.000Z","escrowId":"esc_b","senderId":"alice","receiverId":"bob","amount":"5.00","fee":"0.05","expiresAt":"2026-01-02T02:00:00.000Z"}',
  '{"type":"escrow.released","at":"2026-01-01T03:00:00.000Z","escrowId":"esc_b","net":"4.95","fee":"0.05","referrerId":"carol","referral":"0.0075"}',
  '',
].join('\n');

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The digest computed independently of the writer: name, NUL, bytes, in the fixed order. */
function expectedDigest(files: readonly [string, string][]): string {
  const hash = createHash('sha256');
  for (const [name, text] of files)
    hash.update(Buffer.concat([Buffer.from(name, 'utf8'), Buffer.from([0]), Buffer.from(text, 'utf8')]));
  return hash.digest('hex');
}

const DATA_FILES: [string, string][] = [
  ['agents.csv', AGENTS_CSV],
  ['endpoints.csv', ENDPOINTS_CSV],
  ['escrows.csv', ESCROWS_CSV],
  ['events.jsonl', EVENTS_JSONL],
];

function expectedSummary(): string {
  return `{
  "scenario": "tiny-run",
  "seed": "42",
  "start": "2026-01-01T00:00:00.000Z",
  "end": "2026-01-02T00:00:00.000Z",
  "outcome": "invariant-failed",
  "reproduce": "afp run scenarios/tiny-run.yaml --seed 42",
  "totals": {
    "agents": 3,
    "requests": 12,
    "escrows": 3,
    "events": 5,
    "agent_balances": "31.99",
    "fee_income": "0.0425",
    "faucet_pool": "99999968.00",
    "ledger_sum": "0.00"
  },
  "requests_by_status": {
    "1xx": 0,
    "2xx": 7,
    "3xx": 0,
    "4xx": 5,
    "5xx": 0,
    "other": 0
  },
  "invariants": [
    {
      "name": "conservation",
      "checks": 12,
      "violations": 0,
      "first": null
    },
    {
      "name": "faucet-cooldown",
      "checks": 4,
      "violations": 1,
      "first": {
        "at": "2026-01-01T00:02:00.000Z",
        "event": "{\\"type\\":\\"faucet.claimed\\",\\"agentId\\":\\"bob\\"}",
        "message": "claimed twice within 24h"
      }
    }
  ],
  "files": {
    "agents.csv": "${sha256(AGENTS_CSV)}",
    "endpoints.csv": "${sha256(ENDPOINTS_CSV)}",
    "escrows.csv": "${sha256(ESCROWS_CSV)}",
    "events.jsonl": "${sha256(EVENTS_JSONL)}"
  },
  "digest": "${expectedDigest(DATA_FILES)}"
}
`;
}

describe('each file, exact bytes', () => {
  test('agents.csv: sorted by agent_id, money as decimals, names quoted as needed', () => {
    expect(renderAgentsCsv(makeRecord())).toBe(AGENTS_CSV);
  });

  test('endpoints.csv: the same status columns whatever the run, numeric order, 0 where none', () => {
    expect(renderEndpointsCsv(makeRecord())).toBe(ENDPOINTS_CSV);
  });

  test('endpoints.csv: a status outside the listed ones is counted under other; the header never changes', () => {
    const record = makeRecord();
    const odd = {
      ...record,
      endpoints: [
        { endpoint: 'faucet.B.claim', service: 'faucet', style: 'B', calls: 3, statuses: { '418': 2, '502': 1 } },
      ],
    };
    const lines = renderEndpointsCsv(odd).split('\n');
    expect(lines[0]).toBe(ENDPOINTS_CSV.split('\n')[0]);
    expect(lines[1]).toBe('faucet.B.claim,faucet,B,3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,3');
    expect(renderEndpointsCsv({ ...record, endpoints: [] })).toBe(`${ENDPOINTS_CSV.split('\n')[0]}\n`);
  });

  test('escrows.csv: by created_at then escrow_id, empty settled_at when open', () => {
    expect(renderEscrowsCsv(makeRecord())).toBe(ESCROWS_CSV);
  });

  test('events.jsonl: type, at, then fields in order; Micro as decimals, AtMs as ISO', () => {
    expect(renderEventsJsonl(makeRecord().events.kept ?? [])).toBe(EVENTS_JSONL);
  });

  test('summary.json: fixed key order, per-file digests and their digest', () => {
    const files = Object.fromEntries(DATA_FILES.map(([name, text]) => [name, sha256(text)]));
    expect(renderSummaryJson(makeRecord(), { files, digest: expectedDigest(DATA_FILES) })).toBe(expectedSummary());
  });

  test('summaryTable: fixed-width, archetypes sorted, numbers right-aligned', () => {
    expect(summaryTable(makeRecord())).toBe(
      [
        'archetype      agents  requests  errors  rate_limited',
        'escrow-buyer        2         8       1             0',
        'faucet-farmer       1         4       2             1',
        'all                 3        12       3             1',
        '',
        'invariant        checks  violations  result',
        'conservation         12           0  ok',
        'faucet-cooldown       4           1  FAILED',
        '',
        'total     count',
        'requests     12',
        'escrows       3',
        'events        5',
        '',
        'money                      usdc',
        'agent balances        31.990000',
        'fee income             0.042500',
        'faucet pool     99999968.000000',
        'ledger sum             0.000000',
        '',
        'outcome: invariant-failed',
        '',
      ].join('\n'),
    );
  });
});

describe('the fast ISO formatter', () => {
  test('matches toISOString everywhere, also past its day cache and its range', () => {
    const iso = isoFormatter();
    const samples = [
      0,
      1,
      999,
      86_399_999,
      86_400_000,
      Date.UTC(2024, 1, 29, 23, 59, 59, 999),
      Date.UTC(2026, 0, 1),
      253_402_300_799_999,
      253_402_300_800_000,
    ];
    for (let day = 0; day < 5_000; day++) samples.push(START + day * 86_400_000 + ((day * 7_919_017) % 86_400_000));
    for (const ms of samples) expect(iso(ms)).toBe(new Date(ms).toISOString());
  });
});

describe('CSV quoting', () => {
  test('commas, quotes and line breaks are quoted; plain text is not', () => {
    const record = makeRecord();
    const agents = [
      { ...record.agents[0]!, agentId: 'a1', displayName: 'Doe, "JD" Jr.' },
      { ...record.agents[0]!, agentId: 'a2', displayName: 'two\nlines' },
      { ...record.agents[0]!, agentId: 'a3', displayName: 'plain name' },
    ];
    const lines = renderAgentsCsv({ ...record, agents }).split('\n');
    expect(lines[1]).toBe('a1,escrow-buyer,"Doe, ""JD"" Jr.",pro,7.990000,5,1,0');
    expect(lines[2]).toBe('a2,escrow-buyer,"two');
    expect(lines[3]).toBe('lines",pro,7.990000,5,1,0');
    expect(lines[4]).toBe('a3,escrow-buyer,plain name,pro,7.990000,5,1,0');
  });

  test('an empty run still has header rows and an empty events file', () => {
    const empty: RunRecord = { ...makeRecord(), agents: [], endpoints: [], escrows: [], events: new KeptEvents() };
    expect(renderAgentsCsv(empty)).toBe('agent_id,archetype,display_name,tier,balance,requests,errors,rate_limited\n');
    expect(renderEndpointsCsv(empty)).toBe(`${ENDPOINTS_CSV.split('\n')[0]}\n`);
    expect(renderEscrowsCsv(empty)).toBe(
      'escrow_id,sender,receiver,amount,fee,status,created_at,expires_at,settled_at\n',
    );
    expect(renderEventsJsonl([])).toBe('');
  });
});

describe('CSV tables in chunks', () => {
  // Around the chunk size: none, one short chunk, exactly full chunks, one row over, several.
  const sizes = [0, 1, CSV_CHUNK_ROWS - 1, CSV_CHUNK_ROWS, CSV_CHUNK_ROWS + 1, 2 * CSV_CHUNK_ROWS + 500];

  test('agents.csv: the chunks joined are the table csv-stringify writes in one call, quoting at the seams included', () => {
    const template = makeRecord().agents[0]!;
    for (const size of sizes) {
      // Names that need quoting fall on both sides of every chunk boundary.
      const agents = Array.from({ length: size }, (_, index) => ({
        ...template,
        agentId: `a${String(index).padStart(5, '0')}`,
        displayName:
          index % CSV_CHUNK_ROWS < 2 || index % CSV_CHUNK_ROWS > CSV_CHUNK_ROWS - 3
            ? `Doe, "${index}"\nJr.`
            : `Name ${index}`,
      }));
      const record = { ...makeRecord(), agents };
      const chunks = [...agentsCsvChunks(record)];
      const whole = stringify(
        agents.map((agent) => [
          agent.agentId,
          agent.archetype,
          agent.displayName,
          agent.tier,
          '7.990000',
          agent.requests,
          agent.errors,
          agent.rateLimited,
        ]),
        {
          header: true,
          columns: ['agent_id', 'archetype', 'display_name', 'tier', 'balance', 'requests', 'errors', 'rate_limited'],
          record_delimiter: '\n',
        },
      );
      expect(chunks.join('')).toBe(whole);
      expect(renderAgentsCsv(record)).toBe(whole);
      expect(chunks).toHaveLength(Math.max(1, Math.ceil(size / CSV_CHUNK_ROWS)));
    }
  });

  test('escrows.csv: the chunks joined are the whole table, in creation order', () => {
    const template = makeRecord().escrows[0]!;
    for (const size of sizes) {
      const escrows = Array.from({ length: size }, (_, index) => ({
        ...template,
        escrowId: `e${index}`,
        createdAtMs: START + (size - index) * 1_000,
      }));
      const record = { ...makeRecord(), escrows };
      const text = [...escrowsCsvChunks(record)].join('');
      expect(text).toBe(renderEscrowsCsv(record));
      const lines = text.split('\n');
      expect(lines).toHaveLength(size + 2);
      expect(lines[0]).toBe('escrow_id,sender,receiver,amount,fee,status,created_at,expires_at,settled_at');
      if (size > 0) expect(lines[1]?.startsWith(`e${size - 1},`)).toBe(true);
    }
  });
});

describe('writing and the digest', () => {
  const directories: string[] = [];
  const scratch = (): string => {
    const directory = mkdtempSync(join(tmpdir(), 'afp-reports-'));
    directories.push(directory);
    return directory;
  };
  afterEach(() => {
    for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
  });

  const ALL = ['summary', 'agents', 'endpoints', 'escrows', 'events'] as const;

  test('writes every file with the exact bytes; the digest covers all of them, summary last', () => {
    const outDir = scratch();
    const { files, digest } = writeReports(makeRecord(), outDir, ALL);
    expect(files).toStrictEqual(
      ['agents.csv', 'endpoints.csv', 'escrows.csv', 'events.jsonl', 'summary.json'].map((name) => join(outDir, name)),
    );
    for (const [name, text] of DATA_FILES) expect(readFileSync(join(outDir, name), 'utf8')).toBe(text);
    expect(readFileSync(join(outDir, 'summary.json'), 'utf8')).toBe(expectedSummary());
    // summary.json is digested as rendered with an empty reproduce command (it names the scenario's path).
    expect(digest).toBe(
      expectedDigest([
        ...DATA_FILES,
        [
          'summary.json',
          expectedSummary().replace('"reproduce": "afp run scenarios/tiny-run.yaml --seed 42"', '"reproduce": ""'),
        ],
      ]),
    );
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
  });

  test('renderReports gives the same bytes and digest as writeReports', () => {
    const rendered = renderReports(makeRecord(), ALL);
    expect(rendered.digest).toBe(writeReports(makeRecord(), scratch(), ALL).digest);
    expect(reportDigest(renderReports({ ...makeRecord(), reproduce: '' }, ALL).files)).toBe(rendered.digest);
    expect(rendered.files.map((file) => file.file)).toStrictEqual([
      'agents.csv',
      'endpoints.csv',
      'escrows.csv',
      'events.jsonl',
      'summary.json',
    ]);
  });

  test('the digest does not depend on the scenario path in the reproduce command (summary.json still shows it)', () => {
    // With a trace the failed run also writes timeline.html, which shows the command too, and
    // summary.json lists that file's SHA-256: the digest must not see the path through it either.
    const traced: RunRecord = { ...makeRecord(), trace: { requests: [], dropped: 0 } };
    const here = renderReports({ ...traced, reproduce: 'npx afp run scenarios/a.yaml --seed 7' }, ALL);
    const there = renderReports({ ...traced, reproduce: 'npx afp run /tmp/elsewhere/a.yaml --seed 7' }, ALL);
    expect(here.files.map((file) => file.file)).toContain('timeline.html');
    expect(there.digest).toBe(here.digest);
    expect(here.files.find((file) => file.file === 'summary.json')?.text).toContain('scenarios/a.yaml');
    expect(there.files.find((file) => file.file === 'summary.json')?.text).toContain('/tmp/elsewhere/a.yaml');
  });

  test('into a folder of an earlier run: the report files it wrote and this run does not are removed, nothing else', () => {
    const dir = scratch();
    const failed: RunRecord = { ...makeRecord(), trace: { requests: [], dropped: 0 } };
    expect(writeReports(failed, dir, ALL).files).toContain(join(dir, 'timeline.html'));
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    writeReports({ ...makeRecord(), outcome: 'completed' }, dir, ALL);
    expect(readdirSync(dir).sort()).toStrictEqual([
      'agents.csv',
      'endpoints.csv',
      'escrows.csv',
      'events.jsonl',
      'notes.txt',
      'summary.json',
    ]);
    // A folder whose summary.json is not an afp run's: nothing is removed.
    const other = scratch();
    writeFileSync(join(other, 'summary.json'), '{"files": ["timeline.html"]}');
    writeFileSync(join(other, 'timeline.html'), 'theirs');
    writeReports({ ...makeRecord(), outcome: 'completed' }, other, ['summary']);
    expect(readFileSync(join(other, 'timeline.html'), 'utf8')).toBe('theirs');
  });

  test("a run writing fewer reports removes the earlier run's summary.json and a swarm.yaml afp drew; a file of another's stays", () => {
    const dir = scratch();
    writeReports(makeRecord(), dir, ALL, [
      { file: 'swarm.yaml', text: '# Drawn by afp --swarm from tiny for seed 5: …\n' },
    ]);
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    writeReports(makeRecord(), dir, ['events']);
    expect(readdirSync(dir).sort()).toStrictEqual(['events.jsonl', 'notes.txt']);
    // A swarm.yaml that is not afp's drawn file is another's: left alone.
    const other = scratch();
    writeFileSync(join(other, 'swarm.yaml'), 'name: mine\n');
    writeReports(makeRecord(), other, ['summary']);
    expect(readFileSync(join(other, 'swarm.yaml'), 'utf8')).toBe('name: mine\n');
  });

  test('a report that cannot be written is an OutputWriteError naming its path', () => {
    const dir = scratch();
    mkdirSync(join(dir, 'agents.csv'));
    expect(() => writeReports(makeRecord(), dir, ALL)).toThrow(
      `cannot write ${join(dir, 'agents.csv')}: it is a directory (EISDIR)`,
    );
  });

  test('a write cut short leaves no summary.json (the old one is gone first) and no temporary file; summary.json comes last', () => {
    const dir = scratch();
    writeReports(makeRecord(), dir, ALL, [
      { file: 'swarm.yaml', text: '# Drawn by afp --swarm from tiny for seed 5\n' },
    ]);
    expect(readdirSync(dir)).toContain('summary.json');
    // events.jsonl cannot be renamed into place (a folder stands there): the write stops before summary.json.
    rmSync(join(dir, 'events.jsonl'));
    mkdirSync(join(dir, 'events.jsonl'));
    expect(() => writeReports({ ...makeRecord(), outcome: 'completed' }, dir, ALL)).toThrow(
      `cannot write ${join(dir, 'events.jsonl')}`,
    );
    expect(readdirSync(dir).sort()).toStrictEqual([
      'agents.csv',
      'endpoints.csv',
      'escrows.csv',
      'events.jsonl',
      'swarm.yaml',
    ]);
    rmSync(join(dir, 'events.jsonl'), { recursive: true });
    writeReports(makeRecord(), dir, ALL);
    expect(readFileSync(join(dir, 'summary.json'), 'utf8')).toBe(expectedSummary());
    // summary.json is renamed into place after the files beside it too: one of them failing leaves none.
    rmSync(join(dir, 'swarm.yaml'), { force: true });
    mkdirSync(join(dir, 'swarm.yaml'));
    const drawn = [{ file: 'swarm.yaml', text: '# Drawn by afp --swarm from tiny for seed 6\n' }];
    expect(() => writeReports(makeRecord(), dir, ALL, drawn)).toThrow(`cannot write ${join(dir, 'swarm.yaml')}`);
    expect(readdirSync(dir).filter((name) => name === 'summary.json' || name.startsWith('.'))).toStrictEqual([]);
  });

  test('the same record twice gives identical bytes and digest', () => {
    const first = scratch();
    const second = scratch();
    const a = writeReports(makeRecord(), first, ALL);
    const b = writeReports(makeRecord(), second, ALL);
    expect(b.digest).toBe(a.digest);
    for (const name of ['agents.csv', 'endpoints.csv', 'escrows.csv', 'events.jsonl', 'summary.json']) {
      expect(readFileSync(join(second, name))).toStrictEqual(readFileSync(join(first, name)));
    }
  });

  test('one changed event changes the digest', () => {
    const record = makeRecord();
    const changed: RunRecord = {
      ...record,
      events: new KeptEvents(
        (record.events.kept ?? []).map((event, index) => (index === 2 ? { ...event, atMs: event.atMs + 1 } : event)),
      ),
    };
    expect(renderReports(changed, ALL).digest).not.toBe(renderReports(record, ALL).digest);
    expect(renderReports(changed, ['events']).digest).not.toBe(renderReports(record, ['events']).digest);
  });

  test('the order and repeats of `which` do not matter; a subset digests only its files', () => {
    const record = makeRecord();
    expect(renderReports(record, ['events', 'summary', 'agents', 'escrows', 'endpoints', 'events']).digest).toBe(
      renderReports(record, ALL).digest,
    );
    const subset = renderReports(record, ['events', 'agents']);
    expect(subset.files.map((file) => file.file)).toStrictEqual(['agents.csv', 'events.jsonl']);
    expect(subset.digest).toBe(expectedDigest([DATA_FILES[0]!, DATA_FILES[3]!]));
  });

  test('events.jsonl streams in chunks with the same bytes as in memory', () => {
    const base = makeRecord().events.kept?.[1] as DomainEvent & { type: 'faucet.claimed' };
    const events: DomainEvent[] = [];
    for (let index = 0; index < CHUNK_LINES * 2 + 3; index++)
      events.push({ ...base, atMs: base.atMs + index, agentId: `agent-${index}` });
    const outDir = scratch();
    writeReports({ ...makeRecord(), events: new KeptEvents(events) }, outDir, ['events']);
    const text = readFileSync(join(outDir, 'events.jsonl'), 'utf8');
    expect(text).toBe(renderEventsJsonl(events));
    const lines = text.split('\n');
    expect(lines).toHaveLength(events.length + 1);
    expect(lines[CHUNK_LINES]).toBe(eventLine(events[CHUNK_LINES]!));
    expect(lines.at(-1)).toBe('');
  });
});
