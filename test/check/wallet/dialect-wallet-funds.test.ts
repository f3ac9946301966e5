// `afp check --target` through the deployment's dialect, with its default 100 runs: the check's w0
// wallet is funded once per invocation (0.05 ETH through the afp serve's mint door) and every
// `walletSend(w0 → w1)` of every run, and of the shrinking's replays, spends 0.001 ETH and the
// chain's fee from it. Before, the 50th send or so was refused `insufficient_balance` and the run
// failed a working stand-in (exit 3, "walletSend(w0 → w1): refused 400 insufficient_balance …,
// expected it accepted": seeds 1 and 3 of 3). Now a send first reads what w0 holds and mints more
// when it is low (src/check/dialect/wallet-commands.ts). In-process: the deployed stand-in on real
// loopback listeners (float money, limits lifted, a manual clock).
import { expect, test } from 'vitest';
import { parseDeployedRulesFile } from '../../../src/cli/deployed-rules-file.ts';
import { main as checkEnding } from '../../../src/cli/check.ts';
import { serveDeployedRules } from '../../fixtures/deployed-rules-serve.ts';
import { coded } from '../../cli/ending-code.ts';

const checkMain = coded(checkEnding);

test('100 runs of the dialect check keep w0 funded: no send fails for funds the check spent itself', async () => {
  const rules = parseDeployedRulesFile('money: { float_noise: true }\n', 'float.yaml');
  if (!rules.ok) throw new Error(rules.message);
  const served = await serveDeployedRules(rules.value, '8');
  try {
    let text = '';
    const code = await checkMain(['--target', served.casino, '--seed', '1', '--runs', '100', '--quiet'], {
      out: (chunk) => void (text += chunk),
      err: (chunk) => void (text += chunk),
    });
    expect(code, text).toBe(0);
    expect(text).toMatch(/^ok: 100 runs held/m);
    expect(text).not.toMatch(/insufficient_balance .*expected it accepted/);
  } finally {
    await served.close();
  }
});
