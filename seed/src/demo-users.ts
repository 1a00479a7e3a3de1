import { OrganizationType, UserType, type MfaMethod } from '@crisis/forms';

/** Where a demo user belongs: the ITP, a facility (by name, with division names) or a group (by name). */
export type DemoAffiliation =
  | { organizationType: typeof OrganizationType.ITP }
  | { organizationType: typeof OrganizationType.Facility; facility: string; divisions?: string[] }
  | { organizationType: typeof OrganizationType.Group; group: string };

export interface DemoUser {
  role: UserType;
  email: string;
  password: string;
  name: string;
  note?: string;
  phone: string;
  jobTitle: string;
  affiliation: DemoAffiliation;
  providerInfo?: { providerType: 'MD' | 'ARNP'; npi: string; biography?: string | null };
  mfaMethod?: MfaMethod;
  sendUserUnlockRequeststoThisUser?: boolean;
}

/** Every demo user signs in with this password (8+ characters, lower, upper and a digit: spec 03 §5). */
export const DEMO_PASSWORD = 'Demo1234!';

/**
 * One user per role first (so `demoUsers.find((u) => u.role === role)` is the plain case), then a
 * facility user of a Referring division and a user of the MFA facility.
 */
export const demoUsers: DemoUser[] = [
  {
    role: UserType.ItpAdmin,
    email: 'admin@itp.example.org',
    password: DEMO_PASSWORD,
    name: 'Alice Morgan',
    phone: '+18135550101',
    jobTitle: 'ITP Administrator',
    affiliation: { organizationType: OrganizationType.ITP },
  },
  {
    role: UserType.ItpUser,
    email: 'coordinator@itp.example.org',
    password: DEMO_PASSWORD,
    name: 'Ben Carter',
    phone: '+18135550102',
    jobTitle: 'Crisis Coordinator',
    affiliation: { organizationType: OrganizationType.ITP },
    sendUserUnlockRequeststoThisUser: true,
  },
  {
    role: UserType.ItpProvider,
    email: 'provider@itp.example.org',
    password: DEMO_PASSWORD,
    name: 'Clara Nguyen',
    phone: '+18135550103',
    jobTitle: 'Psychiatrist',
    affiliation: { organizationType: OrganizationType.ITP },
    providerInfo: { providerType: 'MD', npi: '1457382910', biography: 'Board-certified psychiatrist, 12 years of emergency psychiatry.' },
  },
  {
    role: UserType.FacilityAdmin,
    email: 'admin@tampageneral.example.org',
    password: DEMO_PASSWORD,
    name: 'David Brooks',
    phone: '+18135550104',
    jobTitle: 'Nurse Manager',
    affiliation: { organizationType: OrganizationType.Facility, facility: 'Tampa Bay General Hospital' },
  },
  {
    role: UserType.FacilityUser,
    email: 'er@tampageneral.example.org',
    password: DEMO_PASSWORD,
    name: 'Emma Lopez',
    phone: '+18135550105',
    jobTitle: 'ER Charge Nurse',
    affiliation: { organizationType: OrganizationType.Facility, facility: 'Tampa Bay General Hospital', divisions: ['Emergency Department'] },
    note: 'Source division (ErCrisis)',
  },
  {
    role: UserType.GroupUser,
    email: 'reviewer@nfcrb.example.org',
    password: DEMO_PASSWORD,
    name: 'Frank Miller',
    phone: '+19045550106',
    jobTitle: 'County Reviewer',
    affiliation: { organizationType: OrganizationType.Group, group: 'North Florida Crisis Review Board' },
  },
  {
    role: UserType.FacilityUser,
    email: 'intake@sunrisebehavioral.example.org',
    password: DEMO_PASSWORD,
    name: 'Grace Kim',
    phone: '+19045550107',
    jobTitle: 'Intake Coordinator',
    affiliation: { organizationType: OrganizationType.Facility, facility: 'Sunrise Behavioral Health Hospital', divisions: ['Adult Inpatient Unit'] },
    note: 'Referring division (MentalHealthInpatient)',
  },
  {
    role: UserType.FacilityUser,
    email: 'er@savannahcoastal.example.org',
    password: DEMO_PASSWORD,
    name: 'Henry Walker',
    phone: '+19125550108',
    jobTitle: 'ER Physician Assistant',
    affiliation: { organizationType: OrganizationType.Facility, facility: 'Savannah Coastal Medical Center', divisions: ['Emergency Department'] },
    mfaMethod: 'Email',
    note: 'MFA by e-mail',
  },
];

/** Further users of the demo world (not needed to try a role): the MFA facility's own admin. */
export const otherUsers: DemoUser[] = [
  {
    role: UserType.FacilityAdmin,
    email: 'admin@savannahcoastal.example.org',
    password: DEMO_PASSWORD,
    name: 'Irene Scott',
    phone: '+19125550109',
    jobTitle: 'Director of Emergency Services',
    affiliation: { organizationType: OrganizationType.Facility, facility: 'Savannah Coastal Medical Center' },
    mfaMethod: 'Email',
    note: 'MFA by e-mail',
  },
];
