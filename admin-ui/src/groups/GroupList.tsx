import { useState } from 'react';
import { Box, Button, Chip } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { BooleanInput, Datagrid, FunctionField, List, SearchInput, TextField, TopToolbar, useRefresh } from 'react-admin';
import type { GroupOrganizationRecord } from '@crisis/forms';
import { ListPager } from '../common/ListPager';
import { PageTitle } from '../common/PageTitle';
import { inputTestId } from '../common/testId';
import { GroupDialog } from './GroupDialog';

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Search by name" {...inputTestId('group-filter-q')} />,
  <BooleanInput key="active" source="showActiveOnly" label="Active only" alwaysOn helperText={false} sx={{ ml: 1 }} />,
];

/** /group-organizations (ITP admin): name search and active-only filter; add/edit in a modal. */
export function GroupList() {
  const [open, setOpen] = useState<{ id: number | null } | null>(null);
  const refresh = useRefresh();
  return (
    <Box>
      <PageTitle title="Group organizations" />
      <List
        title=" "
        filters={filters}
        sort={{ field: 'name', order: 'ASC' }}
        perPage={25}
        pagination={<ListPager />}
        empty={false}
        storeKey={false}
        actions={
          <TopToolbar>
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setOpen({ id: null })} data-testid="group-add">
              Add group
            </Button>
          </TopToolbar>
        }
      >
        <Datagrid bulkActionButtons={false} rowClick={(id) => (setOpen({ id: Number(id) }), false)} data-testid="group-table">
          <TextField source="name" label="Name" />
          <FunctionField label="States" sortable={false} render={(r: GroupOrganizationRecord) => r.states.join(', ')} />
          <FunctionField label="Counties" sortable={false} render={(r: GroupOrganizationRecord) => r.counties.join(', ') || '—'} />
          <FunctionField label="Facilities" sortable={false} render={(r: GroupOrganizationRecord) => r.facilities.length} />
          <FunctionField label="MFA" sortable={false} render={(r: GroupOrganizationRecord) => (r.mfaEnabled ? 'On' : 'Off')} />
          <FunctionField
            source="isActive"
            label="Status"
            render={(r: GroupOrganizationRecord) => (
              <Chip size="small" label={r.isActive ? 'Active' : 'Inactive'} color={r.isActive ? 'success' : 'default'} />
            )}
          />
        </Datagrid>
      </List>
      {open && (
        <GroupDialog
          id={open.id}
          onClose={() => setOpen(null)}
          onSaved={() => {
            setOpen(null);
            refresh();
          }}
        />
      )}
    </Box>
  );
}
