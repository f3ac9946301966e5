/**
 * Names the endpoint of a recorded request for the diff report: the id of the route row that
 * matches it (`escrow.B.release`), found through the same route table and router the server
 * uses (DESIGN: the replay matcher is generated from the route rows). A request no row matches
 * (a probe of an unknown path) is named `<mount> <METHOD> <path>` with identifier-like
 * segments replaced by `:id`, so one unknown endpoint is one line of the report, not one per id.
 * Names are remembered by mount, method and path (a load run names every request it sends, most
 * of them to a few paths): at most NAMES_CACHED_MAX, the oldest forgotten first (core/bounded-memo.ts).
 */
import { BoundedMemo } from '../core/bounded-memo.ts';
import { ALL_ROUTES } from '../http/routes/index.ts';
import type { Mount } from '../http/route.ts';
import { Router } from '../http/router.ts';
import { isIdentifierLike } from './identifier-rule.ts';
import type { RecordedRequest } from './record-format.ts';

export const NAMES_CACHED_MAX = 10_000;

let router: Router | null = null;
const cached = new BoundedMemo<string, string>(NAMES_CACHED_MAX);

/** What naming reads of a request: a recorded one and a transport request both have it. */
export type NamedRequest = Pick<RecordedRequest, 'mount' | 'method' | 'path'>;

export function endpointName(request: NamedRequest): string {
  // Mounts and methods hold no space (an HTTP method is a token): the key is unambiguous.
  const key = `${request.mount} ${request.method} ${request.path}`;
  return cached.get(key, () => nameOf(request));
}

function nameOf(request: NamedRequest): string {
  router ??= new Router(ALL_ROUTES);
  const match = router.match(request.mount as Mount, request.method, request.path);
  if (match.kind === 'found') return match.route.id;
  const template = request.path
    .split('/')
    .map((segment) => (isIdentifierLike(segment) ? ':id' : segment))
    .join('/');
  return `${request.mount} ${request.method} ${template}`;
}
