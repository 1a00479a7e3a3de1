import { useCallback, useState } from 'react';
import { Alert, Box, Button, Chip, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TablePagination, TextField, Typography } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import HistoryIcon from '@mui/icons-material/History';
import LockIcon from '@mui/icons-material/Lock';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { BooleanInput, DateInput, SelectInput, TextInput, useNotify } from 'react-admin';
import { useWatch } from 'react-hook-form';
import {
  ErrorCode,
  GENDERS,
  formatDateTime,
  formatPhone,
  formatSsn,
  lockedPatientFields,
  patientReference,
  type PatientChangeLogRow,
  type PatientInput,
} from '@crisis/forms/core';
import { useSession } from '../../auth/session';
import { FormDialog } from '../../common/FormDialog';
import { InfoDialog, type InfoDialogContent } from '../../common/InfoDialog';
import { PhoneInput } from '../../common/PhoneInput';
import { AddressFields } from '../../common/AddressFields';
import { schemaValidator } from '../../common/schemaValidation';
import { SimpleTable } from '../../common/SimpleTable';
import { isCodedError } from '../../data/codedError';
import { keys, useAppData, useAppQuery } from '../../data/query';
import type { CaseCardProps, CaseDetails } from '../types';
import { CaseCard } from './CaseCard';
import { EhrPatientPanel } from './EhrPatientPanel';
import { addressLine, InfoRow as Row, TitleIconButton } from './InfoRow';
import { onSourceSide } from '../sourceSide';

const GENDER_CHOICES = GENDERS.map((g) => ({ id: g, name: g.replace('_', ' ') }));
const FIELD_LABELS: Record<string, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  dateOfBirth: 'Date of birth',
  gender: 'Gender',
  phone: 'Phone',
  isVeteran: 'Veteran',
  homeless: 'Homeless',
  address: 'Address',
  city: 'City',
  zipCode: 'Zip',
  state: 'State',
  county: 'County',
};
const LOCKED_MESSAGE: InfoDialogContent = {
  title: 'This value cannot be changed',
  message: 'While the case is contacting service organizations, the veteran flag, date of birth and gender of the patient cannot be changed.',
  items: [],
};

/** 'YYYY-MM-DD' → MM/dd/yyyy without a time-zone shift. */
export const formatDob = (d: string | null | undefined) => (d && /^\d{4}-\d{2}-\d{2}/.test(d) ? `${d.slice(5, 7)}/${d.slice(8, 10)}/${d.slice(0, 4)}` : '');
const yesNo = (v: string | null): string | null => (v === 'true' ? 'Yes' : v === 'false' ? 'No' : v || null);
const genderLabel = (g: string) => g.replace('_', ' ');

type Patient = CaseDetails['patient'];

const toPayload = (v: any, original: Patient): PatientInput => {
  // Locked (disabled) inputs are not submitted: keep the stored values for them.
  const pick = <K extends keyof PatientInput>(k: K) => (v[k] === undefined ? (original as any)[k] : v[k]);
  return {
    firstName: v.firstName ?? null,
    lastName: v.lastName ?? null,
    dateOfBirth: pick('dateOfBirth'),
    gender: pick('gender'),
    phone: v.phone ?? null,
    isVeteran: !!pick('isVeteran'),
    homeless: !!v.homeless,
    ssn: pick('isVeteran') ? (v.ssn ?? null) : null,
    address: {
      streetLine: v.address?.streetLine ?? null,
      apartmentNumber: v.address?.apartmentNumber ?? null,
      city: v.address?.city ?? null,
      state: v.address?.state ?? null,
      county: v.address?.county ?? null,
      zipCode: v.address?.zipCode ?? null,
    },
    outpatientProviderName: v.outpatientProviderName ?? null,
    outpatientProviderPhone: v.outpatientProviderPhone ?? null,
  } as PatientInput;
};

/** A field shown but fixed while contacting: clicking it explains why (spec 01 §8). */
function Locked({ label, value, onExplain, testId }: { label: string; value: string; onExplain: () => void; testId: string }) {
  return (
    <TextField
      label={label}
      value={value}
      size="small"
      margin="dense"
      onClick={onExplain}
      sx={{ minWidth: 200, mb: 2.5 }}
      slotProps={{
        htmlInput: { readOnly: true, 'data-testid': testId },
        input: { endAdornment: <LockIcon fontSize="small" color="disabled" /> },
      }}
    />
  );
}

