/**
 * Operations: what afp's live commands ask of a target, by afp's own names, with inputs and results
 * in afp's terms (bigint micro-USDC, afp game ids). A dialect (src/live/dialects/) maps each one to
 * the wire of one addressing style and reads the answer back; commands never see a path or a field
 * name. Every operation is one request; where a target's dialect has no such request, a caller
 * may ask it otherwise (the replay asks a deployment a DNS set record by record: replay/dns-set-calls.ts).
 * Non-goals: the whole API (only what audits, probes, replay and load need is an operation; the rest
 * is reached through the route tables of afp's own client).
 */
import type {
  EscrowRelease,
  EscrowView,
  LimitOrderView,
  MarketOrderResult,
  PositionView,
  ReferralStatsView,
  TournamentLine,
  WalletTokenAmount,
} from './operation-views.ts';
import type { JsonObject, JsonValue } from '../core/errors.ts';
import type { LiveAmount } from '../core/live-amount.ts';
import type { Micro } from '../core/money.ts';
import type { DnsEntry, DnsView, ListedDomain, NameAvailability } from './domain-views.ts';

export type { DnsEntry, DnsView, ListedDomain, NameAvailability } from './domain-views.ts';

/** Trading's answer views live with the other shared views; importers of this table keep their names. */
export type { EscrowRelease, EscrowView, LimitOrderView, PositionView } from './operation-views.ts';

export interface BetInput {
  /** afp's game id (coin_flip, dice, … baccarat). */
  readonly game: string;
  readonly amountMicro: Micro;
  readonly clientSeed: string;
  /** The game's parameters, by the documents' names (side, direction, threshold, …). */
  readonly params: JsonObject;
}

/** One game list entry's own words about its game (DEPLOYED.md §2.1), unparsed (published-prose.ts reads them). */
export interface ListedGameWords {
  readonly game: string;
  readonly houseEdge: JsonValue | null;
  readonly payout: JsonValue | null;
}

/** One placed bet as the target answered it (enough for a fairness scheme to verify). */
export interface LiveBet {
  readonly betId: string;
  readonly game: string;
  readonly amountMicro: Micro;
  /** Gross return credited (stake included); null when the answer does not say. */
  readonly paidMicro: Micro | null;
  readonly multiplier: number | null;
  readonly won: boolean | null;
  readonly result: JsonValue;
  readonly clientSeed: string;
  readonly nonce: number;
  readonly seedHash: string;
  readonly resultHash: string;
  /** The balance after the bet, when the answer says. */
  readonly balanceAfterMicro: Micro | null;
  /**
   * The decimals the answer rounds `paidMicro` to (a display field: the deployment's `amount_won`,
   * 2 dp; live/documented-rules.ts DISPLAY_ROUNDING); absent or null: shown exactly. The credit
   * itself is then stake × multiplier, never the shown figure.
   */
  readonly paidPlaces?: number | null;
}

/** A refusal as the target said it: its own error name is kept, never relabelled. */
export interface Refusal {
  readonly status: number;
  /** The target's error name: `code` where it sends one, else `error`. */
  readonly name: string;
  readonly message: string;
  /** The whole body, for evidence. */
  readonly body: JsonValue;
}

/** A video-poker deal: the hand shown (afp's card numbers, src/services/casino/games/cards.ts) and the nonce to draw with. */
interface DealtHand {
  readonly nonce: number;
  readonly cards: readonly number[];
}

/** One page of the account's bet history, newest first. */
export interface HistoryPage {
  readonly betIds: readonly string[];
  /** The history's own count of the account's bets; null when the answer does not say. */
  readonly total: number | null;
  /** Whether bets lie beyond this page. */
  readonly hasMore: boolean;
}

/** One bet's audit trail: the bet, the parameters it was placed with, and the seed the answer reveals. */
export interface AuditedBet {
  readonly bet: LiveBet;
  /** The game's parameters as sent; null when the answer does not carry them (the deployment's). */
  readonly params: JsonObject | null;
  /** The server seed (64 hex) when the answer reveals it; null while it is hidden. */
  readonly revealedSeed: string | null;
}

export interface BatchSummary {
  readonly total: number | null;
  readonly won: number | null;
  readonly lost: number | null;
  readonly errors: number | null;
  readonly totalWageredMicro: Micro | null;
  readonly totalWonMicro: Micro | null;
  readonly netPnlMicro: Micro | null;
}

