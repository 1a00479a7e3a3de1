import { CreateButton, Datagrid, DeleteWithConfirmButton, SearchInput, TextField, TopToolbar, useNotify } from 'react-admin';
import { ReferenceList } from '../common/ReferenceList';
import { inputTestId } from '../common/testId';

const filters = [<SearchInput key="q" source="q" alwaysOn placeholder="Search by name" {...inputTestId('patient-tag-filter-q')} />];

/** Removal asks first (spec 03 §8: a confirmation dialog precedes removals). */
export function RemoveTagButton() {
  const notify = useNotify();
  return (
    <DeleteWithConfirmButton
      label="Remove"
      confirmTitle="Remove patient tag"
      confirmContent="Remove this patient tag?"
      mutationMode="pessimistic"
      redirect="list"
      mutationOptions={{ onSuccess: () => notify('Patient tag removed', { type: 'success' }) }}
      data-testid="patient-tag-remove"
    />
  );
}

/** /patient-tags (ITP admin): name search, default sort name ascending. */
export function PatientTagList() {
  return (
    <ReferenceList
      title="Patient tags"
      filters={filters}
      actions={
        <TopToolbar>
          <CreateButton label="Add patient tag" data-testid="patient-tag-add" />
        </TopToolbar>
      }
    >
      <Datagrid bulkActionButtons={false} rowClick="edit" data-testid="patient-tag-table">
        <TextField source="name" label="Name" />
        <RemoveTagButton />
      </Datagrid>
    </ReferenceList>
  );
}
