import { Box, Button, CircularProgress, Typography } from '@mui/material';

/** What the user sees while the app starts, or when it cannot. */
export function BootScreen({ message, error, onRetry }: { message?: string; error?: string; onRetry?: () => void }) {
  return (
    <Box
      data-testid={error ? 'boot-error' : 'boot-loading'}
      sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 2 }}
    >
      {error ? (
        <>
          <Typography variant="h6">Something went wrong</Typography>
          <Typography color="text.secondary">{error}</Typography>
          {onRetry && (
            <Button variant="contained" onClick={onRetry}>
              Try again
            </Button>
          )}
        </>
      ) : (
        <>
          <CircularProgress />
          <Typography color="text.secondary">{message ?? 'Loading…'}</Typography>
        </>
      )}
    </Box>
  );
}
