import type { Session } from '../auth/session';

export interface FacilityTab {
  key: string;
  /** Path segment after the facility's base path ('' for general). */
  path: string;
  label: string;
}

/** Facility detail tabs and who sees them (spec 03 §2 "Facility detail tabs"). */
export function facilityTabsFor(session: Session, isNew: boolean): FacilityTab[] {
  const itpAdmin = session.ability.can('manage', 'Facility');
  const facilityAdmin = session.ability.can('access', 'FacilitySettings');
  const tabs: Array<FacilityTab | false> = [
    { key: 'general', path: '', label: 'General' },
    !isNew && { key: 'divisions', path: 'divisions', label: 'Divisions' },
    itpAdmin && !isNew && { key: 'credentialed-providers', path: 'credentialed-providers', label: 'Credentialed providers' },
    itpAdmin && { key: 'preferences', path: 'preferences', label: 'Preferred facilities' },
    itpAdmin && { key: 'evaluation-forms', path: 'evaluation-forms', label: 'Evaluation forms' },
    itpAdmin && { key: 'restrictions', path: 'restrictions', label: 'Restrictions' },
    itpAdmin && { key: 'ipWhiteList', path: 'ip-white-list', label: 'IP allow-list' },
    facilityAdmin && !isNew && { key: 'external-login-provider-settings', path: 'external-login-provider-settings', label: 'SSO' },
  ];
  return tabs.filter((t): t is FacilityTab => !!t);
}
