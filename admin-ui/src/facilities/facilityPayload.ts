import { toStoredPhone } from '@crisis/forms/core';
import { contactsPayload } from '../common/ContactsFields';
import { schemaValidator } from '../common/schemaValidation';
import type { FacilityRecord } from './facilityTypes';

const toNumber = (v: unknown): unknown => {
  if (v === '' || v === undefined || v === null) return null;
  if (typeof v === 'number') return v;
  const n = Number(v);
  return Number.isFinite(n) ? n : v;
};

/** The facility schema's properties only (the list flags and the id are not part of the payload). */
export function toFacilityPayload(values: Partial<FacilityRecord>) {
  const a = values.address ?? ({} as Partial<FacilityRecord['address']>);
  return {
    name: values.name ?? null,
    description: values.description ?? null,
    allowReferringDivisionsAccess: !!values.allowReferringDivisionsAccess,
    allowPlacementOnlyCases: !!values.allowPlacementOnlyCases,
    isActive: values.isActive ?? true,
    isMfaEnabled: !!values.isMfaEnabled,
    isGeoPositionManually: !!values.isGeoPositionManually,
    ehrDepartmentId: values.ehrDepartmentId ?? null,
    address: {
      streetLine: a.streetLine ?? null,
      apartmentNumber: a.apartmentNumber ?? null,
      city: a.city ?? null,
      state: a.state ?? null,
      zipCode: a.zipCode ?? null,
      county: a.county ?? null,
    },
    geoPosition: {
      latitude: toNumber(values.geoPosition?.latitude),
      longitude: toNumber(values.geoPosition?.longitude),
    },
    contacts: contactsPayload(values.contacts, toStoredPhone),
  };
}

export const validateFacility = schemaValidator('facility', toFacilityPayload);

/** Defaults of a new facility (coordinates come from the zip / street look-ups unless set manually). */
export const NEW_FACILITY_DEFAULTS: Partial<FacilityRecord> = {
  isActive: true,
  isMfaEnabled: false,
  allowReferringDivisionsAccess: false,
  allowPlacementOnlyCases: false,
  isGeoPositionManually: false,
};
