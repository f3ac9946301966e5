/**
 * The shared components of the OpenAPI documents (openapi.ts): the Success and error bodies (afp's,
 * the deployed dialect's and the 429's), the rate-limit headers and the bearer security scheme,
 * beside the schemas the mount's rows refer to (SchemaSet).
 */
import { ERROR_STATUS, type JsonObject } from '../core/errors.ts';
import { INFO_SCHEMA } from './openapi-fields.ts';
import type { SchemaSet } from './openapi-schema-set.ts';

const ref = (section: string, name: string): JsonObject => ({ $ref: `#/components/${section}/${name}` });

export function components(set: SchemaSet): JsonObject {
  set.use(INFO_SCHEMA, 'Info');
  return {
    schemas: {
      ...set.components(),
      Success: {
        type: 'object',
        description: "The row's success body (fields per endpoint: see the summary and the README), plus `_info`.",
        required: ['_info'],
        properties: { _info: ref('schemas', 'Info') },
      },
      ...errorSchemas(),
    },
    headers: headerComponents(),
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        description: 'Authorization: Bearer <api_key>, the key of the registration response.',
      },
    },
  };
}

/** The error bodies: afp's, the deployed dialect's and the 429's. */
function errorSchemas(): JsonObject {
  const string: JsonObject = { type: 'string' };
  const integer: JsonObject = { type: 'integer' };
  return {
    Error: {
      type: 'object',
      description:
        'Every error body. Some codes add fields (FAUCET_CLAIMED in style B: next_claim, retry_after_seconds).',
      required: ['error', 'code', '_info'],
      properties: {
        error: string,
        code: { type: 'string', enum: Object.keys(ERROR_STATUS) },
        _info: ref('schemas', 'Info'),
      },
    },
    DeployedError: {
      type: 'object',
      description:
        "Every error body of the deployed dialect (spec/DEPLOYED.md): a snake_case name and, except escrow's 401 (`{ error: unauthorized }` only), a message; some add fields (reset_at, retry_after, suggestion...).",
      required: ['error', '_info'],
      properties: { error: string, message: string, _info: ref('schemas', 'Info') },
    },
    RateLimitError: {
      type: 'object',
      description: 'The 429 body (platform.md "Errors"); the response also carries Retry-After.',
      required: [
        'error',
        'code',
        'message',
        'limit',
        'window',
        'retry_after_seconds',
        'reset_at',
        'tier',
        'upgrade_url',
        '_info',
      ],
      properties: {
        error: { type: 'string', const: 'rate_limit_exceeded' },
        code: { type: 'string', const: 'RATE_LIMIT' },
        message: string,
        limit: integer,
        window: { type: 'string', enum: ['1m', '1d'] },
        retry_after_seconds: { type: 'integer', minimum: 1 },
        reset_at: { type: 'string', format: 'date-time' },
        tier: { type: 'string', enum: ['free', 'pro', 'enterprise'] },
        upgrade_url: string,
        _info: ref('schemas', 'Info'),
      },
    },
  };
}

/** The rate-limit headers every answer carries, and the 429's Retry-After. */
function headerComponents(): JsonObject {
  const integer: JsonObject = { type: 'integer' };
  return {
    'X-RateLimit-Limit': {
      description: 'Limit of the binding bucket per window (2147483647 when nothing limits the request).',
      schema: integer,
    },
    'X-RateLimit-Remaining': {
      description: 'Whole requests left in the binding bucket.',
      schema: { type: 'integer', minimum: 0 },
    },
    'X-RateLimit-Reset': {
      description: 'Unix timestamp (seconds, UTC) when the binding bucket is full again.',
      schema: integer,
    },
    'Retry-After': {
      description: 'Seconds to wait before the next request can pass.',
      schema: { type: 'integer', minimum: 1 },
    },
  };
}
