import type { InsuranceInput } from '@crisis/forms';
import { getAccessToken } from '../../auth/userManager';
import { api, httpClient } from '../../data/httpClient';

export interface InsuranceRecord {
  id: number;
  payerId: number;
  payer: { id: number; name: string; isActive: boolean };
  insuranceId: string;
  groupId: string | null;
  relationToInsured: string | null;
  responsibleParty: {
    firstName?: string | null;
    lastName?: string | null;
    contactPhoneNumber?: string | null;
    dateOfBirth?: string | null;
    role?: string | null;
  } | null;
  frontImage: boolean;
  backImage: boolean;
  verified: boolean;
  status: 'Verified' | 'Unverified';
  patientPhone: string | null;
  createdAt: string;
  order: number;
  orderName: string;
}

export interface InsuranceList {
  caseId: number;
  uninsured: boolean;
  status: 'Uninsured' | 'NotProvided' | null;
  maxInsurances: number;
  insurances: InsuranceRecord[];
}

export interface PayerChoice {
  id: number;
  name: string;
  planName: string | null;
  isActive: boolean;
}

const base = (caseId: number) => `/api/cases/${caseId}/insurances`;

/** The insurance calls of spec 01 §7 (/api/cases/{id}/insurances…). */
export const insuranceApi = {
  list: (caseId: number) => api.get<InsuranceList>(base(caseId)),
  payers: (caseId: number) => api.get<PayerChoice[]>(`${base(caseId)}/payers`),
  add: (caseId: number, body: InsuranceInput) => api.post<InsuranceRecord>(base(caseId), body),
  update: (caseId: number, id: number, body: InsuranceInput) => api.put<InsuranceRecord>(`${base(caseId)}/${id}`, body),
  remove: (caseId: number, id: number) => httpClient(`${base(caseId)}/${id}`, { method: 'DELETE' }).then((r) => r.json as InsuranceList),
  toggleVerified: (caseId: number, id: number) => api.put<InsuranceRecord>(`${base(caseId)}/${id}/verify`, {}),
  setUninsured: (caseId: number, uninsured: boolean) => api.put<InsuranceList>(`${base(caseId)}/uninsured`, { uninsured }),
  reorder: (caseId: number, ids: number[]) => api.put<InsuranceList>(`${base(caseId)}/order`, { ids }),
  uploadImage: async (caseId: number, id: number, side: 'front' | 'back', file: File) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return (await httpClient(`${base(caseId)}/${id}/images/${side}`, { method: 'POST', body: form })).json as { side: string; stored: boolean };
  },
  /** The card image as an object URL (the call needs the bearer token, so no plain <img src>). */
  imageUrl: async (caseId: number, id: number, side: 'front' | 'back'): Promise<string | null> => {
    const token = await getAccessToken();
    const res = await fetch(`${base(caseId)}/${id}/images/${side}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    if (!res.ok) return null;
    return URL.createObjectURL(await res.blob());
  },
};

/** The form values of one insurance from a stored one (read-only fields dropped). */
export function insuranceToInput(r: InsuranceRecord): InsuranceInput {
  return {
    id: r.id,
    payerId: r.payerId,
    insuranceId: r.insuranceId,
    groupId: r.groupId,
    relationToInsured: (r.relationToInsured as InsuranceInput['relationToInsured']) ?? null,
    responsibleParty: (r.responsibleParty as InsuranceInput['responsibleParty']) ?? null,
    verified: r.verified,
    patientPhone: r.patientPhone,
  };
}
