import { SCHEMAS, UserType } from '@crisis/forms';
import { api } from '../support/api';
import { dataFingerprint, db } from '../support/db';
import { signInAs } from '../support/oidc-client';
import { listRoutes, type RouteInfo } from '../support/openapi-routes';

/**
 * Bad input on every endpoint that takes a body: missing fields, wrong types, over-long text and
 * unknown ids are answered with a coded 4xx, never a 500, and change nothing in the data tables.
 * Bodies are derived from each route's JSON Schema in forms/, so new endpoints are covered too.
 */
describe('bad input is refused with a coded 4xx and changes nothing', () => {
  let token: string;
  let routes: RouteInfo[];

  beforeAll(async () => {
    token = (await signInAs(UserType.ItpAdmin)).accessToken;
    routes = (await listRoutes()).filter((r) => r.method !== 'GET' && r.ability);
  });
  afterAll(() => db.end());

  /** Variants of a body that each break one rule of the schema. */
  function badBodies(schemaName: string): Array<[string, unknown]> {
    const schema = (SCHEMAS as any)[schemaName]?.schema;
    const props: Record<string, any> = schema?.properties ?? {};
    const out: Array<[string, unknown]> = [
      ['no body fields', {}],
      ['an array instead of an object', []],
      ['malformed JSON', '{"name": '],
    ];
    for (const [key, p] of Object.entries(props)) {
      const types = ([] as string[]).concat(p.type ?? []);
      if (types.includes('string')) {
        out.push([`${key} too long`, { [key]: 'x'.repeat(6001) }]);
        out.push([`${key} a number`, { [key]: 12345 }]);
      } else if (types.includes('integer') || types.includes('number')) {
        out.push([`${key} a string`, { [key]: 'abc' }]);
      } else if (types.includes('boolean')) {
        out.push([`${key} a string`, { [key]: 'yes' }]);
      } else if (types.includes('object')) {
        out.push([`${key} a string`, { [key]: 'abc' }]);
      } else if (types.includes('array')) {
        out.push([`${key} an object`, { [key]: { a: 1 } }]);
      }
    }
    out.push(['an unknown field', { unknownField: 1 }]);
    return out;
  }

  it('covers the mutating routes', () => {
    expect(routes.filter((r) => r.bodySchema).length).toBeGreaterThan(3);
  });

  it('refuses every broken body of every route', async () => {
    const before = await dataFingerprint();
    const failures: string[] = [];
    for (const route of routes.filter((r) => r.bodySchema)) {
      const path = route.path.replace(/\{[^}]+\}/g, '1');
      for (const [what, body] of badBodies(route.bodySchema!)) {
        const res = await api(route.method, path, { token, body });
        const coded = what === 'malformed JSON'
          ? res.status === 400 && res.error?.code === 'INV' // the token is valid: only the JSON is wrong
          : res.status >= 400 && res.status < 500 && !!res.error?.code && !!res.headers.get('x-correlation-id');
        if (!coded) failures.push(`${route.method} ${route.path} with ${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await dataFingerprint()).toEqual(before);
  });

  it('answers unknown ids with 404 NTFND and ids that are not numbers with a coded 4xx', async () => {
    const failures: string[] = [];
    for (const route of (await listRoutes()).filter((r) => r.ability && r.pathParams.length && r.method === 'GET')) {
      for (const id of ['987654', 'abc', '99999999999999999999']) {
        const res = await api('GET', route.path.replace(/\{[^}]+\}/g, id), { token });
        const ok = res.status >= 400 && res.status < 500 && !!res.error?.code;
        if (!ok) failures.push(`GET ${route.path} with id ${id}: ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
