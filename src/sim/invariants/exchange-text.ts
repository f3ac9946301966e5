/**
 * The JSON text of an exchange for a violation report: method, mount, path, query, body, status
 * and the answer, with the API key shortened (a report should not carry usable keys, even
 * simulated ones).
 */
import { jsonText } from '../json-text.ts';
import type { Exchange } from './checker.ts';

const KEY_SHOWN_LENGTH = 16;

export function exchangeText(exchange: Exchange): string {
  const { request, response } = exchange;
  const authorization = request.headers['authorization'];
  return jsonText({
    atMs: exchange.atMs,
    agentId: exchange.agentId,
    request: {
      mount: request.mount,
      method: request.method,
      path: request.path,
      query: request.query,
      ip: request.ip,
      authorization: authorization === undefined ? null : `${authorization.slice(0, KEY_SHOWN_LENGTH)}…`,
      body: request.bodyFailure === undefined ? (request.body ?? null) : `<unreadable: ${request.bodyFailure.message}>`,
    },
    response: { status: response.status, routeId: response.routeId, headers: response.headers, body: response.body },
  });
}
