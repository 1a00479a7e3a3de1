import { Box, Typography } from '@mui/material';
import { NumberInput, TextInput, useNotify, useRecordContext } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { ErrorCode, DEFAULT_MESSAGES } from '@crisis/forms/core';
import { AddressFields } from '../common/AddressFields';
import { CheckboxInput } from '../common/CheckboxInput';
import { ContactsFields } from '../common/ContactsFields';
import { inputTestId } from '../common/testId';
import type { FacilityRecord } from './facilityTypes';

/** 'full': the ITP admin's form. 'mfaOnly': a facility admin's own facility, only MFA editable, no status. */
export type FacilityFormMode = 'full' | 'mfaOnly';

const row = { display: 'grid', gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' }, columnGap: 2 } as const;

/** Unchecking "Active" is refused while the facility has active divisions (spec 03 §4). */
function ActiveCheckbox() {
  const record = useRecordContext<FacilityRecord>();
  const { setValue } = useFormContext();
  const notify = useNotify();
  return (
    <CheckboxInput
      source="isActive"
      label="Active"
      testId="facility-isActive"
      onUserChange={(checked) => {
        if (!checked && (record?.hasActiveSourceDivision || record?.hasActiveReferringDivision)) {
          setValue('isActive', true, { shouldDirty: false });
          notify(DEFAULT_MESSAGES[ErrorCode.DeactivateFacilityWithActiveDivisions], { type: 'warning' });
        }
      }}
    />
  );
}

export function FacilityGeneralFields({ mode }: { mode: FacilityFormMode }) {
  const locked = mode === 'mfaOnly';
  const manualGeo = useWatch({ name: 'isGeoPositionManually' });
  return (
    <Box sx={{ width: '100%', maxWidth: 1100 }}>
      <TextInput source="name" label="Name *" disabled={locked} fullWidth {...inputTestId('facility-name')} />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 3 }}>
        <CheckboxInput source="allowReferringDivisionsAccess" label="Allow referring divisions access" disabled={locked} />
        <CheckboxInput source="allowPlacementOnlyCases" label="Allow placement only cases" disabled={locked} />
        {!locked && <ActiveCheckbox />}
        <CheckboxInput source="isMfaEnabled" label="MFA enabled" testId="facility-isMfaEnabled" />
      </Box>

      <Typography variant="subtitle2" sx={{ mt: 2 }}>
        Address
      </Typography>
      <AddressFields
        source="address"
        geoSource="geoPosition"
        manualGeoSource="isGeoPositionManually"
        disabled={locked}
        testIdOn="input"
        testIds={{
          street: 'facility-streetLine',
          apartment: 'facility-apartmentNumber',
          city: 'facility-city',
          state: 'facility-state',
          zip: 'facility-zipCode',
          county: 'facility-county',
        }}
      />
      <CheckboxInput source="isGeoPositionManually" label="Set geo position manually" disabled={locked} />
      <Box sx={row}>
        <NumberInput
          source="geoPosition.latitude"
          label="Latitude *"
          disabled={locked}
          readOnly={!locked && !manualGeo}
          step={0.000001}
          {...inputTestId('facility-latitude')}
        />
        <NumberInput
          source="geoPosition.longitude"
          label="Longitude *"
          disabled={locked}
          readOnly={!locked && !manualGeo}
          step={0.000001}
          {...inputTestId('facility-longitude')}
        />
        <TextInput source="ehrDepartmentId" label="EHR department id" disabled={locked} {...inputTestId('facility-ehrDepartmentId')} />
      </Box>
      <TextInput source="description" label="Description" multiline minRows={2} fullWidth disabled={locked} {...inputTestId('facility-description')} />
      <ContactsFields testIdPrefix="facility" disabled={locked} />
    </Box>
  );
}
