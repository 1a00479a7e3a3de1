import type { ComponentType } from 'react';
import { navigationAllows } from '../auth/routeGates';
import { Gate } from './Gate';

/**
 * A resource page wrapped in its navigation gate: a user without the entry sees the access-denied
 * page at once, before react-admin mounts the page (and fetches anything for it).
 */
export function gated<P extends object>(Page: ComponentType<P>, base: string): ComponentType<P> {
  const Gated = (props: P) => (
    <Gate allow={(s) => navigationAllows(s, base)}>
      <Page {...props} />
    </Gate>
  );
  Gated.displayName = `Gated(${Page.displayName ?? Page.name})`;
  return Gated;
}
