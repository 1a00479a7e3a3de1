import { Box, Button, Typography } from '@mui/material';
import { Link, useParams } from 'react-router-dom';
import { PageTitle } from '../../common/PageTitle';

/** /cases/:id/requests/:requestId/evaluation until the evaluation module replaces it. */
export function EvaluationPlaceholderPage() {
  const { id } = useParams();
  return (
    <Box data-testid="evaluation-placeholder">
      <PageTitle title="Evaluation" />
      <Typography color="text.secondary" gutterBottom>
        The evaluation screen comes with the evaluation module.
      </Typography>
      <Button component={Link} to={`/cases/${id}`} variant="outlined">
        Back to the case
      </Button>
    </Box>
  );
}
