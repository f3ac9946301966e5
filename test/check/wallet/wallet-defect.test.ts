// The wallet check finds the deliberate defect wallet-fee-uncharged (a send charges no fee: chain
// money is conserved, so no invariant sees it) and shrinks it to a few commands ending in the send
// whose answered fee differs (or which the fee would have made unaffordable) — in-process and over HTTP against `afp serve --clock manual
// --defect wallet-fee-uncharged`. Without the defect the same seeds hold.
import { describe, expect, it } from 'vitest';
import { runCheck } from '../../../src/check/run-check.ts';
import { ALL_ROUTES } from '../../../src/http/routes/index.ts';
import { manualServes } from '../../fixtures/manual-serves.ts';
import { LOOPBACK_PROXIES } from '../../../src/http/trusted-proxies.ts';

const SERVE_START_MS = Date.parse('2025-03-01T09:30:00.000Z');
const serve = manualServes({
  trustedProxies: LOOPBACK_PROXIES,
  routes: ALL_ROUTES,
  seed: '5',
  startMs: SERVE_START_MS,
  defects: ['wallet-fee-uncharged'],
});

/** The send's fee answered 0, or a send the fee makes unaffordable accepted. */
const FEE_UNCHARGED = /body\.fee: expected "[0-9.]+", got "0"|status: expected 422 INSUFFICIENT_BALANCE, got 200$/;

/** At most the prelude's registrations, a registration, a wallet, a mint and the send. */
const SHRUNK_MAX = 6;

describe('the wallet check and wallet-fee-uncharged', () => {
  it('in-process: random runs find it and shrink it to a short sequence ending in an accepted send', async () => {
    const result = await runCheck({ seed: 1, runs: 60, defects: ['wallet-fee-uncharged'] });
    expect(result.ok).toBe(false);
    const commands = result.failure?.commands ?? [];
    expect(commands.length).toBeLessThanOrEqual(SHRUNK_MAX);
    expect(commands).toContainEqual(expect.stringMatching(/^walletCreate\(a\d\)$/));
    expect(commands.at(-1)).toMatch(/^walletSend\(w\d\+?, /);
    expect(result.failure?.error).toMatch(FEE_UNCHARGED);
    expect(result.failure?.kind).toBe('mismatch');
  });

  it('against afp serve --defect wallet-fee-uncharged: found over HTTP and shrunk the same way', async () => {
    const handle = await serve();
    const result = await runCheck({ target: handle.urls.api ?? '', seed: 1, runs: 30, session: '0dd5ee11' });
    expect(result.ok).toBe(false);
    const commands = result.failure?.commands ?? [];
    expect(commands.length).toBeLessThanOrEqual(SHRUNK_MAX);
    expect(commands.at(-1)).toMatch(/^walletSend\(w\d\+?, /);
    expect(result.failure?.error).toMatch(FEE_UNCHARGED);
  });
});
