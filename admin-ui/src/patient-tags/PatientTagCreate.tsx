import { Button } from '@mui/material';
import { Create, SaveButton, SimpleForm, TextInput, Toolbar, useNotify, useRedirect } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { normalizeInput } from '@crisis/forms';
import { fieldErrorsOf } from '../billing-codes/codedFields';
import { PageTitle } from '../common/PageTitle';
import { schemaValidator } from '../common/schemaValidation';
import { inputTestId } from '../common/testId';

const validate = schemaValidator('patientTag', (v: { name?: string }) => ({ name: v.name ?? null }));

function FormToolbar() {
  const navigate = useNavigate();
  return (
    <Toolbar sx={{ gap: 1 }}>
      <SaveButton label="Save" data-testid="patient-tag-save" alwaysEnable />
      <Button variant="outlined" onClick={() => navigate('/patient-tags')} data-testid="patient-tag-cancel">
        Cancel
      </Button>
    </Toolbar>
  );
}

/** /patient-tags/create: name required, at most 255 characters, unique (INV.NOT.UNIQ on name). */
export function PatientTagCreate() {
  const notify = useNotify();
  const redirect = useRedirect();
  return (
    <Create
      title=" "
      mutationMode="pessimistic"
      transform={(v: any) => normalizeInput({ name: v.name })}
      mutationOptions={{
        onSuccess: () => {
          notify('Patient tag created', { type: 'success' });
          redirect('list', 'patient-tags');
        },
        onError: (error: unknown) => {
          // Field errors (INV, INV.NOT.UNIQ) are shown on the fields by the form itself.
          if (!fieldErrorsOf(error)) notify((error as Error).message, { type: 'error' });
        },
      }}
    >
      <PageTitle title="New patient tag" />
      <SimpleForm validate={validate} mode="onTouched" reValidateMode="onChange" toolbar={<FormToolbar />}>
        <TextInput source="name" label="Name" isRequired fullWidth {...inputTestId('patient-tag-name')} />
      </SimpleForm>
    </Create>
  );
}
