import { API_URL } from './api';

export interface QueryParamInfo {
  name: string;
  required: boolean;
  /** What the controller documents (list routes: the sortable fields and the filter keys). */
  description?: string;
  schema?: any;
}

export interface RouteInfo {
  method: string;
  /** OpenAPI path, e.g. /api/facilities/{id} */
  path: string;
  ability?: { action: string; subject: string };
  isPublic: boolean;
  /** The JSON body's schema name in components.schemas (a form of forms/). */
  bodySchema?: string;
  /** The body's content types (application/json, multipart/form-data), none for a bodyless call. */
  bodyTypes: string[];
  pathParams: string[];
  queryParams: QueryParamInfo[];
}

/** The OpenAPI document the API serves (GET /api/openapi.json). */
export async function openApiDocument(): Promise<any> {
  return (await fetch(`${API_URL}/api/openapi.json`)).json();
}

/** Every route of the API, as the OpenAPI document generated from the controllers lists it. */
export async function listRoutes(doc?: any): Promise<RouteInfo[]> {
  doc ??= await openApiDocument();
  const routes: RouteInfo[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths))
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const ref: string | undefined = op.requestBody?.content?.['application/json']?.schema?.$ref;
      const params: any[] = op.parameters ?? [];
      routes.push({
        method: method.toUpperCase(),
        path,
        ability: op['x-ability'],
        isPublic: !!op['x-public'],
        bodySchema: ref?.split('/').pop(),
        bodyTypes: Object.keys(op.requestBody?.content ?? {}),
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, required: !!p.required, description: p.description, schema: p.schema })),
      });
    }
  return routes;
}

/** `METHOD /openapi/path`, the key the authorization table and the battery reports use. */
export const routeKey = (r: Pick<RouteInfo, 'method' | 'path'>) => `${r.method} ${r.path}`;
