import {
  Avatar,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Link as MuiLink,
  Stack,
} from '@mui/material';
import { useState } from 'react';
import { TopToolbar } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import AddIcon from '@mui/icons-material/Add';
import { HIGH_RISK_CRITERIA, durationTwoUnits, formatDay } from '@crisis/forms/core';
import { useSession } from '../../auth/session';
import { humanize } from '../../common/humanize';
import { PhoneNumber } from '../../common/phone';
import { FoundTotal } from '../../common/ReferenceList';

/** A row of GET /api/cases. */
export interface CaseRow {
  id: number;
  status: string;
  statusLabel: string;
  criteria: string[] | null;
  mainRecommendation: string | null;
  contactPhoneNumber: string | null;
  rnCaringForPatient: string | null;
  timeElapsedSeconds: number;
  patient: { id: number; firstName: string; lastName: string; dateOfBirth: string; gender: string | null };
  sourceFacility: { id: number; name: string };
  sourceDivision: { id: number; name: string };
  latestRequest: {
    id: number;
    type: string;
    status: string;
    evaluationProvider: { id: number; firstName: string; lastName: string; avatar: string | null; biography: string | null } | null;
  } | null;
  grantedAccessCreatedAt: string | null;
  patientAcceptedCreatedAt: string | null;
}

/** Row helpers shared by the case lists and the request queues. */
export const patientName = (r: { patient: { firstName: string; lastName: string } }) => `${r.patient.firstName} ${r.patient.lastName}`;
export const dob = (d: string | null | undefined) => (d ? formatDay(d.length === 10 ? `${d}T00:00:00` : d) : '');
export const elapsed = (r: { timeElapsedSeconds: number }) => durationTwoUnits(r.timeElapsedSeconds * 1000);
export const since = (iso: string | null) => (iso ? durationTwoUnits(Date.now() - Date.parse(iso)) : '—');
// The dashboard shows this table: the number without libphonenumber-js in the first load (common/phone.tsx).
export const phone = (p: string | null) => (p ? <PhoneNumber value={p} /> : '—');

/** Case criteria as chips; the six high-risk ones highlighted (spec 01 §3). */
export function CriteriaChips({ criteria }: { criteria: string[] | null }) {
  if (!criteria?.length) return <>—</>;
  return (
    <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
      {criteria.map((c) => {
        const high = (HIGH_RISK_CRITERIA as readonly string[]).includes(c);
        return (
          <Chip
            key={c}
            size="small"
            label={c === '{hash}' ? '#' : humanize(c)}
            color={high ? 'error' : 'default'}
            variant={high ? 'filled' : 'outlined'}
            data-testid={high ? 'criterion-high-risk' : 'criterion'}
          />
        );
      })}
    </Stack>
  );
}

/** Total and, for those who may create cases, the create-case action. */
export function CaseListActions() {
  const { ability } = useSession();
  return (
    <TopToolbar sx={{ alignItems: 'center' }}>
      <FoundTotal testId="case-total" />
      {ability.can('create', 'Case') && (
        <Button component={RouterLink} to="/cases/create/search" startIcon={<AddIcon />} size="small" data-testid="case-create">
          Create case
        </Button>
      )}
    </TopToolbar>
  );
}

type Provider = NonNullable<NonNullable<CaseRow['latestRequest']>['evaluationProvider']>;

/** The request provider's name; a click opens the biography view (spec 01 §2 facility table). */
export function ProviderBiographyLink({ provider }: { provider: Provider | null }) {
  const [open, setOpen] = useState(false);
  if (!provider) return <>—</>;
  const name = `${provider.firstName} ${provider.lastName}`;
  return (
    <>
      <MuiLink
        component="button"
        type="button"
        onClick={(e: React.MouseEvent) => {
          e.stopPropagation();
          setOpen(true);
        }}
        data-testid="case-provider-link"
      >
        {name}
      </MuiLink>
      <Dialog open={open} onClose={() => setOpen(false)} onClick={(e) => e.stopPropagation()} maxWidth="sm" fullWidth data-testid="provider-biography">
        <DialogTitle>
          <Stack direction="row" spacing={2} alignItems="center">
            <Avatar>{provider.firstName.charAt(0)}</Avatar>
            <span>{name}</span>
          </Stack>
        </DialogTitle>
        <DialogContent>
          <Box sx={{ whiteSpace: 'pre-wrap' }}>{provider.biography || 'No biography yet.'}</Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)} variant="contained">
            Close
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
