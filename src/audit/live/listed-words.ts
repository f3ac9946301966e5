/**
 * The target's game list as its own word (DEPLOYED.md §2.1: `GET /api/v1/games`, each game's
 * `house_edge` and `payout` in prose), read once before the audit bets and kept per game. Why: a
 * casino publishes an edge for every game in its list ("~4%" for slots, "Player 1.24% | Banker
 * 1.06% | Tie 14.4%" for baccarat, "1.96x" for coin flip), and an audit that held a measured edge
 * only against `house_edge_pct` in answers demoted real defects to info. The list is as much the
 * target's word as an answer, and a finding graded against it says where it was read.
 * Reading: published-prose.ts (anything it cannot read is kept as `unread`, quoted, never guessed).
 * A dialect whose list row reads no words (afp's documents dialect: the documents advertise there)
 * gives none. Limits: at most LISTED_GAMES_MAX games (the dialect row bounds the list too).
 */
import type { JsonObject } from '../../core/errors.ts';
import {
  readEdgeProse,
  readPayoutProse,
  statementFor,
  type EdgeStatement,
  type PayoutStatement,
  type ProseReading,
} from '../fairness/published-prose.ts';
import { type LiveSession, type SentRequest, type RequestEvidence, endpointOf } from '../../live.ts';
import type { AdvertisedEdge } from './edge-verdict.ts';

const LISTED_GAMES_MAX = 64;

export interface ListedGame {
  readonly edge: ProseReading<EdgeStatement>;
  readonly payout: ProseReading<PayoutStatement>;
}

export interface ListedWords {
  readonly games: ReadonlyMap<string, ListedGame>;
  /** The list's request: the evidence of every finding that rests on its words. */
  readonly evidence: RequestEvidence;
}

/** The list read through the dialect; null where it offers no list, no words, or did not answer. */
export async function readListedWords(
  session: LiveSession,
  curlOf?: (request: SentRequest) => string,
): Promise<ListedWords | null> {
  const outcome = await session.call('casino.games', {}, null);
  if (outcome.kind !== 'ok' || outcome.value.published === undefined) return null;
  const games = new Map<string, ListedGame>();
  for (const entry of outcome.value.published.slice(0, LISTED_GAMES_MAX))
    if (!games.has(entry.game))
      games.set(entry.game, { edge: readEdgeProse(entry.houseEdge), payout: readPayoutProse(entry.payout) });
  const curl = curlOf?.(outcome.request);
  return {
    games,
    evidence: {
      endpoint: endpointOf('casino.games', outcome.request),
      ...(curl === undefined ? {} : { reproduce: curl }),
    },
  };
}

/** Where a word was read, for a finding's text: `house_edge "~4%" in GET /api/v1/games`. */
export function listedSource(field: 'house_edge' | 'payout', text: string): string {
  return `${field} ${JSON.stringify(text)} in GET /api/v1/games`;
}

/** The whole prose of a reading (a statement's text is one part of it). */
function wholeText<S extends { readonly text: string }>(reading: ProseReading<S>): string {
  return reading.kind === 'read' ? reading.statements.map((statement) => statement.text).join(' | ') : '';
}

/** The list's edge for a variant (a keyed statement naming it, else the game's), as an advertised edge. */
export function listedEdge(
  words: ListedWords | null,
  game: string,
  params: JsonObject,
): { readonly advertised: AdvertisedEdge; readonly gameWide: boolean } | null {
  const reading = words?.games.get(game)?.edge;
  if (reading === undefined || reading.kind !== 'read') return null;
  const statement = statementFor(reading.statements, params);
  if (statement === null) return null;
  const figure = statement.key.length === 0 ? statement.text : statement.text.replace(/^.*?(?=[~≈\d-])/, '');
  return {
    advertised: {
      edge: statement.edge,
      text: `${figure} (${listedSource('house_edge', wholeText(reading))})`,
      tolerance: statement.tolerance,
    },
    gameWide: statement.key.length === 0,
  };
}

/** The list's payout for a variant: a single multiplier for the game, or an example naming the variant. */
export function listedPayout(words: ListedWords | null, game: string, params: JsonObject): PayoutStatement | null {
  const reading = words?.games.get(game)?.payout;
  if (reading === undefined || reading.kind !== 'read') return null;
  const keyed = reading.statements.find((statement) => statement.key.length > 0);
  const statement = statementFor(reading.statements, params);
  // Examples name their variants: an example for another variant says nothing of this one.
  if (statement === null || (keyed !== undefined && statement.key.length === 0)) return null;
  return statement;
}

/** The words the list gave that afp could not read, as `game field: "text"` (quoted, never guessed). */
export function unreadWords(words: ListedWords | null, games: ReadonlySet<string>): string[] {
  const unread: string[] = [];
  for (const [game, listed] of words?.games ?? []) {
    if (!games.has(game)) continue;
    if (listed.edge.kind === 'unread') unread.push(`${game} house_edge: ${JSON.stringify(listed.edge.text)}`);
    if (listed.payout.kind === 'unread') unread.push(`${game} payout: ${JSON.stringify(listed.payout.text)}`);
  }
  return unread;
}
