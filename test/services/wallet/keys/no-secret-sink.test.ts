// Non-custodial by construction: the key module has no way to keep or leak a secret — no console,
// process, file or network access, no module-level mutable state — so a mnemonic or key exists only
// in the caller's hands. A text scan, like test/tooling/bans.test.ts, so a later edit cannot add a
// sink silently. node:crypto is allowed, as @noble's hashes are: pure functions (mnemonic.ts runs
// BIP-39's PBKDF2 on it), no store, log or network.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const FOLDER = join(import.meta.dirname, '../../../../src/services/wallet/keys');
const SINKS = [
  /\bconsole\./u,
  /\bprocess\./u,
  /from 'node:(?!crypto')/u,
  /\bfetch\(/u,
  /^let /mu,
  /^export let /mu,
  /\bglobalThis\b/u,
];

test('src/services/wallet/keys has no place to store, log or send a secret', () => {
  const files = readdirSync(FOLDER).filter((name) => name.endsWith('.ts'));
  expect(files.length).toBeGreaterThanOrEqual(10);
  for (const name of files) {
    const text = readFileSync(join(FOLDER, name), 'utf8');
    for (const sink of SINKS) expect(sink.test(text), `${name} matches ${String(sink)}`).toBe(false);
  }
});
