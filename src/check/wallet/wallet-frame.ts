/**
 * What every wallet command of `afp check` shares: it runs only where the wallet rows are
 * reachable and time is exact (block instants are compared to the millisecond), and after its
 * answer matched it checks the model's own conservation (model-wallet.ts) and, in-process, that
 * each chain's fee account holds exactly the fees the model predicted for the run's transactions
 * (a fresh platform per run, so its fee accounts start at zero).
 */
import { WALLET_CHAINS } from '../../services/wallet/keys/wallet-keys.ts';
import type { CheckModel } from '../check-model.ts';
import type { CommandSpec } from '../model-command.ts';
import { CheckMismatch } from '../check-mismatch.ts';
import { feesOn, walletInvariantProblems } from './model-wallet.ts';

export type WalletCommandSpec = CommandSpec;

export function walletReady(model: Readonly<CheckModel>): boolean {
  return model.capabilities.wallet && model.capabilities.exactTime;
}

export function walletSpec(spec: CommandSpec): CommandSpec {
  return {
    ...spec,
    applicable: (model) => walletReady(model) && spec.applicable(model),
    execute: async (model, system) => {
      await spec.execute(model, system);
      const problems = walletInvariantProblems(model);
      if (system.walletFeeAccount !== undefined) {
        for (const chain of WALLET_CHAINS) {
          const held = system.walletFeeAccount(chain);
          if (held !== feesOn(model.wallet, chain))
            problems.push(
              `${chain} fee account: expected ${feesOn(model.wallet, chain)} base units (the fees of the run's transactions), holds ${held}`,
            );
        }
      }
      if (problems.length > 0)
        throw new CheckMismatch(
          `${spec.label} at ${new Date(model.nowMs).toISOString()}, then the wallet's books: ${problems.join('; ')}`,
        );
    },
  };
}
