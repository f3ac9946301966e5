// Validates values against the schemas of a generated OpenAPI document with a real JSON Schema
// 2020-12 validator (ajv), the dialect OpenAPI 3.1 uses: the document itself is registered, so the
// schemas' `#/components/schemas/...` references resolve inside it as a client's would.
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { JsonObject } from '../../src/core/errors.ts';

export type SchemaCheck = (schemaName: string, value: unknown) => string[];

/** A checker over `document`'s components: the problems of a value, none when it fits. */
export function schemaChecker(document: JsonObject): SchemaCheck {
  // strict off: the document's other keys (openapi, paths...) are not schema keywords.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(document, 'document');
  return (schemaName, value) => {
    const validate = ajv.getSchema(`document#/components/schemas/${schemaName}`);
    if (validate === undefined) return [`no schema ${schemaName}`];
    if (validate(value) === true) return [];
    return (validate.errors ?? []).map(
      (error) =>
        `${schemaName}${error.instancePath} ${error.message ?? 'is invalid'}${error.params === undefined ? '' : ` ${JSON.stringify(error.params)}`}`,
    );
  };
}
