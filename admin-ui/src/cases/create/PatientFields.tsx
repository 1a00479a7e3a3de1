import { Alert, Stack, Typography } from '@mui/material';
import { BooleanInput, DateInput, SelectInput, TextInput } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { GENDERS, formatSsn } from '@crisis/forms/core';
import { PhoneInput } from '../../common/PhoneInput';
import { AddressFields } from '../../common/AddressFields';
import { humanize } from '../../common/humanize';

const GENDER_CHOICES = GENDERS.map((g) => ({ id: g, name: humanize(g).replace(': ', ' ') }));

/** The patient form of a new case (spec 01 §5 Patient form); sources under `patient.`. */
export function PatientFields() {
  const isVeteran = useWatch({ name: 'patient.isVeteran' });
  const homeless = useWatch({ name: 'patient.homeless' });
  return (
    <>
      <Stack direction={{ xs: 'column', md: 'row' }} columnGap={2}>
        <TextInput source="patient.firstName" label="First name *" fullWidth data-testid="patient-first-name" />
        <TextInput source="patient.lastName" label="Last name *" fullWidth data-testid="patient-last-name" />
        <DateInput source="patient.dateOfBirth" label="Date of birth *" fullWidth data-testid="patient-dob" />
      </Stack>
      <Stack direction={{ xs: 'column', md: 'row' }} columnGap={2} alignItems="flex-start">
        <SelectInput source="patient.gender" label="Gender *" choices={GENDER_CHOICES} fullWidth data-testid="patient-gender" />
        <PhoneInput source="patient.phone" label="Phone" fullWidth data-testid="patient-phone" />
        <Stack direction="row" sx={{ width: '100%', pt: 1 }} columnGap={2}>
          <BooleanInput source="patient.isVeteran" label="Veteran" helperText={false} data-testid="patient-veteran" />
          <BooleanInput source="patient.homeless" label="Homeless" helperText={false} data-testid="patient-homeless" />
        </Stack>
      </Stack>
      {isVeteran && (
        <TextInput
          source="patient.ssn"
          label="SSN *"
          placeholder="123-45-6789"
          parse={formatSsn}
          sx={{ width: { xs: '100%', md: 'calc(33.3% - 11px)' } }}
          data-testid="patient-ssn"
        />
      )}
      {homeless && (
        <Alert severity="warning" sx={{ mb: 2 }} data-testid="homeless-warning">
          The patient is homeless: give the address where the patient is staying or was found.
        </Alert>
      )}
      <Typography variant="subtitle2" color="text.secondary" sx={{ mt: 1, mb: 1 }}>
        Address
      </Typography>
      <AddressFields
        source="patient.address"
        testIdOn="root"
        testIds={{ street: 'patient-street', apartment: 'patient-apartment', city: 'patient-city', state: 'patient-state', county: 'patient-county', zip: 'patient-zip' }}
        labels={{ apartment: 'Apartment', county: 'County *' }}
      />
    </>
  );
}
