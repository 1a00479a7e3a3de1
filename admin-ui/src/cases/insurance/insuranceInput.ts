import type { InsuranceInput, InsuranceRecord } from '@crisis/forms/core';

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
