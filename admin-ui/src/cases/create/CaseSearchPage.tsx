import { Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { DateInput, Form, TextInput, useNotify } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { ENCOUNTER_ID_REQUIRED, PATIENT_EPIC_ID_REQUIRED, capitalizeName, normalizeInput, type FieldError, type SearchData } from '@crisis/forms/core';
import { useSession } from '../../auth/session';
import { PageTitle } from '../../common/PageTitle';
import { validatePayload } from '../../common/schemaValidation';
import { fieldErrorsToObject, isCodedError } from '../../data/codedError';
import { ActiveCaseDialog } from './ActiveCaseDialog';
import { EhrIdInputs } from './EhrIdInputs';
import { AlreadyAcceptedDialog, PatientReviewDialog, patientStep, type PatientStep } from './PatientNoticeDialogs';
import { useAppData } from '../../data/query';
import { searchToQuery } from './searchQuery';

interface SearchValues {
  patientEpicId?: string | null;
  encounterIdentifier?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  dateOfBirth?: string | null;
}

const capitalised = (v: string | null | undefined) => capitalizeName((v ?? '').trim());

export function toSearchPayload(v: SearchValues): SearchData {
  return normalizeInput({
    firstName: capitalised(v.firstName),
    lastName: capitalised(v.lastName),
    dateOfBirth: v.dateOfBirth ?? null,
    patientEpicId: v.patientEpicId ?? null,
    encounterIdentifier: v.encounterIdentifier ?? null,
  }) as SearchData;
}

/**
 * /cases/create/search (spec 01 §2, §5): who the new case is for. No match → straight to the
 * creation form; matches → the result page (ITP staff), or the creation form with that patient
 * (facility staff; an active case stops them here with the active-case dialog).
 */
export function CaseSearchPage() {
  const { context, ability } = useSession();
  const navigate = useNavigate();
  const notify = useNotify();
  const dp = useAppData();
  const [step, setStep] = useState<PatientStep | null>(null);
  const [lastSearch, setLastSearch] = useState<SearchData | null>(null);
  const [busy, setBusy] = useState(false);
  // The division is known for facility staff only; ITP staff give the EHR ids on the case tab.
  const ehrRequired = context.organizationType === 'Facility' && context.isIntegratedWithEMR;

  const validate = (values: SearchValues) => {
    const payload = toSearchPayload(values);
    const errors: FieldError[] = validatePayload('casePatientSearch', payload);
    if (ehrRequired && !payload.patientEpicId) errors.push({ field: 'patientEpicId', key: 'required', message: PATIENT_EPIC_ID_REQUIRED });
    if (ehrRequired && !payload.encounterIdentifier)
      errors.push({ field: 'encounterIdentifier', key: 'required', message: ENCOUNTER_ID_REQUIRED });
    return errors.length ? fieldErrorsToObject(errors) : {};
  };

  const submit = async (values: SearchValues) => {
    const search = toSearchPayload(values);
    setBusy(true);
    try {
      const matches = await dp.searchPatients(search);
      if (matches.length === 0) return navigate(`/cases/create?${searchToQuery(search)}`);
      if (ability.can('read', 'CaseSearchResult')) return navigate(`/cases/create/search/result?${searchToQuery(search)}`);
      // Facility staff: the (most recent) matching patient; the server refuses an active case anyway.
      const match = [...matches].sort((a, b) => String(b.lastCaseCreatedAt ?? '').localeCompare(String(a.lastCaseCreatedAt ?? '')))[0];
      const next = patientStep(match, context.facilityId);
      if (next.kind !== 'go') {
        setLastSearch(search);
        return setStep(next);
      }
      navigate(`/cases/create?${searchToQuery(search, { patientId: match.id })}`);
    } catch (e) {
      if (isCodedError(e) && e.fields.length) return fieldErrorsToObject(e.fields);
      notify(e instanceof Error ? e.message : 'Search failed', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box sx={{ maxWidth: 720 }}>
      <PageTitle title="New case" />
      <Card>
        <CardContent>
          <Typography variant="subtitle1" sx={{ mb: 2 }}>
            Find the patient
          </Typography>
          <Form validate={validate} onSubmit={submit as any} mode="onSubmit" reValidateMode="onBlur" sanitizeEmptyValues={false}>
            {context.organizationType === 'Facility' && context.isIntegratedWithEMR ? (
              <EhrIdInputs
                divisionId={context.divisionId ?? null}
                required={ehrRequired}
                paths={{ firstName: 'firstName', lastName: 'lastName', dateOfBirth: 'dateOfBirth' }}
                testIdPrefix="search"
              />
            ) : (
              <Stack direction={{ xs: 'column', sm: 'row' }} columnGap={2}>
                <TextInput source="patientEpicId" label="Patient EPIC ID or MRN" fullWidth data-testid="search-patient-epic-id" />
                <TextInput source="encounterIdentifier" label="Encounter ID" fullWidth data-testid="search-encounter-id" />
              </Stack>
            )}
            <Stack direction={{ xs: 'column', sm: 'row' }} columnGap={2}>
              <TextInput source="firstName" label="First name *" fullWidth data-testid="search-first-name" />
              <TextInput source="lastName" label="Last name *" fullWidth data-testid="search-last-name" />
            </Stack>
            <DateInput source="dateOfBirth" label="Date of birth *" sx={{ width: { xs: '100%', sm: 'calc(50% - 8px)' } }} data-testid="search-dob" />
            <Stack direction="row" justifyContent="flex-end" spacing={1} sx={{ mt: 2 }}>
              <Button onClick={() => navigate('/dashboard')} data-testid="search-cancel">
                Cancel
              </Button>
              <Button type="submit" variant="contained" disabled={busy} data-testid="search-next">
                Next
              </Button>
            </Stack>
          </Form>
        </CardContent>
      </Card>
      <ActiveCaseDialog open={step?.kind === 'active'} onClose={() => setStep(null)} />
      <AlreadyAcceptedDialog step={step} onClose={() => setStep(null)} />
      <PatientReviewDialog
        step={step}
        onCancel={() => setStep(null)}
        onContinue={() => step && lastSearch && navigate(`/cases/create?${searchToQuery(lastSearch, { patientId: step.match.id })}`)}
      />
    </Box>
  );
}
