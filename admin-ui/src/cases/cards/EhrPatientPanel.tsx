import { Alert, Box, Typography } from '@mui/material';
import { EHR_PERIODIC_REFRESH_MS, formatDateTime } from '@crisis/forms';
import { useAppQuery } from '../../data/query';
import type { CaseDetails } from '../types';

/** FHIR's encounter status as a person reads it: 'in-progress' → 'In progress'. */
const statusLabel = (s: string) => (s.charAt(0).toUpperCase() + s.slice(1)).replace(/-/g, ' ');

/**
 * What the EHR knows now of the case's patient and encounter (spec 01 §7
 * patient-periodic-information-in-ehr), asked again every few minutes while the page is open: the
 * encounter's state, and the patient fields the EHR has otherwise than the platform.
 */
export function EhrPatientPanel({ caseRecord }: { caseRecord: CaseDetails }) {
  const encounterId = caseRecord.encounterIdentifierId;
  const enabled = caseRecord.sourceFacility.ehrIntegrated && !!caseRecord.patientEpicId && !!encounterId;
  const { data, error } = useAppQuery(['ehrPeriodic', caseRecord.id, encounterId], (dp) => dp.ehrPeriodicInformation(caseRecord.id, encounterId!), {
    enabled,
    refetchInterval: EHR_PERIODIC_REFRESH_MS,
    retry: false,
  });
  if (!enabled) return null;
  if (error)
    return (
      <Typography variant="caption" color="text.secondary" display="block" sx={{ mt: 1 }} data-testid="ehr-panel-error">
        EHR: {error}
      </Typography>
    );
  if (!data) return null;
  const e = data.encounter;
  return (
    <Box sx={{ mt: 1 }} data-testid="ehr-panel">
      <Typography variant="caption" color="text.secondary" display="block" data-testid="ehr-panel-encounter">
        EHR encounter {encounterId}:{' '}
        {e ? `${statusLabel(e.status)}${e.start ? ` since ${formatDateTime(e.start)}` : ''}${e.belongsToPatient ? '' : ' — another patient’s encounter'}` : 'not found in the EHR'}
        {' · checked '}
        {formatDateTime(data.checkedAt)}
      </Typography>
      {data.differences.length > 0 && (
        <Alert severity="warning" sx={{ mt: 0.5, py: 0 }} data-testid="ehr-panel-differences">
          The EHR has {data.differences.map((d) => `${d.label.toLowerCase()} “${d.ehr}”`).join(', ')}.
        </Alert>
      )}
    </Box>
  );
}
