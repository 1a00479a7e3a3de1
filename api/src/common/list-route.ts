import { applyDecorators } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiQuery } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { Action, Subject } from '@crisis/forms';
import { contentRange } from './list-query';
import { Route } from './route';

/** Documents the ra-data-simple-rest list parameters. */
export const ApiListQuery = (sortable: readonly string[], filterKeys: string) =>
  applyDecorators(
    ApiQuery({ name: 'sort', required: false, description: `JSON ["field","ASC"|"DESC"]; field one of ${sortable.join(', ')}` }),
    ApiQuery({ name: 'range', required: false, description: 'JSON [first, last] row numbers, e.g. [0,24]' }),
    ApiQuery({ name: 'filter', required: false, description: `JSON object with ${filterKeys}` }),
    ApiBadRequestResponse({ description: 'INV: bad sort, range or filter; `fields` names each problem' }),
  );

/**
 * A ra-data-simple-rest list route in one line: GET on the controller's path, the ability it
 * needs, the sort/range/filter parameters and the page it returns (an array of `items`).
 */
export const ListRoute = (
  action: Action,
  subject: Subject,
  list: { sortable: readonly string[]; filter: string; description: string; items?: object; path?: string },
) =>
  applyDecorators(
    Route('GET', list.path ?? '', action, subject),
    ApiListQuery(list.sortable, list.filter),
    ApiOkResponse({ description: list.description, ...(list.items ? { schema: { type: 'array', items: list.items } } : {}) }),
  );

/** Sends one page: the rows, with the filtered total in Content-Range ("facilities 0-24/319"). */
export function sendPage<T>(reply: FastifyReply, resource: string, q: { offset: number }, page: { rows: T[]; total: number }): T[] {
  reply.header('Content-Range', contentRange(resource, q.offset, page.rows.length, page.total));
  return page.rows;
}
