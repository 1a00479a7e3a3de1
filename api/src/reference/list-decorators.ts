import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** forms/ schemas use JSON Schema's type arrays (['string','null']), which OpenAPI 3.0's typing lacks. */
export const asOpenApi = (s: object) => s as unknown as SchemaObject;
export const JSON_TYPE = 'application/json; charset=utf-8';
