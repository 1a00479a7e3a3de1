import { API_URL } from '../support/api';

export interface RouteInfo {
  method: string;
  /** OpenAPI path, e.g. /api/facilities/{id} */
  path: string;
  ability?: { action: string; subject: string };
  isPublic: boolean;
  bodySchema?: string;
  pathParams: string[];
}

/** Every route of the API, as the OpenAPI document generated from the controllers lists it. */
export async function listRoutes(): Promise<RouteInfo[]> {
  const doc = await (await fetch(`${API_URL}/api/openapi.json`)).json();
  const routes: RouteInfo[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths))
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const ref: string | undefined = op.requestBody?.content?.['application/json']?.schema?.$ref;
      routes.push({
        method: method.toUpperCase(),
        path,
        ability: op['x-ability'],
        isPublic: !!op['x-public'],
        bodySchema: ref?.split('/').pop(),
        pathParams: (op.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p.name),
      });
    }
  return routes;
}
