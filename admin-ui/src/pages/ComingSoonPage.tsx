import { Box, Typography } from '@mui/material';
import { PageTitle } from '../common/PageTitle';

/** Placeholder of a screen that is not built yet (still role-gated). */
export function ComingSoonPage({ title }: { title: string }) {
  return (
    <Box data-testid="coming-soon">
      <PageTitle title={title} />
      <Typography color="text.secondary">Coming soon.</Typography>
    </Box>
  );
}
