/**
 * The demo world's organizations: the ITP, source and referring facilities in Florida and Georgia
 * with their divisions, and a county-level group organization. Facilities are keyed by name + zip,
 * divisions by facility + name, the group by name (what the seed upserts on).
 */
import type { AcceptedPatientsRecord, ContactsRecord, ReferringType, RequestType, SourceType } from '@crisis/forms';

export const ITP_ORGANIZATION = { name: 'Integrated Telehealth Partners', erLine: '+18005550100', mfaEnabled: false };

interface DivisionBase {
  name: string;
  npi?: string;
  isActive?: boolean;
  description?: string;
  contacts: ContactsRecord;
}
export interface SourceDivisionSeed extends DivisionBase {
  type: 'Source';
  sourceType: SourceType;
  requestTypes: RequestType[];
  documentInEHR: boolean;
  noPlacement: boolean;
  outcomeRequired: boolean;
  showBillingCode: boolean;
}
export interface ReferringDivisionSeed extends DivisionBase {
  type: 'Referring';
  referringType: ReferringType;
  criteria: string[] | null;
  acceptedPatients: AcceptedPatientsRecord;
  genders: Array<'Female' | 'Male'>;
  veteranOnly: boolean;
  extendMaximumCallbackTime: boolean;
  score: number;
}
export type DivisionSeed = SourceDivisionSeed | ReferringDivisionSeed;

export interface FacilitySeed {
  name: string;
  description?: string;
  allowReferringDivisionsAccess?: boolean;
  allowPlacementOnlyCases?: boolean;
  isActive?: boolean;
  isMfaEnabled?: boolean;
  ehrDepartmentId?: string;
  /** Connected to the local FHIR R4 server with this dialect (seed/src/index.ts seedEhrConnections). */
  ehrConnection?: 'epic' | 'athena';
  address: { streetLine: string; apartmentNumber?: string; city: string; state: 'FL' | 'GA'; zipCode: string; county: string };
  geoPosition: { latitude: number; longitude: number };
  contacts: ContactsRecord;
  divisions: DivisionSeed[];
}

const band = (from: number, to: number) => ({ isActive: true, from, to });
const off = { isActive: false, from: null, to: null };
const ALL_AGES: AcceptedPatientsRecord = { allAges: true, adolescent: off, adult: off, geriatric: off };
const ADULTS: AcceptedPatientsRecord = { allAges: false, adolescent: off, adult: band(18, 64), geriatric: band(55, 110) };
const ADULTS_ONLY: AcceptedPatientsRecord = { allAges: false, adolescent: off, adult: band(18, 64), geriatric: off };
const ADOLESCENTS: AcceptedPatientsRecord = { allAges: false, adolescent: band(12, 17), adult: off, geriatric: off };
const GERIATRIC: AcceptedPatientsRecord = { allAges: false, adolescent: off, adult: off, geriatric: band(55, 110) };

const ALL_REQUESTS: RequestType[] = ['PhoneConsultation', 'Assessment', 'Reassessment', 'FileReview', 'PlacementOnly', 'TelepsychUrgentCrisisEvaluation'];

const er = (phone: string, fax: string, extra: Partial<SourceDivisionSeed> = {}): SourceDivisionSeed => ({
  name: 'Emergency Department',
  type: 'Source',
  sourceType: 'ErCrisis',
  requestTypes: ALL_REQUESTS,
  documentInEHR: false,
  noPlacement: false,
  outcomeRequired: true,
  showBillingCode: true,
  contacts: { phone1: phone, fax1: fax },
  ...extra,
});

const referring = (
  name: string,
  referringType: ReferringType,
  phone: string,
  fax: string,
  extra: Partial<ReferringDivisionSeed> = {},
): ReferringDivisionSeed => ({
  name,
  type: 'Referring',
  referringType,
  criteria: null,
  acceptedPatients: ADULTS,
  genders: ['Female', 'Male'],
  veteranOnly: false,
  extendMaximumCallbackTime: false,
  score: 70,
  contacts: { phone1: phone, fax1: fax },
  ...extra,
});

