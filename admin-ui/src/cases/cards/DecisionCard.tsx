import { Box, Card, CardContent, CardHeader, Link, Typography } from '@mui/material';
import PhoneIcon from '@mui/icons-material/Phone';
import { formatPhone } from '@crisis/forms/core';
import type { CaseCardProps } from '../types';
import { RecommendationView } from './medical/MedicalInformationView';

/**
 * The decision card of the facility case page (spec 01 §2): the recommendation with its criteria
 * and note, and a prompt to call the ITP team on the ER line.
 */
export function DecisionCard({ caseRecord }: CaseCardProps) {
  const erLine = caseRecord.erLine;
  return (
    <Card data-testid="decision-card">
      <CardHeader title="Decision" titleTypographyProps={{ variant: 'h6' }} />
      <CardContent>
        {caseRecord.mainRecommendation ? (
          <RecommendationView main={caseRecord.mainRecommendation} criteria={caseRecord.criteria} note={caseRecord.recommendationNote} />
        ) : (
          <Typography variant="body2" color="text.secondary" data-testid="decision-none">
            No recommendation yet.
          </Typography>
        )}
        <Box sx={{ mt: 2, display: 'flex', alignItems: 'center', gap: 1 }} data-testid="decision-call-prompt">
          <PhoneIcon fontSize="small" color="primary" />
          <Typography variant="body2">
            Questions about the decision? Call the ITP team on the ER line{' '}
            {erLine ? (
              <Link href={`tel:${erLine}`} data-testid="decision-er-line">
                {formatPhone(erLine)}
              </Link>
            ) : (
              '(not configured)'
            )}
            .
          </Typography>
        </Box>
      </CardContent>
    </Card>
  );
}
