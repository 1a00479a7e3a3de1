import simpleRestProvider from 'ra-data-simple-rest';
import type { DataProvider } from 'react-admin';
import { api, httpClient } from './httpClient';
import { adminMethods } from './methods/admin';
import { caseCreateMethods } from './methods/caseCreate';
import { caseMethods } from './methods/cases';
import { dashboardMethods } from './methods/dashboards';
import { evaluationMethods } from './methods/evaluations';
import { exportMethods } from './methods/exports';
import { facilityTabMethods } from './methods/facilityTabs';
import { patientMethods } from './methods/patients';
import { notificationMethods } from './methods/notifications';
import { placementMethods } from './methods/placement';
import { pastCaseMethods } from './methods/pastCases';
import { tz } from './methods/http';
import { recordMethods } from './methods/records';

export const API_URL = '/api';

type RestClient = Parameters<typeof simpleRestProvider>[1];
const client = httpClient as unknown as RestClient;
const root = simpleRestProvider(API_URL, client);

/** Divisions live under their facility: /api/facilities/{facilityId}/divisions. */
const NESTED_UNDER_FACILITY = new Set(['divisions']);

function facilityIdOf(params: any): number | string {
  const id = params?.meta?.facilityId ?? params?.data?.facilityId ?? params?.previousData?.facilityId;
  if (id === undefined || id === null) throw new Error('A division call needs meta.facilityId');
  return id;
}

/** Lists whose day filters are calendar days of the user: the API reads them in the `tz` sent. */
const ZONED = new Set(['cases/past']);
const zoned = simpleRestProvider(API_URL, ((url: string, options?: unknown) =>
  client!(`${url}${url.includes('?') ? '&' : '?'}tz=${encodeURIComponent(tz())}`, options as never)) as RestClient);

function providerFor(resource: string, params: unknown): DataProvider {
  if (ZONED.has(resource)) return zoned;
  if (NESTED_UNDER_FACILITY.has(resource))
    return simpleRestProvider(`${API_URL}/facilities/${encodeURIComponent(facilityIdOf(params))}`, client);
  return root;
}

export interface OutboxRow {
  id: number;
  channel: 'email' | 'sms' | 'call';
  recipient: string;
  subject: string | null;
  body: string;
  status: string;
  purpose: string | null;
  createdAt: string;
}

/**
 * The calls that are not CRUD, one group a domain (data/methods/*): same client, URLs, headers and
 * errors as the simple-rest ones. Components call them through useDataProvider() inside react-query
 * hooks (data/query.ts), never with fetch.
 */
const customMethods = {
  ...caseMethods,
  ...dashboardMethods,
  ...evaluationMethods,
  ...recordMethods,
  ...exportMethods,
  ...caseCreateMethods,
  ...placementMethods,
  ...facilityTabMethods,
  ...adminMethods,
  ...patientMethods,
  ...notificationMethods,
  ...pastCaseMethods,
  setFacilityMfa: (facilityId: number, isMfaEnabled: boolean) =>
    api.put(`${API_URL}/facilities/${facilityId}/settings/mfa`, { isMfaEnabled }).then((data) => ({ data })),
  getOutbox: (channel: OutboxRow['channel']) => api.get<OutboxRow[]>(`${API_URL}/demo-tools/outbox?channel=${channel}`),
  resetOwnMfa: (userId: number) => api.post<unknown>(`${API_URL}/user/reset-mfa`, [userId]),
};

/** ra-data-simple-rest on our authenticated client, plus the calls that are not CRUD. */
export type AppDataProvider = DataProvider & typeof customMethods;

const METHODS = ['getList', 'getOne', 'getMany', 'getManyReference', 'update', 'updateMany', 'create', 'delete', 'deleteMany'] as const;

export function createDataProvider(): AppDataProvider {
  const routed = Object.fromEntries(
    METHODS.map((m) => [m, (resource: string, params: any) => (providerFor(resource, params) as any)[m](resource, params)]),
  ) as unknown as DataProvider;
  return { ...routed, ...customMethods };
}
