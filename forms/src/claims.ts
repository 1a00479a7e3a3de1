import type { Action, AppAbility, Subject } from './abilities';

/**
 * The claim rules (spec 03 §7 Claims, 01 §4 "Claim (edit lock) on medical information", 02 §3
 * Claim): which objects may be claimed, and who may claim them or see who holds them. Written
 * once: the API refuses what a rule forbids, the UI does not offer it.
 *
 * A claim is an edit lock, so claiming needs the right to edit the object, and seeing the holder
 * (her name) the right to see it; both per role (the ability table) and per object (its scope:
 * the case the user may open, the division the placement tasks belong to).
 */
export const ClaimObjectType = {
  /** A case's medical information; the object id is the case id. */
  CaseMedicalInformation: 'CaseMedicalInformation',
  /** A referring division's placement tasks across cases (the call log); the object id is the division id. */
  PlacementTask: 'PlacementTask',
} as const;
export type ClaimObjectType = (typeof ClaimObjectType)[keyof typeof ClaimObjectType];

/** The claim object type under which medical information is edited (spec 01 §4). */
export const MEDICAL_INFORMATION_CLAIM_TYPE = ClaimObjectType.CaseMedicalInformation;

/** What an object id names: the API finds it and checks the user's scope on it. */
export type ClaimObjectKind = 'case' | 'referringDivision';

export interface ClaimRule {
  object: ClaimObjectKind;
  /** The ability that claiming needs (the edit the claim locks). */
  edit: readonly [Action, Subject];
  /** The ability that seeing the holder needs. */
  see: readonly [Action, Subject];
}

export const CLAIM_RULES: Readonly<Record<ClaimObjectType, ClaimRule>> = {
  // 01 §6 "Medical information card and edit: ITP roles" (admin, user, provider).
  CaseMedicalInformation: { object: 'case', edit: ['update', 'MedicalInformation'], see: ['read', 'MedicalInformation'] },
  // 02 §6 "claim tasks, call log": ITP user and admin.
  PlacementTask: { object: 'referringDivision', edit: ['manage', 'Placement'], see: ['manage', 'Placement'] },
};

export const CLAIM_OBJECT_TYPES = Object.keys(CLAIM_RULES) as ClaimObjectType[];

export const isClaimObjectType = (value: unknown): value is ClaimObjectType =>
  typeof value === 'string' && Object.prototype.hasOwnProperty.call(CLAIM_RULES, value);

/** Whether the role may claim objects of this type at all (the object's scope is checked by the API). */
export const canClaim = (ability: Pick<AppAbility, 'can'>, objectType: ClaimObjectType): boolean =>
  ability.can(...CLAIM_RULES[objectType].edit);

/** Whether the role may be told who holds a claim of this type. */
export const canSeeClaim = (ability: Pick<AppAbility, 'can'>, objectType: ClaimObjectType): boolean =>
  ability.can(...CLAIM_RULES[objectType].see);

/** Object types a role may claim; none means the claims API is not for her. */
export const claimableTypes = (ability: Pick<AppAbility, 'can'>): ClaimObjectType[] => CLAIM_OBJECT_TYPES.filter((t) => canClaim(ability, t));
