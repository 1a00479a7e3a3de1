import { ErrorCode } from '@crisis/forms/core';
import { schemaValidator } from '../common/schemaValidation';

export interface PayerFormValues {
  id?: number;
  name?: string | null;
  code?: string | null;
  isActive?: boolean;
  planName?: string | null;
  planPackageId?: string | null;
  address?: { streetLine?: string | null; city?: string | null; state?: string | null; zipCode?: string | null; phone?: string | null } | null;
}

export const toPayerPayload = (v: PayerFormValues) => ({
  name: v.name ?? null,
  code: v.code ?? null,
  isActive: v.isActive ?? true,
  planName: v.planName ?? null,
  planPackageId: v.planPackageId ?? null,
  address: {
    streetLine: v.address?.streetLine ?? null,
    city: v.address?.city ?? null,
    state: v.address?.state ?? null,
    zipCode: v.address?.zipCode ?? null,
    phone: v.address?.phone ?? null,
  },
});

export const validatePayer = schemaValidator('payer', toPayerPayload);

export const NEW_PAYER: PayerFormValues = { name: '', code: '', isActive: true, planName: '', planPackageId: '', address: {} };

/** The codes that ask for confirmation and are then resubmitted with forceUpdate (spec 03 §8). */
export const PAYER_IN_USE_CODES: string[] = [
  ErrorCode.DeactivateAndEditPayerUsedInPatients,
  ErrorCode.EditPayerUsedInPatients,
  ErrorCode.DeactivatePayerUsedInPatients,
];
