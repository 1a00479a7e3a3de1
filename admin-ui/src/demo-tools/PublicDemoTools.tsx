import { AppBar, Box, Button, CssBaseline, Toolbar, Typography } from '@mui/material';
import type { AppSettings } from '@crisis/forms';
import { signIn } from '../auth/userManager';
import { DemoToolsPage } from './DemoToolsPage';

/** The demo outbox before sign-in (a demo user reads the MFA code here while signing in). */
export function PublicDemoTools({ settings }: { settings: AppSettings }) {
  return (
    <>
      <CssBaseline />
      <AppBar position="static">
        <Toolbar>
          <Typography variant="h6" sx={{ flex: 1 }}>
            {settings.productName}
          </Typography>
          <Button color="inherit" onClick={() => void signIn('/dashboard')}>
            Sign in
          </Button>
        </Toolbar>
      </AppBar>
      <Box sx={{ p: 3 }}>
        <DemoToolsPage />
      </Box>
    </>
  );
}
