import type { DivisionType } from '@crisis/forms';

export interface FacilityAddress {
  streetLine: string | null;
  apartmentNumber: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  county: string | null;
}

export interface FacilityRecord {
  id: number;
  name: string;
  description: string | null;
  allowReferringDivisionsAccess: boolean;
  allowPlacementOnlyCases: boolean;
  isActive: boolean;
  isMfaEnabled: boolean;
  isGeoPositionManually: boolean;
  ehrDepartmentId: string | null;
  address: FacilityAddress;
  geoPosition: { latitude: number | null; longitude: number | null };
  contacts: Record<string, string | null>;
  divisionTypes: DivisionType[];
  hasActiveSourceDivision: boolean;
  hasActiveReferringDivision: boolean;
}
