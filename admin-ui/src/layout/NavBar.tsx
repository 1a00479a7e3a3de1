import { AppBar, Box, Toolbar, Typography } from '@mui/material';
import { Link } from 'react-router-dom';
import { useSession } from '../auth/session';
import { NotificationBell } from '../notifications/NotificationBell';
import { NotificationFeedProvider } from '../notifications/NotificationFeed';
import { NotificationToasts } from '../notifications/NotificationToasts';
import { AdminMenu } from './AdminMenu';
import { FacilityLabel } from './FacilityLabel';
import { NavLinks } from './NavLinks';
import { ProfileMenu } from './ProfileMenu';
import { SmsStatusChip } from './SmsStatusChip';

/** The navigation bar of spec 03 §2, all of it derived from navigationFor(user, ability). */
export function NavBar() {
  const { settings } = useSession();
  return (
    <NotificationFeedProvider>
      <AppBar
        position="sticky"
        elevation={1}
        component="nav"
        aria-label="Main navigation"
        // On a narrow window (200 % zoom) the wrapped bar would cover a quarter of the page: it scrolls away.
        sx={{ position: { xs: 'static', md: 'sticky' } }}
      >
        <Toolbar sx={{ gap: 1, flexWrap: 'wrap' }}>
          <Typography
            variant="h6"
            component={Link}
            to="/dashboard"
            sx={{ color: 'inherit', textDecoration: 'none', mr: 2, whiteSpace: 'nowrap' }}
            data-testid="nav-brand"
          >
            {settings.productName}
          </Typography>
          <NavLinks />
          <AdminMenu />
          <Box sx={{ flex: 1 }} />
          <FacilityLabel />
          <SmsStatusChip />
          <NotificationBell />
          <ProfileMenu />
        </Toolbar>
      </AppBar>
      <NotificationToasts />
    </NotificationFeedProvider>
  );
}
