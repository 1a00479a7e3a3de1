import { Box, Button, Card, CardContent, Stack, Tab, Tabs } from '@mui/material';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Form, ResourceContextProvider, useNotify } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router-dom';
import {
  ErrorCode,
  GENDERS,
  UserType,
  caseCreateProblems,
  normalizeInput,
  patientForSave,
  problemsToFieldErrors,
  toStoredPhone,
  type FieldError,
} from '@crisis/forms/core';
import { useSession } from '../../auth/session';
import { PageTitle } from '../../common/PageTitle';
import { validatePayload } from '../../common/schemaValidation';
import { fieldErrorsToObject, isCodedError } from '../../data/codedError';
import { ActiveCaseDialog } from './ActiveCaseDialog';
import { CaseFields, type DivisionInfo } from './CaseFields';
import { useAppData } from '../../data/query';
import { searchFromQuery } from './searchQuery';
import { InsuranceRows } from './InsuranceRows';
import { PatientFields } from './PatientFields';
import { recallEhrPatient } from './ehrPatientMemory';

type Values = Record<string, any>;
const num = (v: unknown) => (v === null || v === undefined || v === '' ? null : Number(v));

/** The form values as the POST /api/cases payload (schema caseCreate). */
export function toCasePayload(v: Values, patientId: number | null) {
  const p = v.patient ?? {};
  const patient = patientForSave({
    ...p,
    phone: toStoredPhone(p.phone),
    isVeteran: !!p.isVeteran,
    homeless: !!p.homeless,
    address: { ...(p.address ?? {}) },
  });
  return normalizeInput({
    patient,
    patientId,
    sourceFacilityId: num(v.sourceFacilityId),
    sourceDivisionId: num(v.sourceDivisionId),
    attendingProvider: v.attendingProvider ?? null,
    rnCaringForPatient: v.rnCaringForPatient ?? null,
    contactPhoneNumber: toStoredPhone(v.contactPhoneNumber),
    notificationSendingMethod: v.notificationSendingMethod ?? null,
    isInvoluntary: !!v.isInvoluntary,
    requestType: v.requestType ?? null,
    requestNote: v.requestNote ?? null,
    evaluationProviderId: v.requestType === 'PlacementOnly' ? null : num(v.evaluationProviderId),
    patientEpicId: v.patientEpicId ?? null,
    encounterIdentifier: v.encounterIdentifier ?? null,
    insurances: v.uninsured
      ? []
      : (v.insurances ?? []).map((i: Values) => ({
          payerId: num(i?.payerId),
          insuranceId: i?.insuranceId ?? null,
          groupId: i?.groupId ?? null,
          relationToInsured: i?.relationToInsured ?? null,
          responsibleParty: i?.responsibleParty
            ? { ...i.responsibleParty, contactPhoneNumber: toStoredPhone(i.responsibleParty.contactPhoneNumber) }
            : null,
          patientPhone: toStoredPhone(i?.patientPhone),
          verified: true,
        })),
    uninsured: !!v.uninsured,
  });
}

const onPatientTab = (field: string) => field.startsWith('patient') || field.startsWith('insurances') || field === 'uninsured';

/** Tab switch that first validates the patient tab (spec 01 §2: patient, then case). */
function NextButton({ onNext }: { onNext: () => void }) {
  const { trigger } = useFormContext();
  return (
    <Button
      variant="contained"
      data-testid="create-next"
      onClick={async () => {
        if (await trigger(['patient', 'insurances'])) onNext();
      }}
    >
      Next
    </Button>
  );
}

/**
 * /cases/create (spec 01 §2, §5): two tabs, the patient (with insurances) then the case (source,
 * callback and the first request). Takes the search data, and a patientId when an existing
 * patient was chosen. Save posts the case and opens it.
 */
