import { Link as RouterLink } from 'react-router-dom';
import { Alert, Button, Chip, List, ListItem, ListItemText, Typography } from '@mui/material';
import { useSession } from '../../auth/session';
import { keys, useAppQuery } from '../../data/query';
import type { CaseCardProps } from '../types';
import { CaseCard } from './CaseCard';
import { onSourceSide } from '../sourceSide';

/**
 * Insurance card of the case page (spec 01 §2, §3 Insurance, §6): the insurances in order with
 * payer, ids and verified state, or the uninsured flag; a link to /cases/{id}/insurances.
 */
export function InsuranceCard({ caseRecord }: CaseCardProps) {
  const { ability, context } = useSession();
  const canRead = ability.can('read', 'CaseInsurance');
  const { data, error } = useAppQuery(keys.case(caseRecord.id, 'insurances', caseRecord.version, String(caseRecord.uninsured)), (dp) => dp.insurances(caseRecord.id), {
    enabled: canRead,
  });
  if (!canRead) return null;
  return (
    <CaseCard
      title="Insurance"
      testId="insurance-card"
      variant="outlined"
      dense
      loading={!data && !error}
      action={
        <Button component={RouterLink} to={`/cases/${caseRecord.id}/insurances`} size="small" data-testid="insurance-page-link">
          {ability.can('update', 'CaseInsurance') && caseRecord.status !== 'Closed' && onSourceSide(context, caseRecord) ? 'Edit insurance' : 'Open'}
        </Button>
      }
    >
      {error && <Alert severity="error">{error}</Alert>}
      {data?.uninsured && <Chip color="warning" label="Uninsured" data-testid="insurance-card-uninsured" />}
      {data && !data.uninsured && data.insurances.length === 0 && (
        <Typography color="text.secondary" data-testid="insurance-card-empty">
          Not provided
        </Typography>
      )}
      {data && !data.uninsured && data.insurances.length > 0 && (
        <List dense disablePadding>
          {data.insurances.map((i) => (
            <ListItem
              key={i.id}
              disableGutters
              data-testid="insurance-card-row"
              secondaryAction={<Chip size="small" color={i.verified ? 'success' : 'warning'} label={i.verified ? 'Verified' : 'Unverified'} />}
            >
              <ListItemText
                primary={`${i.orderName[0].toUpperCase()}${i.orderName.slice(1)}: ${i.payer.name}`}
                secondary={`ID ${i.insuranceId}${i.groupId ? ` · Group ${i.groupId}` : ''}${i.relationToInsured ? ` · ${i.relationToInsured}` : ''}`}
              />
            </ListItem>
          ))}
        </List>
      )}
    </CaseCard>
  );
}