function PatientFormFields({ locked, patient, onExplain }: { locked: readonly string[]; patient: Patient; onExplain: () => void }) {
  const isVeteran = useWatch({ name: 'isVeteran' });
  const homeless = useWatch({ name: 'homeless' });
  const veteran = locked.includes('isVeteran') ? patient.isVeteran : isVeteran;
  return (
    <>
      <Stack direction={{ xs: 'column', md: 'row' }} columnGap={2}>
        <TextInput source="firstName" label="First name *" fullWidth data-testid="pe-first-name" />
        <TextInput source="lastName" label="Last name *" fullWidth data-testid="pe-last-name" />
        {locked.includes('dateOfBirth') ? (
          <Locked label="Date of birth" value={formatDob(patient.dateOfBirth)} onExplain={onExplain} testId="pe-dob-locked" />
        ) : (
          <DateInput source="dateOfBirth" label="Date of birth *" fullWidth data-testid="pe-dob" />
        )}
      </Stack>
      <Stack direction={{ xs: 'column', md: 'row' }} columnGap={2} alignItems="flex-start">
        {locked.includes('gender') ? (
          <Locked label="Gender" value={genderLabel(patient.gender)} onExplain={onExplain} testId="pe-gender-locked" />
        ) : (
          <SelectInput source="gender" label="Gender *" choices={GENDER_CHOICES} fullWidth data-testid="pe-gender" />
        )}
        <PhoneInput source="phone" label="Phone" fullWidth data-testid="pe-phone" />
      </Stack>
      <Stack direction="row" columnGap={2} alignItems="center">
        {locked.includes('isVeteran') ? (
          <Locked label="Veteran" value={patient.isVeteran ? 'Yes' : 'No'} onExplain={onExplain} testId="pe-veteran-locked" />
        ) : (
          <BooleanInput source="isVeteran" label="Veteran" helperText={false} data-testid="pe-veteran" />
        )}
        <BooleanInput source="homeless" label="Homeless" helperText={false} data-testid="pe-homeless" />
      </Stack>
      {veteran && <TextInput source="ssn" label="SSN *" placeholder="123-45-6789" parse={formatSsn} data-testid="pe-ssn" />}
      {homeless && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          The patient is homeless.
        </Alert>
      )}
      <AddressFields
        source="address"
        testIdOn="root"
        testIds={{ street: 'pe-street', city: 'pe-city', county: 'pe-county' }}
        labels={{ apartment: 'Apartment', county: 'County *' }}
      />
      <Stack direction={{ xs: 'column', md: 'row' }} columnGap={2}>
        <TextInput source="outpatientProviderName" label="Outpatient psychiatric provider" fullWidth />
        <PhoneInput source="outpatientProviderPhone" label="Provider phone" fullWidth />
      </Stack>
    </>
  );
}

function PatientEditDialog({ caseRecord, onClose, onSaved }: { caseRecord: CaseDetails; onClose: () => void; onSaved: () => void }) {
  const notify = useNotify();
  const dp = useAppData();
  const patient = caseRecord.patient;
  const locked = lockedPatientFields(caseRecord.status);
  const [info, setInfo] = useState<InfoDialogContent | null>(null);
  const validate = schemaValidator('patient', (v: any) => toPayload(v, patient));
  const submit = async (values: any) => {
    try {
      await dp.caseUpdatePatient(caseRecord.id, toPayload(values, patient));
      notify('Patient saved', { type: 'success' });
      onSaved();
    } catch (e) {
      if (isCodedError(e) && e.code === ErrorCode.PatientLockedWhileContacting) return void setInfo(LOCKED_MESSAGE);
      if (isCodedError(e) && e.code === ErrorCode.CaseIsClosed) return void setInfo({ title: 'The case is closed', message: 'A closed case cannot be edited.', items: [] });
      if (isCodedError(e) && (e.body as any)?.errors) return (e.body as any).errors;
      notify((e as Error).message, { type: 'error' });
    }
  };
  const record = { ...patient, ssn: patient.ssn ?? null };
  return (
    <FormDialog
      title="Edit patient"
      testId="pe"
      dialogTestId="patient-edit-dialog"
      maxWidth="md"
      form={{ record, onSubmit: submit, validate, sanitizeEmptyValues: false }}
      onClose={onClose}
      dialogs={<InfoDialog content={info} onClose={() => setInfo(null)} />}
    >
      {locked.length > 0 && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="pe-locked-note">
          While contacting service organizations the veteran flag, date of birth and gender cannot be changed.
        </Alert>
      )}
      <PatientFormFields locked={locked} patient={patient} onExplain={() => setInfo(LOCKED_MESSAGE)} />
    </FormDialog>
  );
}

const logValue = (r: PatientChangeLogRow, v: string | null) => yesNo(r.name === 'dateOfBirth' ? formatDob(v) : v) ?? '—';

