import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Alert, Button, Card, CardContent, CardHeader, Chip, CircularProgress, List, ListItem, ListItemText, Typography } from '@mui/material';
import { useSession } from '../../auth/session';
import { insuranceApi, type InsuranceList } from '../insurance/insuranceApi';
import type { CaseCardProps } from '../types';

/**
 * Insurance card of the case page (spec 01 §2, §3 Insurance, §6): the insurances in order with
 * payer, ids and verified state, or the uninsured flag; a link to /cases/{id}/insurances.
 */
export function InsuranceCard({ caseRecord }: CaseCardProps) {
  const { ability } = useSession();
  const [data, setData] = useState<InsuranceList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const canRead = ability.can('read', 'CaseInsurance');
  useEffect(() => {
    if (canRead) insuranceApi.list(caseRecord.id).then(setData, (e) => setError((e as Error).message));
  }, [caseRecord.id, caseRecord.version, caseRecord.uninsured, canRead]);
  if (!canRead) return null;
  return (
    <Card variant="outlined" data-testid="insurance-card">
      <CardHeader
        title="Insurance"
        titleTypographyProps={{ variant: 'h6' }}
        action={
          <Button component={RouterLink} to={`/cases/${caseRecord.id}/insurances`} size="small" data-testid="insurance-page-link">
            {ability.can('update', 'CaseInsurance') && caseRecord.status !== 'Closed' ? 'Edit insurance' : 'Open'}
          </Button>
        }
      />
      <CardContent sx={{ pt: 0 }}>
        {error && <Alert severity="error">{error}</Alert>}
        {!data && !error && <CircularProgress size={20} />}
        {data?.uninsured && (
          <Chip color="warning" label="Uninsured" data-testid="insurance-card-uninsured" />
        )}
        {data && !data.uninsured && data.insurances.length === 0 && (
          <Typography color="text.secondary" data-testid="insurance-card-empty">
            Not provided
          </Typography>
        )}
        {data && !data.uninsured && data.insurances.length > 0 && (
          <List dense disablePadding>
            {data.insurances.map((i) => (
              <ListItem key={i.id} disableGutters data-testid="insurance-card-row" secondaryAction={<Chip size="small" color={i.verified ? 'success' : 'warning'} label={i.verified ? 'Verified' : 'Unverified'} />}>
                <ListItemText
                  primary={`${i.orderName[0].toUpperCase()}${i.orderName.slice(1)}: ${i.payer.name}`}
                  secondary={`ID ${i.insuranceId}${i.groupId ? ` · Group ${i.groupId}` : ''}${i.relationToInsured ? ` · ${i.relationToInsured}` : ''}`}
                />
              </ListItem>
            ))}
          </List>
        )}
      </CardContent>
    </Card>
  );
}
