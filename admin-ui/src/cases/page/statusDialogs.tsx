import { useEffect, useState } from 'react';
import {
  Alert,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  MenuItem,
  Radio,
  RadioGroup,
  TextField,
} from '@mui/material';
import {
  CASE_OUTCOMES,
  DEFER_RECOMMENDATION,
  HIGH_RISK_CRITERIA,
  MAIN_RECOMMENDATIONS,
  caseStatusLabel,
  criteriaForRecommendation,
  isOtherOutcome,
  outcomeNeedsFacility,
  statusChangeNeedsNote,
} from '@crisis/forms/core';
import type { CaseDetails } from '../types';
import type { ReferringDivisionOption } from '@crisis/forms/core';
import { useAppData } from '../../data/query';
import { enumLabel } from './caseLabels';
import { FormDialog, NoteField, schemaProblems } from './dialogs';

/** Submits and returns the field errors the server sent back (null when handled otherwise or done). */
export type Submit = (body: Record<string, unknown>) => Promise<Record<string, string> | null>;

/** Status change to any target other than Closed and contacting: a note (required for OnHold targets and WaitingOnDecision). */
export function NoteDialog({ target, onClose, onSubmit }: { target: string | null; onClose: () => void; onSubmit: Submit }) {
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setNote('');
    setErrors({});
  }, [target]);
  if (!target) return null;
  const submit = async () => {
    const body = { status: target, note };
    const problems = await schemaProblems('caseStatusChange', body);
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setBusy(true);
    const serverErrors = await onSubmit(body).finally(() => setBusy(false));
    if (serverErrors) setErrors(serverErrors);
  };
  return (
    <FormDialog open title={`Change status to ${caseStatusLabel(target, 'itp')}`} testId="status-note-dialog" submitLabel="Change status" busy={busy} onClose={onClose} onSubmit={submit}>
      <NoteField label="Note" value={note} onChange={setNote} error={errors.note} required={statusChangeNeedsNote(target)} testId="status-note" autoFocus />
    </FormDialog>
  );
}

/** To LocatingServices_ContactingServiceOrganization: recommendation (not Defer), criteria, note, out-of-state facilities. */
export function ContactingDialog({ open, caseRecord, target, onClose, onSubmit }: { open: boolean; caseRecord: CaseDetails; target: string; onClose: () => void; onSubmit: Submit }) {
  const initialRecommendation = caseRecord.mainRecommendation && caseRecord.mainRecommendation !== DEFER_RECOMMENDATION ? caseRecord.mainRecommendation : '';
  const [recommendation, setRecommendation] = useState<string>(initialRecommendation);
  const [criteria, setCriteria] = useState<string[]>([]);
  const [note, setNote] = useState('');
  const [outOfState, setOutOfState] = useState<boolean | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open) return;
    setRecommendation(initialRecommendation);
    const allowed = criteriaForRecommendation(initialRecommendation) as readonly string[];
    setCriteria((caseRecord.criteria ?? []).filter((c) => allowed.includes(c)));
    setNote(caseRecord.recommendationNote ?? '');
    setOutOfState(null);
    setErrors({});
  }, [open]);
  const allowedCriteria = criteriaForRecommendation(recommendation) as readonly string[];
  const submit = async () => {
    const body = {
      status: target,
      mainRecommendation: recommendation || null,
      criteria,
      note,
      includeOutOfStateFacilities: outOfState,
    };
    const problems = await schemaProblems('caseStatusChange', body);
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setBusy(true);
    const serverErrors = await onSubmit(body).finally(() => setBusy(false));
    if (serverErrors) setErrors(serverErrors);
  };
  return (
    <FormDialog open={open} title={`Change status to ${caseStatusLabel(target, 'itp')}`} testId="contacting-dialog" submitLabel="Change status" busy={busy} onClose={onClose} onSubmit={submit}>
      <TextField
        select
        label="Main recommendation"
        required
        value={recommendation}
        onChange={(e) => {
          setRecommendation(e.target.value);
          setCriteria([]);
        }}
        error={!!errors.mainRecommendation}
        helperText={errors.mainRecommendation}
        SelectProps={{ SelectDisplayProps: { 'data-testid': 'contacting-recommendation' } as any }}
      >
        {MAIN_RECOMMENDATIONS.filter((r) => r !== DEFER_RECOMMENDATION).map((r) => (
          <MenuItem key={r} value={r}>
            {enumLabel(r)}
          </MenuItem>
        ))}
      </TextField>
      {allowedCriteria.length > 0 && (
        <FormControl error={!!errors.criteria} data-testid="contacting-criteria">
          <FormLabel>Criteria</FormLabel>
          <FormGroup row>
            {allowedCriteria.map((c) => (
              <FormControlLabel
                key={c}
                label={c === '{hash}' ? c : enumLabel(c)}
                sx={(HIGH_RISK_CRITERIA as readonly string[]).includes(c) ? { '& .MuiFormControlLabel-label': { color: 'error.main', fontWeight: 600 } } : undefined}
                control={
                  <Checkbox
                    checked={criteria.includes(c)}
                    inputProps={{ 'data-testid': `criterion-${c}` } as any}
                    onChange={(e) => setCriteria((cur) => (e.target.checked ? [...cur, c] : cur.filter((x) => x !== c)))}
                  />
                }
              />
            ))}
          </FormGroup>
          {errors.criteria && <FormHelperText>{errors.criteria}</FormHelperText>}
        </FormControl>
      )}
      <NoteField label="Note" value={note} onChange={setNote} error={errors.note} testId="contacting-note" />
      <FormControl error={!!errors.includeOutOfStateFacilities} required data-testid="contacting-out-of-state">
        <FormLabel>Include out-of-state facilities</FormLabel>
        <RadioGroup row value={outOfState === null ? '' : String(outOfState)} onChange={(e) => setOutOfState(e.target.value === 'true')}>
          <FormControlLabel value="true" control={<Radio inputProps={{ 'data-testid': 'out-of-state-yes' } as any} />} label="Yes" />
          <FormControlLabel value="false" control={<Radio inputProps={{ 'data-testid': 'out-of-state-no' } as any} />} label="No" />
        </RadioGroup>
        {errors.includeOutOfStateFacilities && <FormHelperText>{errors.includeOutOfStateFacilities}</FormHelperText>}
      </FormControl>
    </FormDialog>
  );
}

