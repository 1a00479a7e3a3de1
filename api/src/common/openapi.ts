import { applyDecorators } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody } from '@nestjs/swagger';
import { SCHEMAS, type SchemaName } from '@crisis/forms';

/** Documents a request body with its JSON Schema from forms/ (the same one the pipe validates with). */
export const ApiSchemaBody = (name: SchemaName) =>
  applyDecorators(
    ApiBody({ schema: { $ref: `#/components/schemas/${name}` } }),
    ApiBadRequestResponse({ description: 'INV: the body does not satisfy the schema; `fields` names each problem' }),
  );

/** The forms/ schemas as OpenAPI components (the $id keyword is not part of OpenAPI). */
export function formSchemaComponents(): Record<string, object> {
  return Object.fromEntries(
    Object.entries(SCHEMAS).map(([name, { schema }]) => {
      const { $id, ...rest } = schema as { $id?: string };
      return [name, rest];
    }),
  );
}
