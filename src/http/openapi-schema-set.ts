/**
 * The zod schemas of one OpenAPI document, converted together to JSON Schema 2020-12 (the dialect
 * of OpenAPI 3.1) with `z.toJSONSchema`: an operation refers to its request or success schema by
 * `$ref`, shared shapes (`named` in openapi-fields.ts) become one `components.schemas` entry each,
 * and only the schemas the document reaches are listed, sorted by name (byte-stable).
 */
import * as z from 'zod';
import type { JsonObject } from '../core/errors.ts';
import { namedSchemas } from './openapi-fields.ts';

const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });

/**
 * The zod schemas one document uses, converted together so shared shapes become one
 * `components.schemas` entry each and are referred to by `$ref`.
 */
export class SchemaSet {
  readonly #registry = z.registry<{ id: string }>();
  readonly #used = new Map<z.ZodType, string>();

  /** A `$ref` to `schema`, listed under its shared name or `fallbackName`. */
  use(schema: z.ZodType, fallbackName: string): JsonObject {
    const name = this.#used.get(schema) ?? namedSchemas().get(schema) ?? fallbackName;
    this.#used.set(schema, name);
    return ref(name);
  }

  /** A small schema (a parameter's) written in place; shared shapes it uses still become refs. */
  inline(schema: z.ZodType): JsonObject {
    const converted = z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any' }) as JsonObject;
    delete converted['$schema'];
    return converted;
  }

  /** Every used schema and every shared shape they refer to, sorted by name, unreferenced ones left out. */
  components(): JsonObject {
    for (const [schema, name] of namedSchemas())
      if (!this.#registry.has(schema)) this.#registry.add(schema, { id: name });
    for (const [schema, name] of this.#used) {
      if (this.#registry.has(schema)) this.#registry.remove(schema);
      this.#registry.add(schema, { id: name });
    }
    const converted = z.toJSONSchema(this.#registry, {
      target: 'draft-2020-12',
      unrepresentable: 'any',
      uri: (id) => `#/components/schemas/${id}`,
    }).schemas;
    const all: Record<string, JsonObject> = {};
    for (const [name, schema] of Object.entries(converted)) {
      const { $schema: _schema, $id: _id, ...rest } = schema as JsonObject;
      all[name] = rest;
    }
    return reachable(all, [...this.#used.values()]);
  }
}

/** The schemas `roots` reach through `$ref`, sorted by name. */
function reachable(all: Readonly<Record<string, JsonObject>>, roots: readonly string[]): JsonObject {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const name = stack.pop() as string;
    if (seen.has(name) || all[name] === undefined) continue;
    seen.add(name);
    for (const match of JSON.stringify(all[name]).matchAll(/"#\/components\/schemas\/([^"]+)"/g))
      stack.push(match[1] as string);
  }
  const result: JsonObject = {};
  for (const name of [...seen].sort()) result[name] = all[name] as JsonObject;
  return result;
}
