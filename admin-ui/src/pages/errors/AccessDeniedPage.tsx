import { Box, Typography } from '@mui/material';
import LockIcon from '@mui/icons-material/Lock';

export const ACCESS_DENIED_TEXT = "You don't have permission to access this page.";

/** Shown when a role check fails (spec 03 §2). */
export function AccessDeniedPage() {
  return (
    <Box data-testid="access-denied" sx={{ p: 6, textAlign: 'center' }}>
      <LockIcon color="disabled" sx={{ fontSize: 56 }} />
      <Typography variant="h6">{ACCESS_DENIED_TEXT}</Typography>
    </Box>
  );
}