/** One transaction of an address as a wallet lists it (amounts as the chain writes them). */
export interface LiveWalletTx {
  readonly txHash: string;
  readonly amount: string | null;
  readonly status: string | null;
}

/** A DNS record to add (types and TTL as NOTES.md; `priority` for MX). */
export interface DnsInput {
  readonly type: string;
  readonly name: string;
  readonly content: string;
  readonly ttl: number;
  readonly priority: number | null;
}

export interface Operations {
  'casino.register': { input: { referralCode?: string }; result: { agentId: string; apiKey: string } };
  /** `balance`: the balance exactly as the target wrote it (a deployment's double, float noise included), where the dialect reads it so. */
  'casino.balance': {
    input: Record<string, never>;
    result: { agentId: string | null; balanceMicro: Micro; balance?: LiveAmount };
  };
  /** `published`: each entry's `house_edge` and `payout` exactly as written, where the dialect reads them (the deployment's list). */
  'casino.games': {
    input: Record<string, never>;
    result: { games: readonly string[]; published?: readonly ListedGameWords[] };
  };
  'casino.bet': { input: BetInput; result: LiveBet };
  'casino.batch': {
    input: { bets: readonly BetInput[] };
    result: {
      results: ReadonlyArray<LiveBet | Refusal>;
      summary: BatchSummary | null;
      balanceAfterMicro: Micro | null;
    };
  };
  /** Video poker, phase one: five cards, no bet (the documents commit the amount here, the deployment at the draw). */
  'casino.deal': { input: { amountMicro: Micro; clientSeed: string }; result: DealtHand };
  /** Video poker, phase two: the bet; `holds` are the positions (0–4) kept. */
  'casino.draw': {
    input: { nonce: number; holds: readonly number[]; amountMicro: Micro; clientSeed: string };
    result: LiveBet;
  };
  /**
   * Video poker's draw at a (client seed, nonce) the caller picks, dealt or not: the deployment
   * re-deals from them (DEPLOYED.md §2.5). The documents' draw plays only the nonce of a hand dealt
   * to the caller under the deal's client seed, so their dialects offer no row.
   */
  'casino.draw-at': {
    input: { nonce: number; holds: readonly number[]; amountMicro: Micro; clientSeed: string };
    result: LiveBet;
  };
  'casino.rotate': {
    input: Record<string, never>;
    result: { revealedSeed: string | null; revealedSeedHash: string | null };
  };
  'casino.seeds': {
    input: Record<string, never>;
    result: { seeds: ReadonlyArray<{ seedHash: string; seed: string | null }> };
  };
  /** A page of the account's bet ids; `offset` counts bets from the newest. */
  'casino.history': { input: { offset: number; limit: number }; result: HistoryPage };
  'casino.audit': { input: { betId: string }; result: AuditedBet };
  /** The target's own check of one bet: `verified` null while its seed is hidden. */
  'casino.verify': { input: { betId: string }; result: { verified: boolean | null } };
  'casino.withdraw': {
    input: { amountMicro: Micro; address: string };
    result: { status: string | null; balanceAfterMicro: Micro | null };
  };
  /** A tournament the caller creates (instants in ms; the dialect writes them as it documents). */
  'casino.tournament-create': {
    input: {
      name: string;
      game: string;
      entryFeeMicro: Micro;
      prizePoolMicro: Micro;
      maxAgents: number;
      startsAtMs: number;
      endsAtMs: number;
    };
    /** `prizePoolMicro`: the pool the answer states, where it does. */
    result: { tournamentId: string; prizePoolMicro: Micro | null };
  };
  /** The caller enters a tournament (its entry fee joins the pool). */
  'casino.tournament-enter': { input: { tournamentId: string }; result: { tournamentId: string } };
  /** A bet of the tournament's game, placed in the tournament (`params` by the documents' names). */
  'casino.tournament-play': {
    input: { tournamentId: string; amountMicro: Micro; clientSeed: string; params: JsonObject };
    result: LiveBet;
  };
  /** A challenge to another agent: the caller's stake of `amountMicro` on `game`. */
  /** The commitment of the caller's active server seed. */
  'casino.seed-hash': { input: Record<string, never>; result: { seedHash: string } };
  /** Sets the caller's Kelly risk factor (0.1 to 1.0): the factor the answer states. */
  'casino.kelly-config': { input: { riskFactor: number }; result: { riskFactor: number | null } };
  /** The tournaments a casino lists (the documents: active and upcoming). */
  'casino.tournaments': { input: Record<string, never>; result: { tournaments: readonly TournamentLine[] } };
  /** One tournament (its leaderboard's scores are drawn, and not read). */
  'casino.tournament': { input: { tournamentId: string }; result: TournamentLine };
  'casino.challenge': {
    input: { challengedId: string; game: string; amountMicro: Micro };
    result: { challengeId: string; status: string | null };
  };
  /** The challenged agent accepts: the game is resolved and the winner paid. */
  'casino.challenge-accept': {
    input: { challengeId: string };
    /** What the answer states: the winner (null: a draw, or not said), the house's cut and the winner's payout. */
    result: { winnerId: string | null; houseCutMicro: Micro | null; payoutMicro: Micro | null };
  };
  /** A caller-chosen agent id (the documents' faucet); a deployment registers on its casino instead. */
  'faucet.register': {
    input: { agentId: string; referrer?: string };
    result: {
      agentId: string;
      apiKey: string;
      address: string | null;
      referralCode: string | null;
      creditedMicro: Micro | null;
    };
  };
  'faucet.claim': { input: { agentId: string }; result: { creditedMicro: Micro | null } };
  /** The same claim through the faucet's MCP door (`claim_faucet`; live/mcp-call.ts). */
  'faucet.mcp-claim': { input: { agentId: string }; result: { creditedMicro: Micro | null } };
  /** The caller's own faucet standing: its balance where the answer shows it. */
  'faucet.status': { input: Record<string, never>; result: { balanceMicro: Micro | null } };
  /**
   * The caller's referral statistics: style B's faucet `/referrals`, style A's and a deployment's
   * casino `/auth/referral/stats` (DEPLOYED.md §2.9); what a style does not show is null.
   */
  'faucet.referrals': { input: Record<string, never>; result: ReferralStatsView };
  'escrow.create': {
    /** `timeoutHours` for dialects that count hours; `expiresInSeconds`, when given, for those that count seconds. */
    input: {
      amountMicro: Micro;
      creatorId: string;
      counterpartyId: string;
      description: string;
      timeoutHours: number;
      expiresInSeconds?: number;
    };
    result: EscrowView;
  };
  'escrow.release': { input: { escrowId: string }; result: EscrowRelease };
  /** The creator's release through the escrow's MCP door (`release_escrow`; live/mcp-call.ts). */
  'escrow.mcp-release': { input: { escrowId: string }; result: EscrowRelease };
  'escrow.refund': { input: { escrowId: string }; result: { status: string | null } };
  'escrow.dispute': { input: { escrowId: string; reason: string }; result: { status: string | null } };
  'escrow.get': { input: { escrowId: string }; result: EscrowView };
  /** The caller's escrows, newest first (`role`: sender, receiver or all). */
  'escrow.list': {
    input: { role: string | null; status: string | null; limit: number | null };
    result: { escrows: readonly EscrowView[] };
  };
  /** A market order on a perpetual (`side` long/short, `sizeMicro` the notional in USDC; `leverage` null: not sent, the target's default). */
  'trading.order': {
    input: { symbol: string; side: 'long' | 'short'; sizeMicro: Micro; leverage: number | null };
    result: MarketOrderResult;
  };
  /**
   * A market order on a spot pair (`pair` `BTC-USDC`, `sizeMicro` the USDC spent or sold). A
   * deployment trades perpetuals only (DEPLOYED.md §5): it is asked a buy as a 1x long of the same
   * notional on the coin's perpetual, and offers no sell (docs/decisions/replay.md).
   */
  'trading.spot': {
    input: { pair: string; side: 'buy' | 'sell'; sizeMicro: Micro };
    result: MarketOrderResult;
  };
  /** A trading account of its own (the deployment's trading keeps its own agents, keys and balances). */
  'trading.register': { input: Record<string, never>; result: { agentId: string; apiKey: string } };
  /** The trading account's free balance (not counting margin or held funds). */
  'trading.balance': { input: Record<string, never>; result: { balanceMicro: Micro; marginMicro: Micro | null } };
  /** Closes a whole position at the market. */
  'trading.close': {
    input: { positionId: string };
    result: { status: string | null; pnlMicro: Micro | null; feeMicro: Micro | null };
  };
  /** A limit order on a perpetual: pending until the price crosses `limitPrice` (a long fills at or below it, a short at or above). */
  'trading.limit': {
    input: { symbol: string; side: 'long' | 'short'; sizeMicro: Micro; limitPrice: number; leverage: number };
    result: LimitOrderView;
  };
  /** The caller's pending limit orders. */
  'trading.orders': { input: Record<string, never>; result: { orders: readonly LimitOrderView[] } };
  /** Cancels a pending limit order: the cancelled order. */
  'trading.cancel': { input: { orderId: string }; result: LimitOrderView };
  /** The caller's open positions, listed by market. */
  'trading.positions': { input: Record<string, never>; result: { positions: readonly PositionView[] } };
  /** A perpetual's current price (the deployment's one `price`; the documents' mark or mid). */
  'trading.price': { input: { symbol: string }; result: { price: number; timestampMs: number | null } };
  /** Registers a domain for the caller; `costMicro` where the answer says it. */
  'domains.register': {
    input: { domain: string; years: number };
    result: { domain: string | null; costMicro: Micro | null; domainId?: string | null };
  };
  /** A gift (no price), an offer (the owner, with a price) or its acceptance (the buyer: to = itself, the offered price). */
  'domains.transfer': {
    input: { domain: string; to: string; priceMicro: Micro | null; domainId?: string | null };
    result: { status: string | null; owner: string | null };
  };
  /** Who holds a registered domain, and its status. */
  'domains.lookup': { input: { domain: string }; result: { owner: string | null; status: string | null } };
  /** Where the domains service keeps its own accounts (the deployment): a fresh domains agent. */
  'domains.account': { input: Record<string, never>; result: { agentId: string; apiKey: string } };
  /** That account's balance. */
  'domains.balance': { input: Record<string, never>; result: { agentId: string | null; balanceMicro: Micro } };
  /** Availability and yearly price of a few names. */
  'domains.check': { input: { names: readonly string[] }; result: { results: readonly NameAvailability[] } };
  /** Adds a DNS record to one of the caller's domains (by its id). */
  'domains.dns-add': { input: { domainId: string; record: DnsInput }; result: DnsView };
  /** The DNS records of one of the caller's domains. */
  'domains.dns-list': { input: { domainId: string }; result: { records: readonly DnsView[] } };
  /** Changes a record's content and TTL (the other fields kept). */
  'domains.dns-update': { input: { recordId: string; content: string; ttl: number }; result: DnsView };
  'domains.dns-delete': { input: { recordId: string }; result: { deleted: boolean | null } };
  /** The caller's domains, by name (sorted). */
  'domains.list': { input: Record<string, never>; result: { domains: readonly ListedDomain[] } };
  /** A domain's DNS record set by its name (style A's read); `domainId` where a target reads by id (null: unknown). Sorted. */
  'domains.dns-records': {
    input: { domain: string; domainId: string | null };
    result: { records: readonly DnsEntry[] };
  };
  /**
   * Style A's upsert: each (type, name) group of `records` replaces the domain's records of that
   * type and name, the others stay; the result is the domain's whole record set after it (sorted).
   * A deployment has no such call: the replay asks it one record at a time (replay/dns-set-calls.ts).
   */
  'domains.dns-set': {
    input: { domain: string; domainId: string | null; records: readonly DnsInput[] };
    result: { records: readonly DnsEntry[] };
  };
  /** A wallet account (the wallet registers its own agents and keys). */
  'wallet.register': { input: Record<string, never>; result: { agentId: string; apiKey: string } };
  /** A fresh HD wallet: the six addresses and the mnemonic, shown once (the caller derives its keys from it). */
  'wallet.create': {
    input: Record<string, never>;
    result: { addresses: Readonly<Record<string, string>>; mnemonic: string | null };
  };
  /** The native balance of an address as a decimal text of whole units; `chain` null: the call names none. */
  'wallet.balance': {
    /** `viewKey`: a monero address's view key (its balance is read with it, DEPLOYED.md §6). */
    input: { address: string; chain: string | null; viewKey?: string };
    /** `tokens`: the token holdings where the answer lists them (the documents do; a deployment shows none: null). */
    result: {
      chain: string | null;
      symbol: string | null;
      amount: string | null;
      tokens?: readonly WalletTokenAmount[] | null;
    };
  };
  /**
   * A send (amount a decimal text of whole units) of the native coin, or of `token` (a contract
   * address or symbol), signed with `privateKey`; a monero send names its sender and its keys (`monero`).
   */
  'wallet.send': {
    input: {
      chain: string;
      to: string;
      amount: string;
      privateKey?: string;
      token?: string;
      monero?: { readonly from: string; readonly viewKey: string; readonly spendKey: string };
    };
    result: { txHash: string; amount: string | null };
  };
  /** A swap quote; tokens as the caller names them (contract addresses, or symbols where a target takes them). */
  'wallet.quote': {
    input: { fromChain: string; toChain: string; fromToken: string; toToken: string; amount: string };
    result: { fromAmount: string | null; toAmount: string | null; integratorFee: string | null };
  };
  /** A swap order to `toAddress`. */
  'wallet.swap': {
    input: {
      fromChain: string;
      toChain: string;
      fromToken: string;
      toToken: string;
      amount: string;
      toAddress: string;
    };
    /** `depositAddress`: where the order waits for its deposit (a send there funds the swap); null when the answer does not say. */
    result: { orderId: string; status: string | null; depositAddress: string | null };
  };
  /** An address's transactions, newest first; `txHash`: only that one (a read by hash, asked as its sender's list). */
  'wallet.transactions': {
    input: { address: string; chain: string | null; limit: number | null; txHash: string | null };
    result: { transactions: readonly LiveWalletTx[] };
  };
  /** A swap order's state. */
  'wallet.swap-status': { input: { orderId: string }; result: { orderId: string; status: string | null } };
  /** The chains the wallet serves, by name. */
  'wallet.chains': { input: Record<string, never>; result: { chains: readonly string[] } };
  /** The balance call of the documents' style A (`/api/v1/balance`) or B (`/wallet-api/balance`) on the wallet's address: served or not. */
  'wallet.style-balance': { input: { style: 'A' | 'B' }; result: { served: true } };
}

