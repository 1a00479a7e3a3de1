import { Injectable, Param, type PipeTransform } from '@nestjs/common';
import { notFound } from './coded-error';

/** A route id: a positive 32-bit integer, else the record cannot exist (404 NTFND). */
export function parseId(raw: unknown): number {
  const s = String(raw ?? '');
  if (!/^\d{1,10}$/.test(s)) throw notFound();
  const n = Number(s);
  if (n < 1 || n > 2147483647) throw notFound();
  return n;
}

/** Pipe form of parseId. */
@Injectable()
export class ParseIdPipe implements PipeTransform<unknown, number> {
  transform(value: unknown): number {
    return parseId(value);
  }
}

/**
 * A route parameter that is a record id: `@IdParam('id') id: number` receives the positive
 * integer, or the request fails with NTFND through the error registry before the handler runs.
 */
export const IdParam = (name = 'id') => Param(name, ParseIdPipe);
