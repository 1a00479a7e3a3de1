import { Box } from '@mui/material';
import { CreateButton, Datagrid, DeleteWithConfirmButton, List, SearchInput, TextField, TopToolbar, useNotify } from 'react-admin';
import { ListPager } from '../common/ListPager';
import { PageTitle } from '../common/PageTitle';
import { inputTestId } from '../common/testId';

const filters = [<SearchInput key="q" source="q" alwaysOn placeholder="Search by name" {...inputTestId('patient-tag-filter-q')} />];

function Actions() {
  return (
    <TopToolbar>
      <CreateButton label="Add patient tag" data-testid="patient-tag-add" />
    </TopToolbar>
  );
}

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
    <Box>
      <PageTitle title="Patient tags" />
      <List
        title=" "
        filters={filters}
        sort={{ field: 'name', order: 'ASC' }}
        perPage={25}
        pagination={<ListPager />}
        actions={<Actions />}
        empty={false}
        storeKey={false}
      >
        <Datagrid bulkActionButtons={false} rowClick="edit" data-testid="patient-tag-table">
          <TextField source="name" label="Name" />
          <RemoveTagButton />
        </Datagrid>
      </List>
    </Box>
  );
}
