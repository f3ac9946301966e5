/**
 * The trading venue's market catalogue: 229 crypto perpetuals and 46 real-world-asset perpetuals
 * (spec/NOTES.md "Trading": stocks, commodities, indices, forex), named as the venue names them
 * (`<asset>-PERP`, `k` prefix for 1,000-unit tokens such as kPEPE), plus spot pairs
 * (`<base>-USDC`) for the most traded crypto assets.
 *
 * Each market carries the parameters of its seeded price path (price-path.ts): a reference price,
 * a daily volatility, a quoted spread and a reference 24-hour volume. Majors have hand-set
 * reference prices; the long tail gets a deterministic price from its name (a pure function, so
 * the catalogue is the same in every run). Invariants: symbols are unique; every spot base also
 * has a perpetual; the catalogue is immutable. Non-goals: listing or delisting at run time.
 */
import { assert } from '../../core/assert.ts';
import { PRICE_ONE } from './price-scale.ts';

export type MarketKind = 'perp' | 'spot';
export type MarketCategory = 'crypto' | 'stock' | 'commodity' | 'index' | 'forex';

export interface Market {
  /** `BTC-PERP` or `BTC-USDC`. */
  readonly symbol: string;
  readonly base: string;
  readonly kind: MarketKind;
  readonly category: MarketCategory;
  /** Reference price in price units (PRICE_ONE = 1 USDC per unit of base). */
  readonly referencePrice: bigint;
  /** Standard deviation of one day's log return, in basis points. */
  readonly dailyVolBps: number;
  /** Full bid-ask spread around the mid, in basis points. */
  readonly spreadBps: number;
  /** Reference 24-hour volume in micro-USDC. */
  readonly referenceVolumeMicro: bigint;
  /** Highest leverage accepted (perpetuals; 1 for spot). */
  readonly maxLeverage: number;
}

const CRYPTO_PERPS: readonly string[] = [
  'BTC',
  'ETH',
  'SOL',
  'XRP',
  'DOGE',
  'ADA',
  'AVAX',
  'LINK',
  'DOT',
  'POL',
  'TRX',
  'TON',
  'LTC',
  'BCH',
  'UNI',
  'NEAR',
  'APT',
  'ARB',
  'OP',
  'SUI',
  'SEI',
  'TIA',
  'INJ',
  'ATOM',
  'FIL',
  'ICP',
  'ETC',
  'XLM',
  'HBAR',
  'VET',
  'ALGO',
  'AAVE',
  'MKR',
  'SNX',
  'CRV',
  'LDO',
  'RUNE',
  'S',
  'GRT',
  'SAND',
  'MANA',
  'AXS',
  'APE',
  'GMX',
  'DYDX',
  'BLUR',
  'kPEPE',
  'WIF',
  'kBONK',
  'kFLOKI',
  'kSHIB',
  'JUP',
  'PYTH',
  'JTO',
  'ORDI',
  'STX',
  'IMX',
  'RENDER',
  'FET',
  'WLD',
  'ENA',
  'ETHFI',
  'PENDLE',
  'ONDO',
  'TAO',
  'AR',
  'KAS',
  'BNB',
  'HYPE',
  'TRUMP',
  'FARTCOIN',
  'POPCAT',
  'MEW',
  'BRETT',
  'kNEIRO',
  'GOAT',
  'MOODENG',
  'PNUT',
  'ACT',
  'VIRTUAL',
  'AI16Z',
  'AIXBT',
  'ZEREBRO',
  'GRIFFAIN',
  'SPX6900',
  'MOVE',
  'ME',
  'USUAL',
  'PENGU',
  'BERA',
  'IP',
  'KAITO',
  'LAYER',
  'TST',
  'NIL',
  'PAXG',
  'BIO',
  'ANIME',
  'VINE',
  'BABY',
  'INIT',
  'WCT',
  'PROMPT',
  'NXPC',
  'SOPH',
  'RESOLV',
  'SYRUP',
  'PUMP',
  'XPL',
  'WLFI',
  'LINEA',
  'ASTER',
  'AVNT',
  'STBL',
  'MON',
  'ZORA',
  'HEMI',
  'MNT',
  'ENS',
  'LPT',
  'COMP',
  'YFI',
  'SUSHI',
  'BAL',
  'ZRX',
  '1INCH',
  'CAKE',
  'KAVA',
  'CFX',
  'MINA',
  'ZEC',
  'XMR',
  'DASH',
  'ZEN',
  'ZETA',
  'ZK',
  'STRK',
  'MANTA',
  'ALT',
  'DYM',
  'PIXEL',
  'PORTAL',
  'AEVO',
  'W',
  'TNSR',
  'SAGA',
  'REZ',
  'NOT',
  'IO',
  'ZRO',
  'BLAST',
  'LISTA',
  'MAVIA',
  'POLYX',
  'GAS',
  'NEO',
  'IOTA',
  'XTZ',
  'EOS',
  'CHZ',
  'ENJ',
  'GALA',
  'FLOW',
  'EGLD',
  'THETA',
  'ROSE',
  'ILV',
  'BADGER',
  'RSR',
  'BAND',
  'OGN',
  'UMA',
  'BNT',
  'STG',
  'RDNT',
  'FXS',
  'CVX',
  'LQTY',
  'MAV',
  'ARK',
  'BIGTIME',
  'SUPER',
  'NTRN',
  'MEME',
  'TRB',
  'ORBS',
  'BOME',
  'kLUNC',
  'LUNA',
  'USTC',
  'OM',
  'TURBO',
  'MERL',
  'SCR',
  'HMSTR',
  'CATI',
  'NEIROETH',
  'EIGEN',
  'CHILLGUY',
  'HYPER',
  'PURR',
  'JELLY',
  'OMNI',
  'SAFE',
  'CELO',
  'KSM',
  'ACE',
  'XAI',
  'WOO',
  'UXLINK',
  'FTT',
  'CYBER',
  'ARKM',
  'FRIEND',
  'SHIA',
  'SOLV',
  'VVV',
  'PROVE',
  'YGG',
  'JASMY',
  'ACH',
  'HOOK',
  'LOOM',
  'HIGH',
  'MAGIC',
  'MOCA',
  'SHELL',
  'ORCA',
  'GRASS',
];

