import type { FacilityRecord as ApiFacilityRecord } from '@crisis/forms/core';

export interface FacilityAddress {
  streetLine: string | null;
  apartmentNumber: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  county: string | null;
}

/** The facility as the form holds it: the API's record, with the address and position blank while new. */
export type FacilityRecord = Omit<ApiFacilityRecord, 'address' | 'geoPosition' | 'contacts'> & {
  address: FacilityAddress;
  geoPosition: { latitude: number | null; longitude: number | null };
  contacts: Record<string, string | null>;
};
