import { useState } from 'react';
import { Button, Divider, Menu, MenuItem } from '@mui/material';
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import { useLogout } from 'react-admin';
import { Link } from 'react-router-dom';
import { useSession } from '../auth/session';
import { ResetMfaDialog } from './ResetMfaDialog';

/** My profile; Change password (password set); Reset MFA (MFA on and password set); Logout. */
export function ProfileMenu() {
  const { context, navigation } = useSession();
  const logout = useLogout();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [resetMfa, setResetMfa] = useState(false);
  const close = () => setAnchor(null);
  return (
    <>
      <Button
        color="inherit"
        startIcon={<AccountCircleIcon />}
        onClick={(e) => setAnchor(e.currentTarget)}
        data-testid="nav-profile-menu"
        aria-haspopup="menu"
        sx={{ textTransform: 'none' }}
      >
        {context.firstName} {context.lastName}
      </Button>
      <Menu anchorEl={anchor} open={!!anchor} onClose={close} data-testid="profile-menu">
        <MenuItem component={Link} to="/me" onClick={close} data-testid="profile-entry-me">
          My profile
        </MenuItem>
        {navigation.profile.changePassword && (
          <MenuItem component={Link} to="/change-password" onClick={close} data-testid="profile-entry-change-password">
            Change password
          </MenuItem>
        )}
        {navigation.profile.resetMfa && (
          <MenuItem
            onClick={() => {
              close();
              setResetMfa(true);
            }}
            data-testid="profile-entry-reset-mfa"
          >
            Reset MFA
          </MenuItem>
        )}
        <Divider />
        <MenuItem
          onClick={() => {
            close();
            logout();
          }}
          data-testid="profile-entry-logout"
        >
          Logout
        </MenuItem>
      </Menu>
      <ResetMfaDialog open={resetMfa} onClose={() => setResetMfa(false)} />
    </>
  );
}
