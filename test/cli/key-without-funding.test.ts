// A command given the key of its one account (`--key`) does not need the target file's keys
// funding: `afp audit fairness --key K` and `afp audit house-edge --key K` against a target file
// whose keys_env names an unset variable went on to the target, where they stopped with exit 2
// ("environment variable … is not set") before (prober finding, 2026-11-28). Without --key,
// house-edge still needs those keys and still says so. The target is a closed loopback port, so
// getting past the file shows as exit 4 (it does not answer), in-process and in well under a second.
// `afp load --engine autocannon --key K --target FILE`, which funds nothing at all, stopped the same
// way (prober 67c); it now loads the keyed endpoint of a loopback server that counts its requests.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseFairnessArgs, runFairness } from '../../src/cli/audit-fairness.ts';
import { parseHouseEdgeArgs } from '../../src/cli/audit-house-edge.ts';
import { runHouseEdgeLive } from '../../src/cli/audit-house-edge-live.ts';
import { autocannonMain } from '../../src/cli/load-autocannon.ts';
import { EXIT } from '../../src/core/exit-codes.ts';
import { sink } from '../fixtures/audit-sink.ts';
import { codeOf } from './ending-code.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-key-without-funding-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));
/** An environment variable nobody sets. */
const UNSET = 'AFP_TEST_KEYS_NEVER_SET';
let file = '';

beforeAll(async () => {
  expect(process.env[UNSET]).toBeUndefined();
  const port = await new Promise<number>((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port: bound } = probe.address() as { port: number };
      probe.close(() => resolve(bound));
    });
  });
  file = join(DIR, 'keys-env.yaml');
  writeFileSync(
    file,
    `name: keys-env
services:
  casino: { url: "http://127.0.0.1:${port}", dialect: deployed }
register: { service: casino }
funding: { method: keys, keys_env: ${UNSET} }
fairness: deployed
`,
  );
});

describe('--key with a target file whose keys_env is unset', () => {
  test('audit fairness --key: past the file to the target (exit 4, it does not answer), no word of the variable', async () => {
    const flags = parseFairnessArgs(['--target', file, '--key', 'sk_test_1', '--out', join(DIR, 'fairness')], 0);
    if ('errors' in flags) throw new Error(flags.errors.join('; '));
    const printed = sink();
    const code = await codeOf(runFairness(flags, printed.io), printed.io);
    expect(printed.text()).not.toContain(UNSET);
    expect(code, printed.text()).toBe(EXIT.liveness);
  });

  test('audit house-edge --key: the same; without --key it still needs the keys and says which variable', async () => {
    const keyed = parseHouseEdgeArgs(
      ['--target', file, '--key', 'sk_test_1', '--games', 'coin_flip', '--bets', '10', '--out', join(DIR, 'edge')],
      () => '7',
    );
    if ('errors' in keyed) throw new Error(keyed.errors.join('; '));
    const printed = sink();
    const code = await codeOf(runHouseEdgeLive(keyed, printed.io), printed.io);
    expect(printed.text()).not.toContain(UNSET);
    expect(code, printed.text()).toBe(EXIT.liveness);

    const unkeyed = parseHouseEdgeArgs(
      ['--target', file, '--games', 'coin_flip', '--bets', '10', '--out', join(DIR, 'edge-unkeyed')],
      () => '7',
    );
    if ('errors' in unkeyed) throw new Error(unkeyed.errors.join('; '));
    const without = sink();
    expect(await codeOf(runHouseEdgeLive(unkeyed, without.io), without.io), without.text()).toBe(EXIT.invalidInput);
    expect(without.text()).toContain(`environment variable ${UNSET} is not set or holds no key`);
  });

  test('load --engine autocannon --key: funds nothing, so it loads the target (exit 0) with the key, no word of the variable', async () => {
    let keyed = 0;
    const server = createHttpServer((request, response) => {
      if (request.headers.authorization === 'Bearer sk_test_1') keyed += 1;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"agent_id":"ag_1","balance_usd":1}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const served = join(DIR, 'keys-env-served.yaml');
    writeFileSync(
      served,
      `name: keys-env-served
services:
  casino: { url: "http://127.0.0.1:${port}", dialect: deployed }
register: { service: casino }
funding: { method: keys, keys_env: ${UNSET} }
fairness: deployed
`,
    );
    try {
      const printed = sink();
      const argv = ['--engine', 'autocannon', '--target', served, '--endpoint', 'casino.balance', '--key', 'sk_test_1'];
      const { exitCode: code } = await autocannonMain(
        [...argv, '--connections', '1', '--amount', '5', '--duration', '2s'],
        {
          ...printed.io,
          onInterrupt: () => () => undefined,
        },
      );
      expect(printed.text()).not.toContain(UNSET);
      expect(code, printed.text()).toBe(EXIT.ok);
      expect(keyed).toBeGreaterThanOrEqual(5);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
