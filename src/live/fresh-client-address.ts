/**
 * Fresh client addresses for a live session's set-up calls on an afp serve that trusts this
 * caller's X-Forwarded-For (Target.freshClientAddresses): each registration and faucet claim
 * announces an address no earlier call used, so the serve's per-IP limits (one faucet claim per
 * IP a day) count it as a new client, as `afp check --target URL` does with its run names.
 * Addresses are unique-local IPv6 text (fdae::/16, never a real host): the session's start instant
 * (48 bits of ms, from the session's clock), the session's number in this process, and a counter,
 * so two invocations a millisecond apart, and two sessions of one process, never share one.
 * Bounded: ADDRESSES_MAX per session; past it, none (the calls then count as this host, as before).
 */
export const ADDRESSES_MAX = 0xffff;
const MS_HEX_DIGITS = 12;

/** Sessions made in this process: keeps two sessions started in the same millisecond apart. */
let sessionsMade = 0;

export class FreshClientAddresses {
  private readonly prefix: string;
  private used = 0;

  constructor(startMs: number) {
    sessionsMade = (sessionsMade + 1) % 0x1_0000;
    const ms = Math.max(0, Math.floor(startMs)).toString(16).padStart(MS_HEX_DIGITS, '0').slice(-MS_HEX_DIGITS);
    this.prefix = `fdae:${ms.slice(0, 4)}:${ms.slice(4, 8)}:${ms.slice(8, 12)}:${sessionsMade.toString(16)}`;
  }

  /** A new address, or undefined once ADDRESSES_MAX are used. */
  next(): string | undefined {
    if (this.used >= ADDRESSES_MAX) return undefined;
    this.used += 1;
    return `${this.prefix}:${this.used.toString(16)}::1`;
  }
}
