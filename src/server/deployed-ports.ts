/**
 * The deployment's port layout (spec/DEPLOYED.md §1.1) as offsets from `afp serve --port P`: the
 * casino on P, trading on P + 3, domains on P + 4, the wallet on P + 5, the faucet on P + 6 and
 * escrow on P + 7, mirroring 3000 / 3003 / 3004 / 3005 / 3006 / 3007. Why its own file: `afp serve`
 * bounds --port by the highest offset while it parses its flags, before it knows whether it will
 * load the deployed dialect's dispatcher and rows (deployed-layout.ts), which a documents serve
 * never needs.
 */
export const DEPLOYED_PORT_OFFSETS = { casino: 0, trading: 3, domains: 4, wallet: 5, faucet: 6, escrow: 7 } as const;

/** The highest offset: --port may be at most 65,535 minus it. */
export const DEPLOYED_PORT_OFFSET_MAX = Math.max(...Object.values(DEPLOYED_PORT_OFFSETS));
