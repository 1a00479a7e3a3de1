import type { ReactNode } from 'react';
import { useSession, type Session } from '../auth/session';
import { AccessDeniedPage } from '../pages/errors/AccessDeniedPage';

/** Renders its children when the role check passes, else the access-denied page (URL unchanged). */
export function Gate({ allow, children }: { allow: (s: Session) => boolean; children: ReactNode }) {
  const session = useSession();
  return allow(session) ? <>{children}</> : <AccessDeniedPage />;
}
