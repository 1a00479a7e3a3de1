import { useEffect, useState } from 'react';
import { Box, Button, Divider, Menu, MenuItem } from '@mui/material';
import { useLogout } from 'react-admin';
import { Link } from 'react-router-dom';
import { AVATAR_SIZE } from '@crisis/forms/core';
import { useSession } from '../auth/session';
import { usersApi } from '../users/usersDataProvider';
import { UserAvatar } from '../users/UserAvatar';
import { onOwnAvatarChanged } from './avatarEvents';
import { ResetMfaDialog } from './ResetMfaDialog';

/**
 * The signed-in user's avatar (initials when none), read from her profile and replaced as soon
 * as she uploads another one on /me.
 */
function useOwnAvatar(userId: number): string | null {
  const [reference, setReference] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    usersApi.getProfile(userId).then(
      (p) => live && setReference((p.avatar as string | null | undefined) ?? null),
      () => undefined, // no avatar shown: the initials stand in
    );
    const stop = onOwnAvatarChanged((r) => live && setReference(r));
    return () => {
      live = false;
      stop();
    };
  }, [userId]);
  return reference;
}

/** My profile; Change password (password set); Reset MFA (MFA on and password set); Logout. */
export function ProfileMenu() {
  const { context, navigation } = useSession();
  const avatar = useOwnAvatar(context.id);
  const fullName = `${context.firstName ?? ''} ${context.lastName ?? ''}`.trim();
  const logout = useLogout();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [resetMfa, setResetMfa] = useState(false);
  const close = () => setAnchor(null);
  return (
    <>
      <Button
        color="inherit"

        onClick={(e) => setAnchor(e.currentTarget)}
        data-testid="nav-profile-menu"
        aria-label={fullName}
        aria-haspopup="menu"
        sx={{ textTransform: 'none', gap: 1 }}
      >
        {/* A child, not the startIcon: the icon slot would force the initials to 20 px. */}
        <UserAvatar reference={avatar} name={fullName} size={AVATAR_SIZE.sm} testId="nav-profile-avatar" />
        {/* Below 1200 px (1024 × 768 screens, tablets upright) the initials alone: the bar keeps one row. */}
        <Box component="span" sx={{ display: { xs: 'none', lg: 'inline' } }}>
          {context.firstName} {context.lastName}
        </Box>
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
