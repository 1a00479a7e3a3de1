import { Component, Suspense, type ErrorInfo, type ReactNode } from 'react';
import { Alert, Box, CircularProgress, CssBaseline, Link as MuiLink } from '@mui/material';
import { Link, useLocation } from 'react-router-dom';
import { demoToolsAllowed } from '../auth/routeGates';
import { useSession } from '../auth/session';
import { IdleLogout } from '../idle/IdleLogout';
import { LiveAnnouncer } from '../common/LiveAnnouncer';
import { NavBar } from './NavBar';

class PageErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, { error: Error | null }> {
  state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('page error', error, info.componentStack);
  }
  componentDidUpdate(prev: { resetKey: string }) {
    if (prev.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }
  render() {
    return this.state.error ? (
      <Alert severity="error" data-testid="page-error">
        Unexpected exception had happened. {this.state.error.message}
      </Alert>
    ) : (
      this.props.children
    );
  }
}

function Footer() {
  const session = useSession();
  return (
    <Box component="footer" sx={{ display: 'flex', gap: 2, justifyContent: 'center', py: 2, color: 'text.secondary', fontSize: 13 }}>
      <MuiLink component={Link} to="/terms-and-conditions" color="inherit" data-testid="footer-terms">
        Terms and conditions
      </MuiLink>
      <MuiLink component={Link} to="/about-us" color="inherit" data-testid="footer-about">
        About us
      </MuiLink>
      {demoToolsAllowed(session) && (
        <MuiLink component={Link} to="/demo-tools" color="inherit" data-testid="footer-demo-tools">
          Demo tools
        </MuiLink>
      )}
    </Box>
  );
}

/** The layout: navigation bar on top, the page, a footer; the idle watcher runs for every page. */
export function AppLayout({ children }: { children?: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <CssBaseline />
      <NavBar />
      <Box component="main" sx={{ flex: 1, p: { xs: 1.5, md: 3 }, width: '100%', maxWidth: 1600, mx: 'auto' }}>
        <PageErrorBoundary resetKey={pathname}>
          <Suspense fallback={<CircularProgress />}>{children}</Suspense>
        </PageErrorBoundary>
      </Box>
      <Footer />
      <IdleLogout />
      <LiveAnnouncer />
    </Box>
  );
}
