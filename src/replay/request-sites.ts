/**
 * Request sites: the places of a request where a value produced by an earlier response can
 * reappear — every path segment (`path/<i>`, i counting the empty segment before the leading
 * slash, so `/escrow/<id>/release` has the id at `path/2`), every query value
 * (`query/<name>`), every string leaf of the JSON body (`body/<pointer>`) and the bearer key of
 * the authorization header (`headers/authorization`, prefix `Bearer `).
 *
 * Path segments are compared decoded and written back URL-encoded. Raw bodies (bad-input
 * requests) have no sites. Limits: at most `SITES_MAX` sites per request; the rest are counted.
 */
import type { JsonValue } from '../core/errors.ts';
import { escapeToken, forEachStringLeaf, unescapeToken, withValueAt } from './json-pointer.ts';
import type { RecordedRequest } from './record-format.ts';

export const SITES_MAX = 1_000;
const BEARER = 'Bearer ';

export interface RequestSite {
  readonly at: string;
  /** The site's value without its prefix. */
  readonly value: string;
  readonly prefix: string;
}

export interface SiteList {
  readonly sites: readonly RequestSite[];
  readonly dropped: number;
}

export function requestSites(request: RecordedRequest): SiteList {
  const sites: RequestSite[] = [];
  let dropped = 0;
  const add = (at: string, value: string, prefix = ''): void => {
    if (sites.length < SITES_MAX) sites.push({ at, value, prefix });
    else dropped++;
  };
  request.path.split('/').forEach((segment, index) => {
    if (segment !== '') add(`path/${index}`, decodeSegment(segment));
  });
  for (const [name, value] of Object.entries(request.query)) add(`query/${escapeToken(name)}`, value);
  if (request.body !== undefined) forEachStringLeaf(request.body, (pointer, leaf) => add(`body${pointer}`, leaf));
  const authorization = request.headers['authorization'];
  if (authorization?.startsWith(BEARER) === true)
    add('headers/authorization', authorization.slice(BEARER.length), BEARER);
  return { sites, dropped };
}

/** A copy of `request` with the site `at` set to `text` (prefix included); null when the site does not exist. */
export function withSiteValue(request: RecordedRequest, at: string, text: string): RecordedRequest | null {
  const slashAt = at.indexOf('/');
  const area = slashAt < 0 ? at : at.slice(0, slashAt);
  const rest = slashAt < 0 ? '' : at.slice(slashAt + 1);
  switch (area) {
    case 'path': {
      const segments = request.path.split('/');
      const index = Number(rest);
      if (!Number.isInteger(index) || index < 1 || index >= segments.length) return null;
      segments[index] = encodeURIComponent(text);
      return { ...request, path: segments.join('/') };
    }
    case 'query': {
      const name = unescapeToken(rest);
      if (!Object.hasOwn(request.query, name)) return null;
      return { ...request, query: { ...request.query, [name]: text } };
    }
    case 'body': {
      if (request.body === undefined) return null;
      const body = withValueAt(request.body, slashAt < 0 ? '' : `/${rest}`, text);
      return body === undefined ? null : { ...request, body: body as JsonValue };
    }
    case 'headers': {
      const name = unescapeToken(rest);
      if (!Object.hasOwn(request.headers, name)) return null;
      return { ...request, headers: { ...request.headers, [name]: text } };
    }
    default:
      return null;
  }
}

/** True when `at` follows the site grammar above (record validation). */
export function isSiteName(at: string): boolean {
  return /^(?:path\/[1-9]\d*|query\/.+|body(?:\/.*)?|headers\/[a-z0-9-]+)$/.test(at);
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