const STOCKS: readonly string[] = [
  'TSLA',
  'NVDA',
  'AAPL',
  'MSFT',
  'AMZN',
  'GOOGL',
  'META',
  'NFLX',
  'AMD',
  'INTC',
  'COIN',
  'MSTR',
  'HOOD',
  'PLTR',
  'ORCL',
  'CRM',
  'UBER',
  'BABA',
  'TSM',
  'AVGO',
  'JPM',
  'V',
  'MA',
  'DIS',
  'NKE',
];
const COMMODITIES: readonly string[] = ['GOLD', 'SILVER', 'CL', 'NATGAS', 'COPPER', 'PLATINUM', 'BRENTOIL'];
const INDICES: readonly string[] = ['SPX', 'NDX', 'DJI', 'JP225', 'DAX', 'FTSE', 'HSI'];
const FOREX: readonly string[] = ['EUR', 'JPY', 'GBP', 'AUD', 'CAD', 'CHF', 'CNH'];

/**
 * Crypto assets that also trade spot against USDC: the perpetuals from BTC to ATOM but POL, then
 * seven more, in this order (the catalogue's spot order).
 */
const SPOT_BASES: readonly string[] = [
  ...CRYPTO_PERPS.slice(0, CRYPTO_PERPS.indexOf('ATOM') + 1).filter((base) => base !== 'POL'),
  'AAVE',
  'HYPE',
  'PURR',
  'JUP',
  'PYTH',
  'ONDO',
  'ENA',
];

/** Hand-set reference prices in USDC (text, read exactly); the rest come from `derivedPrice`. */
const REFERENCE_PRICES: Readonly<Record<string, string>> = {
  BTC: '95000',
  ETH: '3400',
  SOL: '180',
  XRP: '2.2',
  DOGE: '0.32',
  ADA: '0.9',
  AVAX: '35',
  LINK: '20',
  DOT: '6.5',
  POL: '0.45',
  TRX: '0.25',
  TON: '5.2',
  LTC: '100',
  BCH: '450',
  UNI: '12',
  NEAR: '5',
  APT: '9',
  ARB: '0.75',
  OP: '1.8',
  SUI: '4.1',
  BNB: '650',
  HYPE: '25',
  AAVE: '320',
  MKR: '1600',
  kPEPE: '0.018',
  kSHIB: '0.022',
  kBONK: '0.03',
  kFLOKI: '0.15',
  TSLA: '350',
  NVDA: '140',
  AAPL: '230',
  MSFT: '420',
  AMZN: '210',
  GOOGL: '180',
  META: '600',
  NFLX: '900',
  AMD: '130',
  INTC: '22',
  COIN: '280',
  MSTR: '380',
  HOOD: '45',
  PLTR: '75',
  ORCL: '170',
  CRM: '330',
  UBER: '70',
  BABA: '90',
  TSM: '200',
  AVGO: '230',
  JPM: '245',
  V: '315',
  MA: '525',
  DIS: '110',
  NKE: '75',
  GOLD: '2650',
  SILVER: '30.5',
  CL: '70',
  NATGAS: '3.4',
  COPPER: '4.2',
  PLATINUM: '950',
  BRENTOIL: '74',
  SPX: '5950',
  NDX: '21200',
  DJI: '43000',
  JP225: '39000',
  DAX: '20000',
  FTSE: '8300',
  HSI: '19800',
  EUR: '1.05',
  JPY: '0.0065',
  GBP: '1.26',
  AUD: '0.64',
  CAD: '0.71',
  CHF: '1.12',
  CNH: '0.137',
};

