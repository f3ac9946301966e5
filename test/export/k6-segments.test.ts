// `afp export k6` beyond one machine: two execution segments (0:1/2 and 1/2:1) as two k6 processes
// on loopback send together the unsegmented run's per-endpoint counts within ±5%, and `--k8s 4`
// writes the k6-operator's resources (the script as a ConfigMap, a TestRun of parallelism 4).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { exportScript, k6, k6Counts, k6Kit, k6Run, mismatches, sum, table, withProfile } from './k6-agents-kit.ts';

const kit = k6Kit();

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a parsed YAML resource, read field by field
type Resource = Record<string, any>;

describe('beyond one machine', () => {
  test('two execution segments (0:1/2, 1/2:1) as two k6 processes send the unsegmented run together, within ±5%', async () => {
    const script = await exportScript(withProfile(kit.dir, 'load-smoke.yaml'));
    const whole = await k6Run(await kit.serve(), script, join(kit.dir, 'whole.k6.json'), [], 'whole');
    const api = await kit.serve();
    const sequence = ['--execution-segment-sequence', '0,1/2,1'];
    const halves = await Promise.all(
      ['0:1/2', '1/2:1'].map(async (segment, index) => {
        const out = join(kit.dir, `half-${index}.k6.json`);
        const ran = await k6(
          ['run', '--quiet', '--out', `json=${out}`, '--execution-segment', segment, ...sequence, script],
          { AFP_TARGET: api, AFP_RUN_ID: 'halves' },
        );
        expect(ran.stderr).not.toMatch(/level=error/);
        expect(ran.code, ran.stderr.slice(-2000)).toBe(0);
        return k6Counts(out);
      }),
    );
    const together: Record<string, number> = {};
    for (const half of halves)
      for (const [name, count] of Object.entries(half)) together[name] = (together[name] ?? 0) + count;
    process.stdout.write(
      `segments: whole ${sum(whole)} / two halves ${sum(together)} requests; ${table(whole, together)}\n`,
    );
    expect(mismatches(whole, together, 0.05)).toStrictEqual([]);
  });

  test('--k8s 4 writes the script as a ConfigMap and a TestRun of parallelism 4 that runs it', async () => {
    const file = withProfile(kit.dir, 'load-smoke.yaml');
    const script = await exportScript(file, ['--k8s', '4', '--target', 'http://afp.example:8080']);
    const base = script.replace(/\.js$/, '');
    const [configMap] = parseAllDocuments(readFileSync(`${base}.configmap.yaml`, 'utf8')).map(
      (document) => document.toJS() as Resource,
    );
    const testRun = parse(readFileSync(`${base}.testrun.yaml`, 'utf8')) as Resource;
    expect(configMap?.['apiVersion']).toBe('v1');
    expect(configMap?.['kind']).toBe('ConfigMap');
    expect(configMap?.['data']['load-smoke.k6.js']).toBe(readFileSync(script, 'utf8'));
    expect(testRun['apiVersion']).toBe('k6.io/v1alpha1');
    expect(testRun['kind']).toBe('TestRun');
    expect(testRun['spec']['parallelism']).toBe(4);
    expect(testRun['spec']['script']).toStrictEqual({
      configMap: { name: configMap?.['metadata']['name'], file: 'load-smoke.k6.js' },
    });
    expect(testRun['spec']['runner']['env']).toContainEqual({ name: 'AFP_TARGET', value: 'http://afp.example:8080' });
  });
});
