import { Box, Button, CircularProgress, Typography } from '@mui/material';

/** What the user sees while the app starts, or when it cannot. */
export function BootScreen({
  message,
  error,
  onRetry,
  action,
}: {
  message?: string;
  error?: string;
  onRetry?: () => void;
  /** A settled screen (signed out) with one button instead of a spinner. */
  action?: { label: string; onClick: () => void };
}) {
  return (
    <Box
      data-testid={error ? 'boot-error' : action ? 'signed-out' : 'boot-loading'}
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
      ) : action ? (
        <>
          <Typography variant="h6" data-testid="boot-message">
            {message}
          </Typography>
          <Button variant="contained" onClick={action.onClick} data-testid="boot-action">
            {action.label}
          </Button>
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
