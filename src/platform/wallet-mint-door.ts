/**
 * The wallet's mint door lent in-process, answered as afp serve's POST /_afp/wallet/mint answers it:
 * 200 with the mint transaction, or 400 with the refusal. Lent where a model-based agent or check
 * funds its own wallets without HTTP: `afp check`'s in-process target and the simulator's property
 * agents. The platform first runs the timers due by now, as the dispatcher does before a request.
 */
import type { Platform } from './platform.ts';
import { mintBody, mintOnChain, type MintRequest } from '../services/wallet/wallet-mint.ts';

export interface MintAnswer {
  readonly status: number;
  readonly body: unknown;
}

export function answerMint(platform: Platform, mint: MintRequest, nowMs: number): MintAnswer {
  platform.advanceTo(nowMs);
  const minted = mintOnChain(platform.wallet, mint, nowMs);
  return minted.ok
    ? { status: 200, body: mintBody(minted.value) }
    : { status: 400, body: { code: minted.code, error: minted.message } };
}
