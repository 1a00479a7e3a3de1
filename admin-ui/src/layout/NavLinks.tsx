import { Button } from '@mui/material';
import { Link, useLocation } from 'react-router-dom';
import { useSession } from '../auth/session';

export const testIdForPath = (to: string) => `nav-${to.replace(/^\//, '').replace(/\//g, '-')}`;

/** Dashboard, Cases, Past cases, Unlock users — as navigationFor decides. */
export function NavLinks() {
  const { navigation } = useSession();
  const { pathname } = useLocation();
  return (
    <>
      {navigation.links.map((l) => {
        const active = pathname === l.to || pathname.startsWith(`${l.to}/`);
        return (
          <Button
            key={l.to}
            component={Link}
            to={l.to}
            color="inherit"
            data-testid={testIdForPath(l.to)}
            aria-current={active ? 'page' : undefined}
            sx={{ fontWeight: active ? 700 : 400, borderBottom: active ? '2px solid' : '2px solid transparent', borderRadius: 0 }}
          >
            {l.label}
          </Button>
        );
      })}
    </>
  );
}
