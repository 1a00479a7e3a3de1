import { AppBar, Box, Button, CssBaseline, Toolbar, Typography } from '@mui/material';
import { ThemeProvider, createTheme } from '@mui/material/styles';
import type { AppSettings } from '@crisis/forms/core';
import { signIn } from '../auth/userManager';
import { theme } from '../theme';
import { DemoToolsPage } from './DemoToolsPage';

/** The app's theme (its contrast-checked palette) outside react-admin's <Admin>. */
const publicTheme = createTheme(theme);

/** The demo outbox before sign-in (a demo user reads the MFA code here while signing in). */
export function PublicDemoTools({ settings }: { settings: AppSettings }) {
  return (
    <ThemeProvider theme={publicTheme}>
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
    </ThemeProvider>
  );
}
