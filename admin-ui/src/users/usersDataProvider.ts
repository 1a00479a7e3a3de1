import simpleRestProvider from 'ra-data-simple-rest';
import type { DataProvider } from 'react-admin';
import type { UserBulkAction } from '@crisis/forms/core';
import { api, httpClient } from '../data/httpClient';

type RestClient = Parameters<typeof simpleRestProvider>[1];
/** The users API is singular (/api/user, spec 03 §7); the react-admin resource is "users". */
const rest = simpleRestProvider('/api', httpClient as unknown as RestClient);

export interface BulkResult {
  applied: number;
  skipped: number;
  ids: number[];
}

/** Calls of the users screens that are not CRUD. */
export const usersApi = {
  bulk: (action: UserBulkAction, ids: number[]) =>
    action === 'unlock' ? api.put<BulkResult>('/api/user/unlock', ids) : api.post<BulkResult>(`/api/user/${action}`, ids),
  getProfile: (id: number) => api.get<Record<string, any>>(`/api/user/profile/${id}`),
  updateProfile: (id: number, data: unknown) => api.put<Record<string, any>>(`/api/user/profile/${id}`, data),
  changePassword: (data: unknown) => api.put<void>('/api/user/password', data),
};

/** Wraps the app's data provider: resource "users" goes to /api/user, and create is the invitation. */
export function withUsers<T extends DataProvider>(base: T): T {
  const isUsers = (resource: string) => resource === 'users';
  return new Proxy(base, {
    get(target, prop: string, receiver) {
      const original = Reflect.get(target, prop, receiver);
      if (typeof original !== 'function') return original;
      // Custom methods take other arguments (and more than two): only a "users" call is rerouted.
      return (...args: any[]) => {
        const [resource, params] = args;
        if (!isUsers(resource)) return original.apply(target, args);
        if (prop === 'create') return api.post<{ id: number }>('/api/user/invite', params.data).then((data) => ({ data }));
        const method = (rest as any)[prop];
        return method ? method.call(rest, 'user', params) : original.call(target, resource, params);
      };
    },
  });
}
