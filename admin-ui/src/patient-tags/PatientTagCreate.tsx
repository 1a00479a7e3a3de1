import { Create, SimpleForm, TextInput } from 'react-admin';
import { normalizeInput } from '@crisis/forms/core';
import { PageTitle } from '../common/PageTitle';
import { schemaValidator } from '../common/schemaValidation';
import { inputTestId } from '../common/testId';
import { SaveCancelToolbar, useSavedThen } from '../common/RecordForm';

const validate = schemaValidator('patientTag', (v: { name?: string }) => ({ name: v.name ?? null }));

/** /patient-tags/create: name required, at most 255 characters, unique (INV.NOT.UNIQ on name). */
export function PatientTagCreate() {
  const saved = useSavedThen('Patient tag created', 'list', 'patient-tags', true);
  return (
    <Create
      title=" "
      mutationMode="pessimistic"
      transform={(v: any) => normalizeInput({ name: v.name })}
      mutationOptions={saved}
    >
      <PageTitle title="New patient tag" />
      <SimpleForm validate={validate} mode="onTouched" reValidateMode="onChange" toolbar={<SaveCancelToolbar testId="patient-tag" back="/patient-tags" />}>
        <TextInput source="name" label="Name" isRequired fullWidth {...inputTestId('patient-tag-name')} />
      </SimpleForm>
    </Create>
  );
}
