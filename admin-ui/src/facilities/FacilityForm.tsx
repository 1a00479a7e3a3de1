import { SimpleForm } from 'react-admin';
import { FacilityGeneralFields } from './FacilityGeneralFields';
import { NEW_FACILITY_DEFAULTS, validateFacility } from './facilityPayload';
import { SaveCancelToolbar } from '../common/RecordForm';

/** The ITP admin's general tab: every field of the facility, validated by the shared schema. */
export function FacilityForm({ isNew }: { isNew: boolean }) {
  return (
    <SimpleForm
      validate={validateFacility}
      mode="onTouched"
      reValidateMode="onChange"
      defaultValues={isNew ? NEW_FACILITY_DEFAULTS : undefined}
      toolbar={<SaveCancelToolbar testId="facility" back="/facilities" />}
      sx={{ p: 0 }}
    >
      <FacilityGeneralFields mode="full" />
    </SimpleForm>
  );
}
