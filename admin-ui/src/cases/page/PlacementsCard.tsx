import { Card, CardContent, CardHeader, Typography } from '@mui/material';
import type { CaseCardProps } from '../types';

/**
 * The placements table of the ITP case page (spec 02): a seam for the placement module, which
 * replaces this component (same props).
 */
export function PlacementsCard(_props: CaseCardProps) {
  return (
    <Card variant="outlined" data-testid="placements-card">
      <CardHeader title="Placements" titleTypographyProps={{ variant: 'h6' }} />
      <CardContent sx={{ pt: 0 }}>
        <Typography color="text.secondary">Placements come with the placement module.</Typography>
      </CardContent>
    </Card>
  );
}
