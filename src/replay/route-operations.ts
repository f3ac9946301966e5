/**
 * Route → operation: which afp operation (src/live/operations.ts) a recorded request performed,
 * found by its route id (the id of the row the router matches, endpoint-name.ts), and the
 * operation's input taken from the recorded body, path parameters, query and caller. A replay
 * through a target's dialect sends the operation, not the recorded wire request, so a recording in
 * the documents' styles replays on a deployment shaped otherwise (docs/design.md "Live targets").
 *
 * One row per route id (data, STYLE rule 6). Identifiers pass through `ids`, which gives the live
 * value of a recorded one (an agent by any of its references, an escrow by its id), so the input
 * names what the target issued. `input` returns null when the recorded request does not express the
 * operation (bad input the route would refuse before the domain: a missing field, a wrong type):
 * such an exchange is skipped with its reason, never forced into a shape.
 * Trading and domains (issue 20): market orders on perpetuals (both styles) are `trading.order`,
 * registrations `domains.register`, style B's lookup and transfer `domains.lookup` and
 * `domains.transfer` (the transfer names its domain's live id, `ids.domain`, and its receiver,
 * `agents`, who must hold an account on the service first), style A's positions list
 * `trading.positions`; DNS record sets and domain lists are route-operations-domains.ts's. What no
 * operation expresses (a spot limit order, a renewal) has no row, or `notReplayed` says why; spot
 * market orders are `trading.spot` (route-operations-trading.ts). A market order that closes the agent's
 * position the documents' way (the other side, its whole quantity) is told apart by the replay
 * (replay-positions.ts), which sends `trading.close` where the target offers it.
 * The wallet (issue 21): the primary interface's register, create, balance, send and swap quote;
 * addresses pass through `ids.address` (the replay's created wallets), a send's redacted key is
 * the live sender's (`ids.walletKey`, in memory only); a swap's to_address is a bound address too.
 * The casino's rows are route-operations-casino.ts's. Routes with no operation are skipped by name.
 */
import type { Micro } from '../core/money.ts';
import { parseDecimal, parseNumber } from '../core/money.ts';
import type { OperationInput, OperationName } from '../live.ts';
import { isObject } from './json-pointer.ts';
import { CASINO_ROUTE_OPERATIONS } from './route-operations-casino.ts';
import { TRADING_ROUTE_OPERATIONS } from './route-operations-trading.ts';
import { READ_ROUTE_OPERATIONS } from './route-operations-reads.ts';
import { DOMAINS_ROUTE_OPERATIONS } from './route-operations-domains.ts';
import type { AnyRouteOperation, IdTranslation, RecordedCall, RouteOperation } from './route-operations-types.ts';

const HOUR_SECONDS = 3_600;
/** Both styles' default expiry (services/shared/config.ts `defaultExpiresInSeconds`). */
const DEFAULT_EXPIRES_IN_SECONDS = 86_400;

function routeOperation<O extends OperationName>(
  route: string,
  op: O,
  input: RouteOperation<O>['input'],
  extra: Pick<RouteOperation<O>, 'notReplayed' | 'agents'> = {},
): RouteOperation<O> {
  return { route, op, input, ...extra };
}

function text(body: unknown, name: string): string | null {
  const value = isObject(body) ? body[name] : undefined;
  return typeof value === 'string' && value !== '' ? value : null;
}

function optionalText(body: unknown, name: string): string | undefined | null {
  const value = isObject(body) ? body[name] : undefined;
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : null;
}

/** An amount as sent: a JSON number (both styles) or a decimal string (style B); null when neither. */
function amount(body: unknown, name: string): Micro | null {
  const value = isObject(body) ? body[name] : undefined;
  const parsed =
    typeof value === 'number' ? parseNumber(value) : typeof value === 'string' ? parseDecimal(value) : null;
  return typeof parsed === 'bigint' ? parsed : null;
}

function listInput(call: RecordedCall): OperationInput<'escrow.list'> | null {
  const limitText = call.query['limit'];
  const limit = limitText === undefined ? null : /^\d{1,6}$/.test(limitText) ? Number(limitText) : Number.NaN;
  if (Number.isNaN(limit)) return null;
  return { role: call.query['role'] ?? null, status: call.query['status'] ?? null, limit };
}

function registerInput(call: RecordedCall, ids: IdTranslation): OperationInput<'faucet.register'> | null {
  const agentId = text(call.body, 'agent_id');
  const referrer = optionalText(call.body, 'referrer');
  if (agentId === null || referrer === null) return null;
  return referrer === undefined ? { agentId } : { agentId, referrer: ids.agent(referrer) };
}

function callerInput(call: RecordedCall, ids: IdTranslation): { agentId: string } | null {
  return call.callerId === null ? null : { agentId: ids.agent(call.callerId) };
}

