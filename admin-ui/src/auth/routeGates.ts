import type { Session } from './session';

/** Pages whose gate is a link of the navigation bar or an entry of the Admin dropdown. */
export function navigationAllows(session: Session, base: string): boolean {
  const { navigation } = session;
  return navigation.links.some((l) => l.to === base) || navigation.admin.some((e) => e.to === base);
}

/** The route of each react-admin resource that has pages; its gate is the navigation entry. */
export const RESOURCE_ROUTES: Record<string, string> = {
  facilities: '/facilities',
  users: '/users',
  'group-organizations': '/group-organizations',
  payers: '/payers',
  'billing-codes': '/billing-codes',
  'patient-tags': '/patient-tags',
  'evaluation-forms': '/evaluation-forms',
  // patients: not gated by the Admin entry, the page is also the ITP user's (spec 02 §6); the ability table decides.
  activity: '/activity',
};

export function demoToolsAllowed(session: Session): boolean {
  return session.settings.demoTools && session.ability.can('access', 'DemoTools');
}

export function changePasswordAllowed(session: Session): boolean {
  return session.navigation.profile.changePassword;
}