export type OperationName = keyof Operations;

/** The operation names as a value (target files validate `limits` against it); typed against Operations. */
export const OPERATION_NAMES = [
  'casino.register',
  'casino.balance',
  'casino.games',
  'casino.bet',
  'casino.batch',
  'casino.deal',
  'casino.draw',
  'casino.draw-at',
  'casino.rotate',
  'casino.seeds',
  'casino.history',
  'casino.audit',
  'casino.verify',
  'casino.withdraw',
  'casino.tournament-create',
  'casino.tournament-enter',
  'casino.tournament-play',
  'casino.seed-hash',
  'casino.kelly-config',
  'casino.tournaments',
  'casino.tournament',
  'casino.challenge',
  'casino.challenge-accept',
  'faucet.register',
  'faucet.claim',
  'faucet.mcp-claim',
  'faucet.status',
  'faucet.referrals',
  'escrow.create',
  'escrow.release',
  'escrow.mcp-release',
  'escrow.refund',
  'escrow.dispute',
  'escrow.get',
  'escrow.list',
  'trading.order',
  'trading.spot',
  'trading.register',
  'trading.balance',
  'trading.close',
  'trading.limit',
  'trading.orders',
  'trading.cancel',
  'trading.positions',
  'trading.price',
  'domains.register',
  'domains.transfer',
  'domains.lookup',
  'domains.account',
  'domains.balance',
  'domains.check',
  'domains.dns-add',
  'domains.dns-list',
  'domains.dns-update',
  'domains.dns-delete',
  'domains.list',
  'domains.dns-records',
  'domains.dns-set',
  'wallet.register',
  'wallet.create',
  'wallet.balance',
  'wallet.send',
  'wallet.quote',
  'wallet.swap',
  'wallet.transactions',
  'wallet.swap-status',
  'wallet.chains',
  'wallet.style-balance',
] as const satisfies readonly OperationName[];
type MissingOperation = Exclude<OperationName, (typeof OPERATION_NAMES)[number]>;
const everyOperationListed: [MissingOperation] extends [never] ? true : false = true;
void everyOperationListed;
export type OperationInput<O extends OperationName> = Operations[O]['input'];
export type OperationResult<O extends OperationName> = Operations[O]['result'];

export function isRefusal(value: LiveBet | Refusal): value is Refusal {
  return 'name' in value && 'status' in value && !('betId' in value);
}