export function CaseCreatePage() {
  const { context } = useSession();
  const notify = useNotify();
  const navigate = useNavigate();
  const location = useLocation();
  const dp = useAppData();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  const search = useMemo(() => searchFromQuery(params), [params]);
  const patientId = num(params.get('patientId'));
  const [tab, setTab] = useState<'patient' | 'case'>('patient');
  const [activeCase, setActiveCase] = useState(false);
  const [existing, setExisting] = useState<Values | null | undefined>(patientId ? undefined : null);
  const division = useRef<DivisionInfo>({ divisionId: null, isIntegratedWithEMR: false });
  const onDivision = useCallback((d: DivisionInfo) => (division.current = d), []);
  const isItp = context.role === UserType.ItpAdmin || context.role === UserType.ItpUser;

  // An existing patient: ITP staff may read the record and start from it; others start from the search data.
  useEffect(() => {
    if (!patientId) return;
    if (!isItp) return setExisting(null);
    dp.patientForCase(patientId).then(
      (p) => setExisting(p),
      () => setExisting(null),
    );
  }, [patientId, isItp]);

  const defaults = useMemo(() => {
    // A new patient found in the EHR on the search screen: what the EHR knows fills in too.
    const fromEhr = existing ? null : recallEhrPatient(search?.patientEpicId);
    const p = existing ?? (fromEhr ? { gender: (GENDERS as readonly string[]).includes(fromEhr.gender ?? '') ? fromEhr.gender : null, phone: fromEhr.phone, address: fromEhr.address } : {});
    return {
      patient: {
        firstName: p.firstName ?? search?.firstName ?? '',
        lastName: p.lastName ?? search?.lastName ?? '',
        dateOfBirth: p.dateOfBirth ?? search?.dateOfBirth ?? '',
        gender: p.gender ?? null,
        phone: p.phone ?? '',
        isVeteran: !!p.isVeteran,
        homeless: !!p.homeless,
        ssn: p.ssn ?? '',
        address: {
          streetLine: p.address?.streetLine ?? '',
          apartmentNumber: p.address?.apartmentNumber ?? '',
          city: p.address?.city ?? '',
          state: p.address?.state ?? null,
          county: p.address?.county ?? '',
          zipCode: p.address?.zipCode ?? '',
        },
      },
      sourceFacilityId: isItp ? null : context.facilityId,
      sourceDivisionId: context.role === UserType.FacilityUser ? context.divisionId : null,
      notificationSendingMethod: 'PhoneCall',
      isInvoluntary: false,
      patientEpicId: search?.patientEpicId ?? '',
      encounterIdentifier: search?.encounterIdentifier ?? '',
      insurances: [],
      uninsured: false,
    };
  }, [existing, search, isItp, context]);

  const validate = (values: Values) => {
    const payload = toCasePayload(values, patientId) as any;
    const errors: FieldError[] = validatePayload('caseCreate', payload);
    const problems = caseCreateProblems(payload, { isItp, ehrIntegrated: division.current.isIntegratedWithEMR });
    if (!isItp && !payload.sourceDivisionId) problems.sourceDivisionId = 'required';
    errors.push(...problemsToFieldErrors(problems));
    return errors.length ? fieldErrorsToObject(errors) : {};
  };

  const submit = async (values: Values) => {
    try {
      const created = await dp.createCase(toCasePayload(values, patientId));
      notify('Case created', { type: 'success' });
      navigate(`/cases/${created.id}`);
    } catch (e) {
      if (isCodedError(e) && e.code === ErrorCode.PatientHasActiveCase) {
        setActiveCase(true);
        return;
      }
      if (isCodedError(e) && e.fields.length) {
        if (e.fields.some((f) => onPatientTab(f.field))) setTab('patient');
        return fieldErrorsToObject(e.fields);
      }
      notify(e instanceof Error ? e.message : 'The case could not be created', { type: 'error' });
    }
  };

  if (existing === undefined) return null;
  return (
    <ResourceContextProvider value="cases">
    <Box sx={{ maxWidth: 1100 }}>
      <PageTitle title="New case" />
      <Card>
        <Tabs value={tab} onChange={(_e, t) => setTab(t)} sx={{ borderBottom: 1, borderColor: 'divider', px: 2 }}>
          <Tab value="patient" label="Patient" data-testid="create-tab-patient" />
          <Tab value="case" label="Case" data-testid="create-tab-case" />
        </Tabs>
        <CardContent>
          <Form
            defaultValues={defaults}
            validate={validate}
            onSubmit={submit as any}
            mode="onSubmit"
            reValidateMode="onBlur"
            sanitizeEmptyValues={false}
            noValidate
          >
            <SubmitErrorsToTab onPatientErrors={() => setTab('patient')} />
            <Box sx={{ display: tab === 'patient' ? 'block' : 'none' }} data-testid="create-patient-tab">
              <PatientFields />
              <Box sx={{ mt: 2 }}>
                <InsuranceRows />
              </Box>
              <Stack direction="row" justifyContent="flex-end" spacing={1} sx={{ mt: 2 }}>
                <Button onClick={() => navigate('/dashboard')} data-testid="create-cancel">
                  Cancel
                </Button>
                <NextButton onNext={() => setTab('case')} />
              </Stack>
            </Box>
            <Box sx={{ display: tab === 'case' ? 'block' : 'none' }} data-testid="create-case-tab">
              <CaseFields patientId={patientId} onDivision={onDivision} />
              <Stack direction="row" justifyContent="flex-end" spacing={1} sx={{ mt: 2 }}>
                <Button onClick={() => setTab('patient')} data-testid="create-back">
                  Back
                </Button>
                <SaveButton />
              </Stack>
            </Box>
          </Form>
        </CardContent>
      </Card>
      <ActiveCaseDialog open={activeCase} onClose={() => setActiveCase(false)} />
    </Box>
    </ResourceContextProvider>
  );
}

function SaveButton() {
  const { formState } = useFormContext();
  return (
    <Button type="submit" variant="contained" disabled={formState.isSubmitting} data-testid="create-save">
      Save
    </Button>
  );
}

/** After a failed submit, shows the patient tab when the problems are there (the case tab is otherwise clean). */
function SubmitErrorsToTab({ onPatientErrors }: { onPatientErrors: () => void }) {
  const { formState } = useFormContext();
  const { submitCount, errors } = formState;
  useEffect(() => {
    const keys = Object.keys(errors ?? {});
    if (submitCount > 0 && keys.length && keys.every(onPatientTab)) onPatientErrors();
  }, [submitCount]);
  return null;
}
