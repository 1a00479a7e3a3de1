import { Box, Stack, TextField as MuiTextField, Typography } from '@mui/material';
import { useEffect } from 'react';
import { BooleanInput, RadioButtonGroupInput, SelectInput, TextInput } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { UserType, type RequestType } from '@crisis/forms/core';
import { useSession } from '../../auth/session';
import { PhoneInput } from '../../common/PhoneInput';
import { humanize } from '../../common/humanize';
import { useAppQuery } from '../../data/query';
import { EhrIdInputs } from './EhrIdInputs';

export interface DivisionInfo {
  divisionId: number | null;
  isIntegratedWithEMR: boolean;
}

const NOTIFICATION_CHOICES = [
  { id: 'PhoneCall', name: 'Phone call' },
  { id: 'SMS', name: 'SMS' },
];

const num = (v: unknown) => (typeof v === 'number' ? v : v ? Number(v) : null);

/**
 * The case tab of /cases/create (spec 01 §5 Facility request / ITP request): where the patient is
 * (fixed to a facility user's own division; pickers for ITP staff), who to call back, and the
 * first request (types by the availability rules, providers credentialed for the division and the
 * patient's age).
 */
export function CaseFields({ patientId, onDivision }: { patientId: number | null; onDivision: (d: DivisionInfo) => void }) {
  const { context } = useSession();
  const { setValue } = useFormContext();
  const isItp = context.role === UserType.ItpAdmin || context.role === UserType.ItpUser;
  const fixedDivision = context.role === UserType.FacilityUser;
  const facilityId = num(useWatch({ name: 'sourceFacilityId' }));
  const divisionId = num(useWatch({ name: 'sourceDivisionId' }));
  const requestType = useWatch({ name: 'requestType' }) as RequestType | undefined;
  const dateOfBirth = useWatch({ name: 'patient.dateOfBirth' }) as string | undefined;

  const validDob = typeof dateOfBirth === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(dateOfBirth) ? dateOfBirth : null;
  const facilities = useAppQuery(['caseCreate', 'facilities'], (dp) => dp.sourceFacilities(), { enabled: isItp }).data ?? [];
  const divisions =
    useAppQuery(['caseCreate', 'divisions', facilityId], (dp) => dp.sourceDivisions(facilityId!), { enabled: !fixedDivision && !!facilityId }).data ?? [];
  const types = useAppQuery(['caseCreate', 'types', divisionId, patientId], (dp) => dp.newCaseRequestTypes(divisionId!, patientId), { enabled: !!divisionId }).data ?? [];
  const providers = useAppQuery(['caseCreate', 'providers', divisionId, validDob], (dp) => dp.newCaseProviders(divisionId!, validDob), { enabled: !!divisionId }).data ?? [];

  const division = divisions.find((d) => d.id === divisionId);
  const ehr = fixedDivision ? context.isIntegratedWithEMR : !!division?.isIntegratedWithEMR;
  useEffect(() => onDivision({ divisionId, isIntegratedWithEMR: ehr }), [divisionId, ehr, onDivision]);

  useEffect(() => {
    if (requestType && types.length && !types.includes(requestType)) setValue('requestType', null);
  }, [types, requestType, setValue]);

  const placementOnly = requestType === 'PlacementOnly';
  return (
    <>
      <Typography variant="subtitle2" color="text.secondary" sx={{ mb: 1 }}>
        Source
      </Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} columnGap={2}>
        {isItp ? (
          <SelectInput
            source="sourceFacilityId"
            label="Source facility *"
            choices={facilities.map((f) => ({ id: f.id, name: [f.name, [f.city, f.state].filter(Boolean).join(', ')].filter(Boolean).join(' — ') }))}
            onChange={() => setValue('sourceDivisionId', null)}
            fullWidth
            data-testid="case-source-facility"
          />
        ) : (
          <MuiTextField label="Source facility" value={context.facilityName ?? ''} fullWidth disabled size="small" margin="dense" sx={{ mb: 2.5 }} data-testid="case-source-facility-fixed" />
        )}
        {fixedDivision ? (
          <MuiTextField label="Source division" value={context.divisionName ?? ''} fullWidth disabled size="small" margin="dense" sx={{ mb: 2.5 }} data-testid="case-source-division-fixed" />
        ) : (
          <SelectInput
            source="sourceDivisionId"
            label="Source division *"
            choices={divisions}
            disabled={!facilityId}
            fullWidth
            data-testid="case-source-division"
          />
        )}
      </Stack>
      {ehr && (
        <EhrIdInputs
          divisionId={fixedDivision ? (context.divisionId ?? null) : divisionId}
          required
          paths={{ firstName: 'patient.firstName', lastName: 'patient.lastName', dateOfBirth: 'patient.dateOfBirth', gender: 'patient.gender', phone: 'patient.phone' }}
          testIdPrefix="case"
        />
      )}
      <Stack direction={{ xs: 'column', md: 'row' }} columnGap={2}>
        <TextInput source="attendingProvider" label="Attending provider" fullWidth data-testid="case-attending-provider" />
        <TextInput source="rnCaringForPatient" label="RN caring for patient" fullWidth data-testid="case-rn" />
        <PhoneInput source="contactPhoneNumber" label="Contact phone number *" fullWidth data-testid="case-contact-phone" />
      </Stack>
      <Stack direction={{ xs: 'column', md: 'row' }} columnGap={4} alignItems="center">
        <RadioButtonGroupInput source="notificationSendingMethod" label="Notify the facility by *" choices={NOTIFICATION_CHOICES} data-testid="case-notification-method" />
        <BooleanInput source="isInvoluntary" label="Involuntary" helperText={false} data-testid="case-involuntary" />
      </Stack>
      <Typography variant="subtitle2" color="text.secondary" sx={{ mt: 1, mb: 1 }}>
        Request
      </Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} columnGap={2}>
        <SelectInput
          source="requestType"
          label="Request type *"
          choices={types.map((t) => ({ id: t, name: humanize(t) }))}
          disabled={!divisionId && !fixedDivision}
          fullWidth
          data-testid="case-request-type"
        />
        {!placementOnly ? (
          <SelectInput
            source="evaluationProviderId"
            label={isItp ? 'Evaluation provider *' : 'Evaluation provider'}
            choices={providers.map((p) => ({ id: p.id, name: `${p.firstName} ${p.lastName}` }))}
            emptyText="—"
            disabled={!divisionId}
            fullWidth
            data-testid="case-provider"
          />
        ) : (
          <Box sx={{ width: '100%' }} />
        )}
      </Stack>
      <TextInput source="requestNote" label="Request note" multiline minRows={4} fullWidth inputProps={{ maxLength: 6000 }} data-testid="case-request-note" />
    </>
  );
}
