import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiQuery } from '@nestjs/swagger';
import type { Action, Subject } from '@crisis/forms';
import { isTimeZone } from '../case-exports/pdf-layout';
import { invalid } from './coded-error';
import { queryValue } from './list-query';
import { Route } from './route';

export const CSV_TYPE = 'text/csv; charset=utf-8';
export const PDF_TYPE = 'application/pdf';

/** The `tz` query parameter of an export: the IANA zone of its printed times, UTC by default. */
export function parseTimeZone(raw: unknown): string {
  const tz = String(queryValue(raw) ?? 'UTC') || 'UTC';
  if (!isTimeZone(tz)) throw invalid([{ field: 'tz', key: 'format', message: 'tz must be an IANA time zone' }]);
  return tz;
}

/**
 * A GET route that answers with a file (a PDF or CSV export): the ability it needs, its `tz`
 * parameter, the type it produces and what the attachment holds.
 */
export const ExportRoute = (path: string, action: Action, subject: Subject, type: typeof CSV_TYPE | typeof PDF_TYPE, description: string) =>
  applyDecorators(
    Route('GET', path, action, subject),
    ApiQuery({ name: 'tz', required: false, description: 'IANA time zone of the printed times (default UTC)' }),
    ApiProduces(type === CSV_TYPE ? 'text/csv' : PDF_TYPE),
    ApiOkResponse({ description }),
  );