const DAILY_VOL_BPS: Readonly<Record<MarketCategory, number>> = {
  crypto: 450,
  stock: 220,
  commodity: 150,
  index: 110,
  forex: 50,
};
const SPREAD_BPS: Readonly<Record<MarketCategory, number>> = { crypto: 4, stock: 6, commodity: 5, index: 3, forex: 2 };

/** FNV-1a over the name's UTF-16 units: a stable 32-bit number per asset name. */
export function nameHash(name: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < name.length; index++) hash = Math.imul(hash ^ name.charCodeAt(index), 0x01000193) >>> 0;
  return hash >>> 0;
}

/** A long-tail token's reference price: 0.05 to 50 USDC, log-spaced by the name's hash. */
function derivedPrice(name: string): bigint {
  const decade = BigInt(nameHash(name) % 3); // 0.05-0.5, 0.5-5, 5-50
  const mantissa = 5n + BigInt(nameHash(`${name}/m`) % 45); // 5..49 tenths of the decade's floor
  return (mantissa * PRICE_ONE * 10n ** decade) / 100n;
}

function parsePrice(text: string): bigint {
  const [whole = '0', fraction = ''] = text.split('.');
  assert(fraction.length <= 8, 'reference prices have at most 8 decimals');
  return BigInt(whole) * PRICE_ONE + BigInt(fraction.padEnd(8, '0'));
}

function makeMarket(base: string, kind: MarketKind, category: MarketCategory): Market {
  const priceText = REFERENCE_PRICES[base];
  const hash = nameHash(base);
  // Majors move less than the long tail: hand-priced crypto at the category's volatility,
  // the rest 1x to 2.5x of it (by name hash).
  const volBase = DAILY_VOL_BPS[category];
  const dailyVolBps =
    category !== 'crypto' || priceText !== undefined ? volBase : volBase + ((hash >>> 8) % 16) * (volBase / 10);
  const spreadBps = SPREAD_BPS[category] * (priceText === undefined ? 3 : 1);
  const volumeUsdc =
    priceText === undefined ? 2_000_000 + (hash % 40) * 500_000 : 50_000_000 + (hash % 20) * 25_000_000;
  return {
    symbol: `${base}-${kind === 'perp' ? 'PERP' : 'USDC'}`,
    base,
    kind,
    category,
    referencePrice: priceText === undefined ? derivedPrice(base) : parsePrice(priceText),
    dailyVolBps,
    spreadBps,
    referenceVolumeMicro: BigInt(volumeUsdc) * 1_000_000n * (kind === 'spot' ? 1n : 3n),
    maxLeverage: kind === 'perp' ? 10 : 1,
  };
}

function buildCatalogue(): readonly Market[] {
  const markets: Market[] = [];
  for (const base of CRYPTO_PERPS) markets.push(makeMarket(base, 'perp', 'crypto'));
  for (const base of STOCKS) markets.push(makeMarket(base, 'perp', 'stock'));
  for (const base of COMMODITIES) markets.push(makeMarket(base, 'perp', 'commodity'));
  for (const base of INDICES) markets.push(makeMarket(base, 'perp', 'index'));
  for (const base of FOREX) markets.push(makeMarket(base, 'perp', 'forex'));
  for (const base of SPOT_BASES) markets.push(makeMarket(base, 'spot', 'crypto'));
  const symbols = new Set(markets.map((market) => market.symbol));
  assert(symbols.size === markets.length, 'market symbols are unique');
  assert(
    SPOT_BASES.every((base) => symbols.has(`${base}-PERP`)),
    'every spot base also has a perpetual',
  );
  return Object.freeze(markets.map((market) => Object.freeze(market)));
}

/** Every market, perpetuals first (catalogue order), then spot pairs. */
export const MARKETS: readonly Market[] = buildCatalogue();

const BY_SYMBOL: ReadonlyMap<string, Market> = new Map(MARKETS.map((market) => [market.symbol, market]));

export const PERP_COUNT = MARKETS.filter((market) => market.kind === 'perp').length;

/** A market by its exact symbol (`BTC-PERP`, `ETH-USDC`). */
export function marketBySymbol(symbol: string): Market | undefined {
  return BY_SYMBOL.get(symbol);
}

/**
 * Style B's pair (`<base>-USDC`) with its market type: spot (default) or perp (`<base>-PERP`).
 * `marketType` null: the spot market when one exists, else the perpetual (price lookups).
 */
export function marketByPair(pair: string, marketType: MarketKind | null): Market | undefined {
  if (!pair.endsWith('-USDC')) return undefined;
  const base = pair.slice(0, -5);
  if (marketType === 'spot') return BY_SYMBOL.get(`${base}-USDC`);
  if (marketType === 'perp') return BY_SYMBOL.get(`${base}-PERP`);
  return BY_SYMBOL.get(`${base}-USDC`) ?? BY_SYMBOL.get(`${base}-PERP`);
}

/** Style B's name of a market: `<base>-USDC` for both kinds. */
export function pairOf(market: Market): string {
  return `${market.base}-USDC`;
}