function idInput(escrowId: string | null | undefined, ids: IdTranslation): { escrowId: string } | null {
  return escrowId === null || escrowId === undefined || escrowId === '' ? null : { escrowId: ids.escrow(escrowId) };
}

function disputeInput(
  escrowId: string | null | undefined,
  body: unknown,
  ids: IdTranslation,
): OperationInput<'escrow.dispute'> | null {
  const id = idInput(escrowId, ids);
  const reason = text(body, 'reason');
  return id === null || reason === null ? null : { escrowId: id.escrowId, reason };
}

const LEVERAGE_MAX = 100;
const YEARS_MAX = 10;

function leverageOf(body: unknown): number | null {
  const value = isObject(body) ? (body['leverage'] ?? 1) : null;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 && value <= LEVERAGE_MAX ? value : null;
}

/** A market order on a perpetual, as afp's trading.order; null when the body does not say one. */
function orderInput(
  symbol: string | null,
  side: 'long' | 'short' | null,
  sizeMicro: Micro | null,
  body: unknown,
): OperationInput<'trading.order'> | null {
  const leverage = leverageOf(body);
  if (symbol === null || side === null || sizeMicro === null || leverage === null) return null;
  return { symbol, side, sizeMicro, leverage };
}

/** Orders no operation expresses: a limit order on a spot pair (a perpetual's is trading.limit, a spot market order trading.spot). */
function orderNotReplayed(body: unknown): string | null {
  const type = isObject(body) ? body['type'] : undefined;
  return type !== undefined && type !== 'market'
    ? `a ${String(type)} order on a spot pair: afp has no operation for a spot limit order (a deployment trades perpetuals only, DEPLOYED.md §5)`
    : null;
}

function sideA(body: unknown): 'long' | 'short' | null {
  const side = text(body, 'side');
  return side === 'long' || side === 'buy' ? 'long' : side === 'short' || side === 'sell' ? 'short' : null;
}

function domainYears(call: RecordedCall): OperationInput<'domains.register'> | null {
  const domain = text(call.body, 'domain');
  const years = isObject(call.body) ? (call.body['years'] ?? 1) : null;
  if (domain === null || typeof years !== 'number' || !Number.isSafeInteger(years) || years < 1 || years > YEARS_MAX)
    return null;
  return { domain, years };
}

/** A wallet amount as sent: the documents' decimal string (or a JSON number, as text). */
function walletAmount(body: unknown): string | null {
  const value = isObject(body) ? body['amount'] : undefined;
  return typeof value === 'string' && value !== ''
    ? value
    : typeof value === 'number' && Number.isFinite(value)
      ? String(value)
      : null;
}

/** A swap's five fields (a quote's query, a swap's body) as afp's input; null when one is missing. */
function swapInput(fields: Readonly<Record<string, string | null | undefined>>): OperationInput<'wallet.quote'> | null {
  const {
    from_chain: fromChain,
    to_chain: toChain,
    from_token: fromToken,
    to_token: toToken,
    amount: swapAmount,
  } = fields;
  if (
    typeof fromChain !== 'string' ||
    typeof toChain !== 'string' ||
    typeof fromToken !== 'string' ||
    typeof toToken !== 'string' ||
    typeof swapAmount !== 'string'
  )
    return null;
  return { fromChain, toChain, fromToken, toToken, amount: swapAmount };
}

/** A monero send's sender and its keys: the live ones of a wallet the replay created, else as recorded. */
function moneroSender(body: unknown, ids: IdTranslation): NonNullable<OperationInput<'wallet.send'>['monero']> | null {
  const from = text(body, 'from');
  const viewKey = text(body, 'view_key');
  const spendKey = text(body, 'spend_key');
  if (from === null || viewKey === null || spendKey === null) return null;
  const live = ids.address(from);
  return { from: live, ...(ids.moneroKeys(live) ?? { viewKey, spendKey }) };
}

function escrowBInput(call: RecordedCall, ids: IdTranslation): OperationInput<'escrow.create'> | null {
  const receiver = text(call.body, 'receiver');
  const amountMicro = amount(call.body, 'amount');
  const description = optionalText(call.body, 'description');
  const expiresIn = isObject(call.body) ? (call.body['expires_in'] ?? DEFAULT_EXPIRES_IN_SECONDS) : null;
  if (
    call.callerId === null ||
    receiver === null ||
    amountMicro === null ||
    description === null ||
    !Number.isSafeInteger(expiresIn) ||
    (expiresIn as number) < 1
  )
    return null;
  const seconds = expiresIn as number;
  return {
    amountMicro,
    creatorId: ids.agent(call.callerId),
    counterpartyId: ids.agent(receiver),
    description: description ?? '',
    timeoutHours: Math.ceil(seconds / HOUR_SECONDS),
    expiresInSeconds: seconds,
  };
}

