import { Card, CardContent, CardHeader, Typography } from '@mui/material';

/** Stands in for a case-page card that is not built yet, so the layout is complete. */
export function PlaceholderCard({ title, testId }: { title: string; testId: string }) {
  return (
    <Card variant="outlined" data-testid={testId}>
      <CardHeader title={title} titleTypographyProps={{ variant: 'h6' }} />
      <CardContent sx={{ pt: 0 }}>
        <Typography color="text.secondary" variant="body2">
          Not available yet.
        </Typography>
      </CardContent>
    </Card>
  );
}
