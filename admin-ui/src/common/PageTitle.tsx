import type { ReactNode } from 'react';
import { Box, Typography } from '@mui/material';

export function PageTitle({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2, flexWrap: 'wrap' }}>
      <Typography variant="h5" component="h1" data-testid="page-title">
        {title}
      </Typography>
      {children}
    </Box>
  );
}
