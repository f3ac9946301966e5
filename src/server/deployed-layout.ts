/**
 * How `afp serve --dialect deployed` listens (spec/DEPLOYED.md §1.1): the casino on --port P (base
 * path /api/v1, also the address of `/_afp/*`), the faucet on P + 6 and escrow on P + 7 (root
 * paths), trading on P + 3, domains on P + 4 and the wallet on P + 5 (base path /v1 each), mirroring the deployment's 3000 / 3006 / 3007 / 3003 / 3004 / 3005; port 0 makes each ephemeral. One Platform,
 * answered through the deployed dispatcher over the deployed rows only. The faucet and escrow
 * addresses also serve the deployment's `/mcp` (mcp-doors.ts; the deployment serves it on other
 * ports, behind nginx at the same path of the service's host). A shed request (overload) answers in the deployment's
 * error shape.
 */
import { DeployedDispatcher, type DeployedDispatcherOptions } from '../http/deployed/deployed-dispatcher.ts';
import { deployedInfo } from '../http/deployed/deployed-info.ts';
import { DEPLOYED_PORT_OFFSETS } from './deployed-ports.ts';
import type { ServeLayout } from './listeners.ts';

/**
 * The deployed layout; `floatMoney` writes the casino's money as the deployment does (doubles with
 * their noise, display fields to 2 dp: `afp serve --dialect deployed --float-money`, or a rules
 * file's `money: { float_noise: true }`); `limitsLifted` (`--lift-deployed-limits`, tests only): no
 * per-IP windows, no per-agent buckets.
 */
export function deployedLayout(options: DeployedDispatcherOptions): ServeLayout {
  return {
    ...DEPLOYED_LAYOUT,
    limits: options.limitsLifted === true ? 'lifted' : 'deployed',
    dispatcher: (platform, routes) => new DeployedDispatcher(platform, routes, options),
  };
}

export const DEPLOYED_LAYOUT: ServeLayout = {
  dialect: 'deployed',
  mounts: () => [
    ['casino', DEPLOYED_PORT_OFFSETS.casino],
    ['faucet', DEPLOYED_PORT_OFFSETS.faucet],
    ['escrow', DEPLOYED_PORT_OFFSETS.escrow],
    ['trading', DEPLOYED_PORT_OFFSETS.trading],
    ['domains', DEPLOYED_PORT_OFFSETS.domains],
    ['wallet', DEPLOYED_PORT_OFFSETS.wallet],
  ],
  adminMount: 'casino',
  basePaths: { casino: '/api/v1', faucet: '', escrow: '', trading: '/v1', domains: '/v1', wallet: '/v1' },
  // The deployment's MCP doors (DEPLOYED.md §3, §4: on other ports behind nginx at <host>/mcp), at /mcp of the faucet's and escrow's addresses.
  mcp: 'deployed',
  // The casino plays the deployment's engine (DEPLOYED.md §2.3–§2.5): a live audit verifies its bets so.
  fairness: 'deployed',
  // Its fixed windows and buckets (DEPLOYED.md §1.3): a live command against it paces under them.
  limits: 'deployed',
  dispatcher: (platform, routes) => new DeployedDispatcher(platform, routes),
  // The deployment's error shape (spec/DEPLOYED.md §1.2): `{ error: snake_case, message }`, no code.
  edgeBody: (service, status, message) => ({
    error: status === 408 ? 'request_timeout' : 'service_unavailable',
    message,
    _info: deployedInfo(service ?? 'casino'),
  }),
};
