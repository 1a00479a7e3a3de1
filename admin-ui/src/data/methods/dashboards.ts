import type { GroupPanel, ProviderPanel } from '@crisis/forms/core';
import { http } from './http';

/** The dashboard panels (spec 02 §2 /dashboard); the finalized and search lists go through getList. */
export const dashboardMethods = {
  groupPanel: () => http.get<GroupPanel>('/api/dashboard/group'),
  providerPanel: () => http.get<ProviderPanel>('/api/dashboard/provider'),
};
