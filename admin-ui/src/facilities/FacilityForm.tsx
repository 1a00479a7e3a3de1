import { Button } from '@mui/material';
import { SaveButton, SimpleForm, Toolbar } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { FacilityGeneralFields } from './FacilityGeneralFields';
import { NEW_FACILITY_DEFAULTS, validateFacility } from './facilityPayload';

function FacilityFormToolbar() {
  const navigate = useNavigate();
  return (
    <Toolbar sx={{ gap: 1 }}>
      <SaveButton label="Save" data-testid="facility-save" alwaysEnable />
      <Button variant="outlined" onClick={() => navigate('/facilities')} data-testid="facility-cancel">
        Cancel
      </Button>
    </Toolbar>
  );
}

/** The ITP admin's general tab: every field of the facility, validated by the shared schema. */
export function FacilityForm({ isNew }: { isNew: boolean }) {
  return (
    <SimpleForm
      validate={validateFacility}
      mode="onTouched"
      reValidateMode="onChange"
      defaultValues={isNew ? NEW_FACILITY_DEFAULTS : undefined}
      toolbar={<FacilityFormToolbar />}
      sx={{ p: 0 }}
    >
      <FacilityGeneralFields mode="full" />
    </SimpleForm>
  );
}
