import { useState } from 'react';
import { Box, Typography } from '@mui/material';
import { BooleanInput, SelectArrayInput, SelectInput, SimpleForm, TextInput } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import {
  ORGANIZATION_TYPES,
  OrganizationType,
  PROVIDER_TYPES,
  USER_TYPES_BY_ORGANIZATION_TYPE,
  USER_TYPE_LABELS,
  UserType,
  enumLabel,
  onOrganizationChange,
  onOrganizationTypeChange,
  onUserTypeChange,
  type UserFormValues,
} from '@crisis/forms/core';
import { useSession } from '../auth/session';
import { PhoneInput } from '../common/PhoneInput';
import { inputTestId } from '../common/testId';
import { useChoices } from './useChoices';
import { validateUser } from './userPayload';
import { SaveCancelToolbar } from '../common/RecordForm';


/** Applies a form-dynamics rule of forms/ (spec 03 §4) to the form's values. */
function useApply() {
  const { getValues, setValue } = useFormContext();
  return (rule: (v: UserFormValues) => UserFormValues) => {
    const next = rule(getValues() as UserFormValues);
    for (const key of ['organizationType', 'organizationId', 'userType', 'divisionsIds', 'providerInfo', 'sendUserUnlockRequeststoThisUser'])
      if (key in next) setValue(key, (next as any)[key], { shouldDirty: true });
  };
}

function AffiliationFields({ isNew }: { isNew: boolean }) {
  const { context } = useSession();
  const apply = useApply();
  const organizationType = useWatch({ name: 'organizationType' }) as OrganizationType;
  const organizationId = useWatch({ name: 'organizationId' }) as number | null;
  const userType = useWatch({ name: 'userType' }) as UserType;
  const { getValues } = useFormContext();
  const [initialUserType] = useState(() => getValues('userType'));
  const isFacilityAdmin = context.role === UserType.FacilityAdmin;
  const facilities = useChoices(organizationType === OrganizationType.Facility && !isFacilityAdmin ? '/api/facilities/lookups' : null);
  const groups = useChoices(organizationType === OrganizationType.Group ? `/api/group-organizations?range=${encodeURIComponent('[0,999]')}` : null);
  const divisions = useChoices(
    organizationType === OrganizationType.Facility && organizationId && userType === UserType.FacilityUser
      ? `/api/facilities/${organizationId}/divisions/lookups`
      : null,
  );
  const fixed = !isNew; // organization type and organization are fixed after creation
  const userTypeChoices = (USER_TYPES_BY_ORGANIZATION_TYPE[organizationType] ?? []).map((t) => ({ id: t, name: USER_TYPE_LABELS[t] }));
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', width: '100%', maxWidth: 520 }}>
      <Typography variant="subtitle1" sx={{ mt: 2 }}>
        Affiliation
      </Typography>
      {!isFacilityAdmin && (
        <SelectInput
          source="organizationType"
          label="Organization type"
          choices={ORGANIZATION_TYPES.map((t) => ({ id: t, name: t === OrganizationType.ITP ? 'ITP' : enumLabel(t) }))}
          disabled={fixed}
          onChange={(e: any) => apply((v) => onOrganizationTypeChange(v, e.target.value))}
          data-testid="user-organizationType"
        />
      )}
      {organizationType === OrganizationType.Facility && !isFacilityAdmin && (
        <SelectInput
          source="organizationId"
          label="Facility"
          choices={facilities}
          disabled={fixed}
          onChange={(e: any) => apply((v) => onOrganizationChange(v, Number(e.target.value) || null))}
          data-testid="user-organizationId"
        />
      )}
      {organizationType === OrganizationType.Group && (
        <SelectInput
          source="organizationId"
          label="Group organization"
          choices={groups}
          disabled={fixed}
          onChange={(e: any) => apply((v) => onOrganizationChange(v, Number(e.target.value) || null))}
          data-testid="user-organizationId"
        />
      )}
      <SelectInput
        source="userType"
        label="User type"
        choices={userTypeChoices}
        disabled={!isNew && initialUserType === UserType.ItpProvider}
        onChange={(e: any) => apply((v) => onUserTypeChange(v, e.target.value))}
        data-testid="user-userType"
      />
      {userType === UserType.FacilityUser && (
        <SelectArrayInput source="divisionsIds" label="Divisions" choices={divisions} data-testid="user-divisionsIds" />
      )}
      {(userType === UserType.ItpUser || userType === UserType.ItpAdmin) && (
        <BooleanInput source="sendUserUnlockRequeststoThisUser" label="Send user unlock requests to this user" />
      )}
      {userType === UserType.ItpProvider && (
        <>
          <Typography variant="subtitle1" sx={{ mt: 2 }}>
            Provider info
          </Typography>
          <SelectInput source="providerInfo.providerType" label="Provider type" choices={PROVIDER_TYPES.map((t) => ({ id: t, name: t }))} />
          <TextInput source="providerInfo.npi" label="NPI" {...inputTestId('user-npi')} />
          <TextInput source="providerInfo.biography" label="Biography" multiline minRows={3} />
          <TextInput source="providerInfo.videoHostId" label="Video host id" />
          <TextInput source="providerInfo.dialPadUrl" label="DialPad URL" />
        </>
      )}
    </Box>
  );
}

/** Invite and edit (spec 03 §5 Invite/edit user), with the §4 form dynamics written in forms/. */
export function UserForm({ isNew, defaultValues }: { isNew: boolean; defaultValues?: Record<string, unknown> }) {
  return (
    <SimpleForm validate={validateUser} mode="onTouched" reValidateMode="onChange" defaultValues={defaultValues} toolbar={<SaveCancelToolbar testId="user" back="/users" />}>
      <Box sx={{ display: 'flex', flexDirection: 'column', width: '100%', maxWidth: 520 }}>
        <TextInput source="firstName" label="First name" {...inputTestId('user-firstName')} />
        <TextInput source="lastName" label="Last name" {...inputTestId('user-lastName')} />
        <TextInput source="email" label="E-mail" type="email" {...inputTestId('user-email')} />
        <PhoneInput source="phone" label="Phone" {...inputTestId('user-phone')} />
        <TextInput source="jobTitle" label="Job title" {...inputTestId('user-jobTitle')} />
        <BooleanInput source="isEnabled" label="Enabled" />
      </Box>
      <AffiliationFields isNew={isNew} />
    </SimpleForm>
  );
}