const divisionLabel = (d: ReferringDivisionOption) => `${d.facilityName} — ${d.divisionName}`;

/**
 * Close with an outcome, or change the outcome of a closed case: outcome, the referring division
 * when the outcome names a facility (preselected when exactly one division accepted the patient),
 * a note (required for Other outcomes).
 */
export function OutcomeDialog({
  open,
  mode,
  caseRecord,
  onClose,
  onSubmit,
}: {
  open: boolean;
  mode: 'close' | 'changeOutcome';
  caseRecord: CaseDetails;
  onClose: () => void;
  onSubmit: Submit;
}) {
  const [outcome, setOutcome] = useState('');
  const [divisionId, setDivisionId] = useState<number | ''>('');
  const [note, setNote] = useState('');
  const dp = useAppData();
  const [options, setOptions] = useState<{ accepted: ReferringDivisionOption[]; referring: ReferringDivisionOption[] }>({ accepted: [], referring: [] });
  const [loadError, setLoadError] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open) return;
    const current = mode === 'changeOutcome' ? caseRecord.outcome : null;
    setOutcome(current?.type ?? '');
    setNote(current?.note ?? '');
    setDivisionId(current?.referringFacility?.divisionId ?? '');
    setErrors({});
    setLoadError(null);
    let live = true;
    dp.caseCloseOptions(caseRecord.id)
      .then((o) => {
        if (!live) return;
        setOptions(o);
        if (!current?.referringFacility && o.accepted.length === 1) setDivisionId(o.accepted[0].divisionId);
      })
      .catch((e) => live && setLoadError((e as Error).message));
    return () => {
      live = false;
    };
  }, [open, mode, caseRecord.id, caseRecord.outcome, dp]);
  const needsFacility = outcomeNeedsFacility(outcome);
  // Accepted divisions first, then every other referring division.
  const acceptedIds = new Set(options.accepted.map((d) => d.divisionId));
  const choices = [...options.accepted, ...options.referring.filter((d) => !acceptedIds.has(d.divisionId))];
  const submit = async () => {
    const body: Record<string, unknown> = {
      ...(mode === 'close' ? { outcomeRequired: true } : {}),
      caseOutcomeType: outcome || null,
      note,
      referringDivisionId: needsFacility && divisionId !== '' ? divisionId : null,
    };
    const problems = await schemaProblems(mode === 'close' ? 'caseClose' : 'caseChangeOutcome', body);
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setBusy(true);
    const serverErrors = await onSubmit(body).finally(() => setBusy(false));
    if (serverErrors) setErrors(serverErrors);
  };
  return (
    <FormDialog
      open={open}
      title={mode === 'close' ? 'Close case' : 'Change outcome'}
      testId="outcome-dialog"
      submitLabel={mode === 'close' ? 'Close case' : 'Save'}
      busy={busy}
      onClose={onClose}
      onSubmit={submit}
    >
      <TextField
        select
        label="Case outcome"
        required
        value={outcome}
        onChange={(e) => setOutcome(e.target.value)}
        error={!!errors.caseOutcomeType}
        helperText={errors.caseOutcomeType}
        SelectProps={{ SelectDisplayProps: { 'data-testid': 'outcome-type' } as any }}
      >
        {CASE_OUTCOMES.map((o) => (
          <MenuItem key={o} value={o}>
            {enumLabel(o)}
          </MenuItem>
        ))}
      </TextField>
      {needsFacility && (
        <TextField
          select
          label="Referring facility"
          required
          value={divisionId}
          onChange={(e) => setDivisionId(Number(e.target.value))}
          error={!!errors.referringDivisionId}
          helperText={errors.referringDivisionId ?? (options.accepted.length ? 'Divisions that accepted the patient are listed first' : undefined)}
          SelectProps={{ SelectDisplayProps: { 'data-testid': 'outcome-division' } as any }}
        >
          {choices.map((d) => (
            <MenuItem key={d.divisionId} value={d.divisionId}>
              {divisionLabel(d)}
              {acceptedIds.has(d.divisionId) ? ' (accepted)' : ''}
            </MenuItem>
          ))}
        </TextField>
      )}
      {loadError && <Alert severity="warning">{loadError}</Alert>}
      <NoteField label="Note" value={note} onChange={setNote} error={errors.note} required={isOtherOutcome(outcome)} testId="outcome-note" />
    </FormDialog>
  );
}