const ROWS: readonly AnyRouteOperation[] = [
  routeOperation('faucet.A.register', 'faucet.register', registerInput),
  routeOperation('faucet.B.register', 'faucet.register', registerInput),
  routeOperation('faucet.A.claim', 'faucet.claim', callerInput),
  routeOperation('faucet.B.claim', 'faucet.claim', (call, ids) => {
    const named = optionalText(call.body, 'agent_id');
    if (named === null) return null;
    return named === undefined ? callerInput(call, ids) : { agentId: ids.agent(named) };
  }),
  routeOperation('faucet.A.status', 'faucet.status', () => ({})),
  // The caller's own agent and its balance: the faucet status's balance, read by id.
  routeOperation('faucet.A.agent', 'faucet.status', () => ({}), {
    notReplayed: (call, ids) => {
      const named = call.params['id'];
      return named === undefined || call.callerId === null || ids.agent(named) === ids.agent(call.callerId)
        ? null
        : "another agent's details (the documents refuse them 403): afp's faucet status is the caller's own";
    },
  }),
  routeOperation('faucet.B.status', 'faucet.status', () => ({})),
  routeOperation(
    'escrow.A.create',
    'escrow.create',
    (call, ids) => {
      const buyer = text(call.body, 'buyer');
      const seller = text(call.body, 'seller');
      const amountMicro = amount(call.body, 'amount');
      const memo = optionalText(call.body, 'memo');
      if (buyer === null || seller === null || amountMicro === null || memo === null) return null;
      return {
        amountMicro,
        creatorId: ids.agent(buyer),
        counterpartyId: ids.agent(seller),
        description: memo ?? '',
        timeoutHours: DEFAULT_EXPIRES_IN_SECONDS / HOUR_SECONDS,
      };
    },
    {
      notReplayed: (call, ids) => {
        const buyer = text(call.body, 'buyer');
        return buyer === null || call.callerId === null || ids.agent(buyer) === ids.agent(call.callerId)
          ? null
          : "an escrow whose buyer is not the caller (the documents refuse it 403): afp's escrow.create is the caller's own, and a dialect that names no buyer cannot ask it";
      },
    },
  ),
  routeOperation('escrow.B.create', 'escrow.create', escrowBInput, {
    notReplayed: (call, ids) => {
      const referrer = optionalText(call.body, 'referrer');
      const receiver = text(call.body, 'receiver');
      if (typeof referrer !== 'string' || call.callerId === null || receiver === null) return null;
      const named = ids.agent(referrer);
      return named === ids.agent(call.callerId) || named === ids.agent(receiver)
        ? "an escrow whose referrer is its sender or receiver (the documents refuse it 400): afp's escrow.create names no referrer, so the refusal cannot be asked"
        : null;
    },
  }),

  routeOperation('escrow.A.release', 'escrow.release', (call, ids) => idInput(text(call.body, 'escrow_id'), ids)),
  routeOperation('escrow.B.release', 'escrow.release', (call, ids) => idInput(call.params['id'], ids)),
  routeOperation('escrow.B.refund', 'escrow.refund', (call, ids) => idInput(call.params['id'], ids)),
  routeOperation('escrow.A.dispute', 'escrow.dispute', (call, ids) =>
    disputeInput(text(call.body, 'escrow_id'), call.body, ids),
  ),
  routeOperation('escrow.B.dispute', 'escrow.dispute', (call, ids) => disputeInput(call.params['id'], call.body, ids)),
  routeOperation('escrow.A.get', 'escrow.get', (call, ids) => idInput(call.params['id'], ids)),
  routeOperation('escrow.B.get', 'escrow.get', (call, ids) => idInput(call.params['id'], ids)),
  routeOperation('escrow.A.list', 'escrow.list', listInput),
  routeOperation('escrow.B.list', 'escrow.list', listInput),
  routeOperation('casino.A.register', 'casino.register', (call) => {
    const referralCode = optionalText(call.body, 'referral_code');
    if (referralCode === null) return null;
    return referralCode === undefined ? {} : { referralCode };
  }),
  // Before the market orders: a limit order is its own operation on the same route.
  ...TRADING_ROUTE_OPERATIONS,
  routeOperation(
    'trading.A.order',
    'trading.order',
    (call) => orderInput(text(call.body, 'symbol'), sideA(call.body), amount(call.body, 'size'), call.body),
    {
      notReplayed: (call) => orderNotReplayed(call.body),
    },
  ),
  routeOperation(
    'trading.B.order',
    'trading.order',
    (call) => {
      const pair = text(call.body, 'pair');
      const side = text(call.body, 'side');
      const symbol = pair === null || !pair.endsWith('-USDC') ? null : `${pair.slice(0, -'-USDC'.length)}-PERP`;
      return orderInput(
        symbol,
        side === 'buy' ? 'long' : side === 'sell' ? 'short' : null,
        amount(call.body, 'amount'),
        call.body,
      );
    },
    {
      notReplayed: (call) => orderNotReplayed(call.body),
    },
  ),
  routeOperation('trading.A.positions', 'trading.positions', () => ({})),
  routeOperation('domains.A.register', 'domains.register', domainYears),
  routeOperation('domains.A.check', 'domains.check', (call) => {
    const domain = call.query['domain'];
    return domain === undefined || domain === '' ? null : { names: [domain] };
  }),
  routeOperation('domains.B.register', 'domains.register', domainYears),
  routeOperation('domains.B.renew', 'domains.register', domainYears, {
    notReplayed: () =>
      'a renewal: afp has no renewal operation, and a deployment registers a name for one year and offers none (DEPLOYED.md §7)',
  }),
  routeOperation('domains.B.lookup', 'domains.lookup', (call) => {
    const domain = call.params['domain'];
    return domain === undefined || domain === '' ? null : { domain };
  }),
  routeOperation(
    'domains.B.transfer',
    'domains.transfer',
    (call, ids) => {
      const domain = text(call.body, 'domain');
      const to = text(call.body, 'to');
      const price = isObject(call.body) ? call.body['price'] : undefined;
      const priceMicro = price === undefined || price === null ? null : amount(call.body, 'price');
      if (domain === null || to === null || (price !== undefined && price !== null && priceMicro === null)) return null;
      return { domain, to: ids.agent(to), priceMicro, domainId: ids.domain(domain) };
    },
    {
      agents: (call) => {
        const to = text(call.body, 'to');
        return to === null ? [] : [to];
      },
    },
  ),
  ...DOMAINS_ROUTE_OPERATIONS,
  routeOperation('wallet.primary.register', 'wallet.register', () => ({})),
  routeOperation('wallet.primary.create', 'wallet.create', () => ({})),
  routeOperation('wallet.primary.balance', 'wallet.balance', (call, ids) => {
    const address = call.params['address'];
    if (address === undefined || address === '') return null;
    const balance = { address: ids.address(address), chain: call.query['chain'] ?? null };
    const viewKey = call.query['view_key'];
    return viewKey === undefined
      ? balance
      : { ...balance, viewKey: ids.moneroKeys(balance.address)?.viewKey ?? viewKey };
  }),
  ...CASINO_ROUTE_OPERATIONS,
  ...READ_ROUTE_OPERATIONS,
  routeOperation('wallet.primary.send', 'wallet.send', (call, ids) => {
    const chain = text(call.body, 'chain');
    const to = text(call.body, 'to');
    const sent = walletAmount(call.body);
    const token = optionalText(call.body, 'token');
    if (chain === null || to === null || sent === null || token === null) return null;
    const send = { chain, to: ids.address(to), amount: sent, ...(token === undefined ? {} : { token }) };
    if (chain === 'monero') {
      const monero = moneroSender(call.body, ids);
      return monero === null ? null : { ...send, monero };
    }
    const privateKey = ids.walletKey(call.body) ?? text(call.body, 'private_key');
    return privateKey === null ? null : { ...send, privateKey };
  }),
  routeOperation('wallet.primary.swap-quote', 'wallet.quote', (call) => swapInput(call.query)),
  routeOperation('wallet.primary.swap', 'wallet.swap', (call, ids) => {
    const quote = swapInput({
      from_chain: text(call.body, 'from_chain'),
      to_chain: text(call.body, 'to_chain'),
      from_token: text(call.body, 'from_token'),
      to_token: text(call.body, 'to_token'),
      amount: walletAmount(call.body),
    });
    const toAddress = text(call.body, 'to_address');
    return quote === null || toAddress === null ? null : { ...quote, toAddress: ids.address(toAddress) };
  }),
];

const BY_ROUTE: ReadonlyMap<string, readonly AnyRouteOperation[]> = ROWS.reduce((byRoute, row) => {
  byRoute.set(row.route, [...(byRoute.get(row.route) ?? []), row]);
  return byRoute;
}, new Map<string, AnyRouteOperation[]>());

/** The operation a route id performs (for `call`, where the route performs several), or null when it has none. */
export function routeOperationOf(routeId: string, call?: RecordedCall): AnyRouteOperation | null {
  const rows = BY_ROUTE.get(routeId) ?? [];
  return rows.find((row) => row.when === undefined || (call !== undefined && row.when(call))) ?? rows[0] ?? null;
}

/** Every route id with an operation (tests check each names a route of the table). */
export function routesWithOperations(): string[] {
  return ROWS.map((row) => row.route);
}