/** Source facilities (emergency rooms and hospital floors that start cases). */
export const SOURCE_FACILITIES: FacilitySeed[] = [
  {
    name: 'Tampa Bay General Hospital',
    description: 'Level I trauma centre with a 24/7 emergency department and an inpatient psychiatric unit.',
    allowPlacementOnlyCases: true,
    ehrDepartmentId: '101',
    ehrConnection: 'epic',
    address: { streetLine: '4200 N Armenia Ave', city: 'Tampa', state: 'FL', zipCode: '33606', county: 'Hillsborough County' },
    geoPosition: { latitude: 27.9377, longitude: -82.4589 },
    contacts: { phone1: '+18135550100', fax1: '+18135550101' },
    divisions: [
      er('+18135550102', '+18135550103', { documentInEHR: true, noPlacement: false }),
      {
        name: 'Medical Floor 5 West', type: 'Source', sourceType: 'MedFloor', requestTypes: ['Assessment', 'Reassessment', 'PhoneConsultation'],
        documentInEHR: false, noPlacement: false, outcomeRequired: true, showBillingCode: false,
        contacts: { phone1: '+18135550104', phone1Ext: '5200', fax1: '+18135550105' },
      },
      {
        name: 'Behavioral Health Unit', type: 'Source', sourceType: 'PsychUnit', requestTypes: ['Assessment', 'TelepsychPsychiatryConsult', 'TelepsychiatryFollowUp'],
        documentInEHR: false, noPlacement: false, outcomeRequired: false, showBillingCode: false,
        contacts: { phone1: '+18135550106', fax1: '+18135550107' },
      },
    ],
  },
  {
    name: 'Orlando Lakeside Medical Center',
    description: 'Community hospital; emergency department and an adult inpatient psychiatry floor.',
    allowReferringDivisionsAccess: true,
    address: { streetLine: '1650 Kuhl Ave', city: 'Orlando', state: 'FL', zipCode: '32806', county: 'Orange County' },
    geoPosition: { latitude: 28.5253, longitude: -81.3787 },
    contacts: { phone1: '+14075550100', fax1: '+14075550101' },
    divisions: [
      er('+14075550102', '+14075550103'),
      {
        name: 'Medical Floor 3 North', type: 'Source', sourceType: 'MedFloor', requestTypes: ['Assessment', 'FileReview'],
        documentInEHR: false, noPlacement: false, outcomeRequired: true, showBillingCode: false,
        contacts: { phone1: '+14075550104', fax1: '+14075550105' },
      },
      referring('Adult Inpatient Psychiatry', 'MentalHealthInpatient', '+14075550106', '+14075550107', { acceptedPatients: ADULTS, score: 80 }),
    ],
  },
  {
    name: 'Atlanta Peachtree Regional Hospital',
    description: 'Urban teaching hospital with a psychiatric emergency service.',
    address: { streetLine: '2151 Peachtree Rd NW', city: 'Atlanta', state: 'GA', zipCode: '30309', county: 'Fulton County' },
    geoPosition: { latitude: 33.8091, longitude: -84.3936 },
    contacts: { phone1: '+14045550100', fax1: '+14045550101' },
    divisions: [
      er('+14045550102', '+14045550103', { requestTypes: [...ALL_REQUESTS, 'ASAMAssessment'] }),
      {
        name: 'Psychiatric Emergency Unit', type: 'Source', sourceType: 'PsychUnit', requestTypes: ['Assessment', 'Reassessment'],
        documentInEHR: false, noPlacement: false, outcomeRequired: true, showBillingCode: true,
        contacts: { phone1: '+14045550104', fax1: '+14045550105' },
      },
      {
        name: 'Medical Floor 7 East', type: 'Source', sourceType: 'MedFloor', requestTypes: ['Assessment'], isActive: false,
        documentInEHR: false, noPlacement: false, outcomeRequired: true, showBillingCode: false,
        contacts: { phone1: '+14045550106', fax1: '+14045550107' },
      },
    ],
  },
  {
    // The MFA facility: its users sign in with a code sent by e-mail.
    name: 'Savannah Coastal Medical Center',
    description: 'Regional medical centre; requires a second sign-in factor for its staff.',
    isMfaEnabled: true,
    address: { streetLine: '4935 Waters Ave', city: 'Savannah', state: 'GA', zipCode: '31404', county: 'Chatham County' },
    geoPosition: { latitude: 32.0266, longitude: -81.0898 },
    contacts: { phone1: '+19125550100', fax1: '+19125550101' },
    divisions: [er('+19125550102', '+19125550103')],
  },
];

