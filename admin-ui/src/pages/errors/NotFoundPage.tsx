import { Box, Button, Typography } from '@mui/material';
import { Link } from 'react-router-dom';

export function NotFoundPage() {
  return (
    <Box data-testid="page-not-found" sx={{ p: 6, textAlign: 'center' }}>
      <Typography variant="h4" gutterBottom>
        Page not found
      </Typography>
      <Typography color="text.secondary" gutterBottom>
        The page you are looking for does not exist.
      </Typography>
      <Button component={Link} to="/dashboard" variant="outlined">
        Go to the dashboard
      </Button>
    </Box>
  );
}