function PatientLogDialog({ caseId, onClose }: { caseId: number; onClose: () => void }) {
  const [page, setPage] = useState(0);
  const { data, error } = useAppQuery(keys.case(caseId, 'patientLogs', page), (dp) => dp.casePatientLogs(caseId, page + 1), {
    placeholderData: (previous) => previous,
  });
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth data-testid="patient-log-dialog">
      <DialogTitle>Patient change log</DialogTitle>
      <DialogContent dividers>
        {error && <Alert severity="error">{error}</Alert>}
        {!data && !error && <CircularProgress />}
        {data && data.total === 0 && <Typography color="text.secondary">No changes yet.</Typography>}
        {data && data.total > 0 && (
          <>
            <SimpleTable<PatientChangeLogRow>
              columns={[
                { label: 'Changed', render: (r) => formatDateTime(r.changedAt) },
                { label: 'By', render: (r) => r.changedBy.fullName },
                { label: 'Field', render: (r) => FIELD_LABELS[r.name] ?? r.name },
                { label: 'Old value', render: (r) => logValue(r, r.oldValue) },
                { label: 'New value', render: (r) => logValue(r, r.newValue) },
              ]}
              rows={data.rows}
              rowKey={(r) => r.id}
              rowProps={() => ({ 'data-testid': 'patient-log-row' })}
            />
            {data.total > data.pageSize && (
              <TablePagination
                component="div"
                count={data.total}
                page={page}
                rowsPerPage={data.pageSize}
                rowsPerPageOptions={[data.pageSize]}
                onPageChange={(_e, p) => setPage(p)}
              />
            )}
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * Patient information card of the case page (spec 01 §2, §3 Patient, §5 Patient form, §6): the
 * patient with homeless warning, veteran, address and phone; Edit (the patient form, fields locked
 * while contacting); the change log paged at 10; the patient-history button for ITP roles.
 */
export function PatientCard({ caseRecord, onChanged }: CaseCardProps) {
  const { ability, context } = useSession();
  const [editing, setEditing] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const p = caseRecord.patient;
  const closed = caseRecord.status === 'Closed';
  const canEdit = ability.can('update', 'Case') && !closed && onSourceSide(context, caseRecord);
  const canLog = ability.can('read', 'PatientLog');
  const canHistory = ability.can('access', 'PatientHistory');
  const openHistory = useCallback(() => window.open(`/patients/${p.id}/history`, '_blank', 'noopener'), [p.id]);
  const address = addressLine(p.address);
  return (
    <CaseCard
      title="Patient information"
      testId="patient-card"
      variant="outlined"
      dense
      action={
        <Stack direction="row">
          {canHistory && <TitleIconButton title="Patient history (new tab)" testId="patient-history-button" onClick={openHistory} icon={<OpenInNewIcon />} />}
          {canLog && <TitleIconButton title="Change log" testId="patient-log-button" onClick={() => setShowLog(true)} icon={<HistoryIcon />} />}
          {canEdit && <TitleIconButton title="Edit patient" testId="patient-edit-button" onClick={() => setEditing(true)} icon={<EditIcon />} />}
        </Stack>
      }
      dialogs={
        <>
          {editing && (
            <PatientEditDialog
              caseRecord={caseRecord}
              onClose={() => setEditing(false)}
              onSaved={() => {
                setEditing(false);
                onChanged();
              }}
            />
          )}
          {showLog && <PatientLogDialog caseId={caseRecord.id} onClose={() => setShowLog(false)} />}
        </>
      }
    >
      {p.homeless && (
        <Alert severity="warning" sx={{ mb: 1 }} data-testid="patient-homeless-warning">
          The patient is homeless.
        </Alert>
      )}
      <EhrPatientPanel caseRecord={caseRecord} canEdit={canEdit} onChanged={onChanged} />
      <Typography variant="subtitle1" data-testid="patient-name">
        {p.firstName} {p.lastName}{' '}
        <Typography component="span" variant="body2" color="text.secondary">
          #{patientReference(p.id)}
        </Typography>
      </Typography>
      <Box sx={{ mt: 1 }}>
        <Row label="Date of birth" testId="patient-dob">
          {formatDob(p.dateOfBirth)}
        </Row>
        <Row label="Gender">{genderLabel(p.gender)}</Row>
        <Row label="Veteran" testId="patient-veteran">
          {p.isVeteran ? <Chip size="small" color="primary" label="Veteran" /> : 'No'}
        </Row>
        <Row label="Phone" testId="patient-phone">
          {p.phone ? formatPhone(p.phone) : '—'}
        </Row>
        <Row label="Address" testId="patient-address">
          {address || '—'}
        </Row>
        {p.address.county && <Row label="County">{p.address.county}</Row>}
        {p.outpatientProviderName && (
          <Row label="Outpatient provider">
            {p.outpatientProviderName}
            {p.outpatientProviderPhone ? `, ${formatPhone(p.outpatientProviderPhone)}` : ''}
          </Row>
        )}
      </Box>
    </CaseCard>
  );
}
