import { Injectable, PipeTransform } from '@nestjs/common';
import { normalizeInput, validate, type SchemaName } from '@crisis/forms';
import { invalid } from './coded-error';

/**
 * Validates a request body (or a decoded query object) against a named schema of forms/:
 * trims text and turns blanks into null first (spec 03 §5), then ajv, then the schema's rules.
 */
@Injectable()
export class SchemaPipe implements PipeTransform {
  constructor(private readonly schema: SchemaName) {}

  transform(value: unknown) {
    const data = normalizeInput(value ?? {});
    const errors = validate(this.schema, data);
    if (errors.length) throw invalid(errors);
    return data;
  }
}

/** `@Body(schema('facility'))` */
export const schema = (name: SchemaName) => new SchemaPipe(name);