/** Referring facilities (where patients are placed): every referring type, ages and genders. */
export const REFERRING_FACILITIES: FacilitySeed[] = [
  {
    name: 'Sunrise Behavioral Health Hospital',
    address: { streetLine: '6521 Beach Blvd', city: 'Jacksonville', state: 'FL', zipCode: '32216', county: 'Duval County' },
    geoPosition: { latitude: 30.2869, longitude: -81.5866 },
    contacts: { phone1: '+19045550100', fax1: '+19045550101' },
    divisions: [
      referring('Adult Inpatient Unit', 'MentalHealthInpatient', '+19045550102', '+19045550103', { acceptedPatients: ADULTS, score: 85 }),
      referring('Senior Care Unit', 'MentalHealthInpatient', '+19045550104', '+19045550105', { acceptedPatients: GERIATRIC, score: 75 }),
    ],
  },
  {
    name: 'Gulf Coast Recovery Residence',
    address: { streetLine: '3150 Tamiami Trl N', city: 'Naples', state: 'FL', zipCode: '34103', county: 'Collier County' },
    geoPosition: { latitude: 26.1771, longitude: -81.7975 },
    contacts: { phone1: '+12395550100', fax1: '+12395550101' },
    divisions: [
      referring('Men\'s Residential Program', 'SubstanceAbuseResidential', '+12395550102', '+12395550103', { acceptedPatients: ADULTS_ONLY, genders: ['Male'] }),
      referring('Women\'s Residential Program', 'SubstanceAbuseResidential', '+12395550104', '+12395550105', { acceptedPatients: ADULTS_ONLY, genders: ['Female'] }),
    ],
  },
  {
    name: 'Clearwater Detox Center',
    address: { streetLine: '1250 S Fort Harrison Ave', city: 'Clearwater', state: 'FL', zipCode: '33756', county: 'Pinellas County' },
    geoPosition: { latitude: 27.9505, longitude: -82.8004 },
    contacts: { phone1: '+17275550100', fax1: '+17275550101' },
    divisions: [referring('Medical Detox Unit', 'DetoxUnit', '+17275550102', '+17275550103', { acceptedPatients: ADULTS, extendMaximumCallbackTime: true })],
  },
  {
    name: 'Gainesville Med-Psych Institute',
    address: { streetLine: '1515 SW Archer Rd', apartmentNumber: 'Bldg B', city: 'Gainesville', state: 'FL', zipCode: '32608', county: 'Alachua County' },
    geoPosition: { latitude: 29.6405, longitude: -82.3443 },
    contacts: { phone1: '+13525550100', fax1: '+13525550101' },
    divisions: [referring('Med-Psych Unit', 'MedPsychUnit', '+13525550102', '+13525550103', { acceptedPatients: ALL_AGES, score: 65 })],
  },
  {
    name: 'Tallahassee Adolescent Behavioral Center',
    address: { streetLine: '2634 Capital Cir NE', city: 'Tallahassee', state: 'FL', zipCode: '32308', county: 'Leon County' },
    geoPosition: { latitude: 30.4736, longitude: -84.2322 },
    contacts: { phone1: '+18505550100', fax1: '+18505550101' },
    divisions: [referring('Adolescent Inpatient Unit', 'MentalHealthInpatient', '+18505550102', '+18505550103', { acceptedPatients: ADOLESCENTS, score: 90 })],
  },
  {
    name: 'Macon Crisis Stabilization Center',
    address: { streetLine: '3575 Fulton Mill Rd', city: 'Macon', state: 'GA', zipCode: '31206', county: 'Bibb County' },
    geoPosition: { latitude: 32.7877, longitude: -83.6877 },
    contacts: { phone1: '+14785550100', fax1: '+14785550101' },
    divisions: [
      referring('Crisis Stabilization Unit', 'CrisisCenter', '+14785550102', '+14785550103', { acceptedPatients: ALL_AGES }),
      referring('Veterans Crisis Beds', 'CrisisCenter', '+14785550104', '+14785550105', { acceptedPatients: ADULTS, veteranOnly: true, score: 60 }),
    ],
  },
  {
    name: 'Decatur Community Counseling',
    address: { streetLine: '445 Winn Way', city: 'Decatur', state: 'GA', zipCode: '30030', county: 'DeKalb County' },
    geoPosition: { latitude: 33.7796, longitude: -84.2821 },
    contacts: { phone1: '+14045550108', fax1: '+14045550109' },
    divisions: [
      referring('Outpatient Clinic', 'Outpatient', '+14045550110', '+14045550111', {
        criteria: ['MentalHealthTherapy', 'MentalHealthPsychiatry'], acceptedPatients: ALL_AGES, score: 70,
      }),
    ],
  },
  {
    name: 'Augusta Recovery & Wellness',
    address: { streetLine: '3421 Wrightsboro Rd', city: 'Augusta', state: 'GA', zipCode: '30909', county: 'Richmond County' },
    geoPosition: { latitude: 33.4709, longitude: -82.0768 },
    contacts: { phone1: '+17065550100', fax1: '+17065550101' },
    divisions: [
      referring('Intensive Outpatient Program', 'IntensiveOutpatient', '+17065550102', '+17065550103', {
        criteria: ['MentalHealth', 'SubstanceAbuse'], acceptedPatients: ADULTS,
      }),
      referring('Substance Use Outpatient', 'Outpatient', '+17065550104', '+17065550105', {
        criteria: ['SubstanceAbuse'], acceptedPatients: { allAges: false, adolescent: band(14, 17), adult: band(18, 64), geriatric: off },
      }),
    ],
  },
  {
    name: 'Athens Partial Hospitalization Program',
    address: { streetLine: '1230 Prince Ave', city: 'Athens', state: 'GA', zipCode: '30606', county: 'Clarke County' },
    geoPosition: { latitude: 33.9656, longitude: -83.3951 },
    contacts: { phone1: '+17065550106', fax1: '+17065550107' },
    divisions: [referring('Adult Day Program', 'PartialHospitalization', '+17065550108', '+17065550109', { acceptedPatients: ADULTS_ONLY, genders: ['Female', 'Male'] })],
  },
  {
    // No divisions yet: the facility list shows its "no divisions" note.
    name: 'Brunswick Harbor Clinic',
    description: 'Newly contracted; divisions not set up yet.',
    address: { streetLine: '2415 Parkwood Dr', city: 'Brunswick', state: 'GA', zipCode: '31520', county: 'Glynn County' },
    geoPosition: { latitude: 31.1787, longitude: -81.4868 },
    contacts: { phone1: '+19125550104' },
    divisions: [],
  },
  {
    name: 'Ocala Behavioral Health (closed)',
    description: 'Closed in 2025; kept for past cases.',
    isActive: false,
    address: { streetLine: '1700 SW 7th Ave', city: 'Ocala', state: 'FL', zipCode: '34471', county: 'Marion County' },
    geoPosition: { latitude: 29.1695, longitude: -82.1421 },
    contacts: { phone1: '+13525550104', fax1: '+13525550105' },
    divisions: [referring('Adult Inpatient Unit', 'MentalHealthInpatient', '+13525550106', '+13525550107', { isActive: false })],
  },
];

export const FACILITIES: FacilitySeed[] = [...SOURCE_FACILITIES, ...REFERRING_FACILITIES];

/** County-level reviewers of North Florida (spec 03 §3 Group organization). */
export const GROUP_ORGANIZATIONS = [
  {
    name: 'North Florida Crisis Review Board',
    description: 'County reviewers of crisis placements in Duval, Alachua and Leon counties.',
    states: ['FL'],
    counties: ['Duval County', 'Alachua County', 'Leon County'],
    mfaEnabled: false,
    facilities: ['Sunrise Behavioral Health Hospital', 'Gainesville Med-Psych Institute', 'Tallahassee Adolescent Behavioral Center'],
    excludedFacilities: [] as string[],
    placementFacilities: ['Sunrise Behavioral Health Hospital', 'Tallahassee Adolescent Behavioral Center'],
  },
];
