import { useState } from 'react';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField, Typography } from '@mui/material';
import { EHR_PERIODIC_REFRESH_MS, formatDateTime } from '@crisis/forms/core';
import { useAppData, useAppQuery } from '../../data/query';
import type { CaseDetails } from '../types';

/** FHIR's encounter status as a person reads it: 'in-progress' → 'In progress'. */
const statusLabel = (s: string) => (s.charAt(0).toUpperCase() + s.slice(1)).replace(/-/g, ' ');

/**
 * What the EHR knows now of the case's patient and encounter (spec 01 §7
 * patient-periodic-information-in-ehr), asked again every few minutes while the page is open: the
 * encounter's state, and the patient fields the EHR has otherwise than the platform. The case's
 * editors give or correct its encounter here (add-encounteridentifiertocases-in-ehr).
 */
export function EhrPatientPanel({ caseRecord, canEdit, onChanged }: { caseRecord: CaseDetails; canEdit: boolean; onChanged: () => void }) {
  const encounterId = caseRecord.encounterIdentifierId;
  const integrated = caseRecord.sourceFacility.ehrIntegrated && !!caseRecord.patientEpicId;
  const enabled = integrated && !!encounterId;
  const [editing, setEditing] = useState(false);
  const { data, error } = useAppQuery(['ehrPeriodic', caseRecord.id, encounterId], (dp) => dp.ehrPeriodicInformation(caseRecord.id, encounterId!), {
    enabled,
    refetchInterval: EHR_PERIODIC_REFRESH_MS,
    retry: false,
  });
  if (!integrated) return null;
  const e = data?.encounter;
  return (
    <Box sx={{ mt: 1 }} data-testid="ehr-panel">
      <Stack direction="row" spacing={1} alignItems="center">
        <Typography variant="caption" color="text.secondary" sx={{ flex: 1 }} data-testid="ehr-panel-encounter">
          {!encounterId
            ? 'No EHR encounter yet'
            : error
              ? `EHR: ${error}`
              : data
                ? `EHR encounter ${encounterId}: ${e ? `${statusLabel(e.status)}${e.start ? ` since ${formatDateTime(e.start)}` : ''}${e.belongsToPatient ? '' : ' — another patient’s encounter'}` : 'not found in the EHR'} · checked ${formatDateTime(data.checkedAt)}`
                : `EHR encounter ${encounterId}`}
        </Typography>
        {canEdit && (
          <Button size="small" onClick={() => setEditing(true)} data-testid="ehr-encounter-edit">
            {encounterId ? 'Change encounter' : 'Add encounter'}
          </Button>
        )}
      </Stack>
      {data && data.differences.length > 0 && (
        <Alert severity="warning" sx={{ mt: 0.5, py: 0 }} data-testid="ehr-panel-differences">
          The EHR has {data.differences.map((d) => `${d.label.toLowerCase()} “${d.ehr}”`).join(', ')}.
        </Alert>
      )}
      {editing && (
        <EncounterDialog
          caseId={caseRecord.id}
          current={encounterId ?? ''}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            onChanged();
          }}
        />
      )}
    </Box>
  );
}

function EncounterDialog({ caseId, current, onClose, onSaved }: { caseId: number; current: string; onClose: () => void; onSaved: () => void }) {
  const dp = useAppData();
  const [value, setValue] = useState(current);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    if (!value.trim()) return setProblem('Patient Encounter ID is required');
    setBusy(true);
    try {
      await dp.addEhrEncounter(caseId, value.trim());
      onSaved();
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="ehr-encounter-title">
      <DialogTitle id="ehr-encounter-title">EHR encounter</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          The EHR checks that the encounter is this patient’s; the evaluation documents are filed on it.
        </Typography>
        <TextField
          autoFocus
          fullWidth
          size="small"
          label="Encounter ID *"
          value={value}
          onChange={(ev) => {
            setValue(ev.target.value);
            setProblem(null);
          }}
          error={!!problem}
          helperText={problem ?? undefined}
          inputProps={{ 'data-testid': 'ehr-encounter-input', maxLength: 255 }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={save} disabled={busy} data-testid="ehr-encounter-save">
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
