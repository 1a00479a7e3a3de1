import { useState } from 'react';
import { Box, Button, Chip } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { BooleanInput, Datagrid, FunctionField, List, SearchInput, SelectInput, TextField, TopToolbar, useRefresh } from 'react-admin';
import { REQUEST_TYPES, SOURCE_TYPES, enumLabel } from '@crisis/forms';
import { ListPager } from '../common/ListPager';
import { PageTitle } from '../common/PageTitle';
import { inputTestId } from '../common/testId';
import { BillingCodeDialog, sourceTypeLabel } from './BillingCodeDialog';

type Row = { id: number; code: string; description: string; sourceDivisionTypes: string[]; requestTypes: string[]; isActive: boolean };

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Search by code or description" sx={{ minWidth: 300 }} {...inputTestId('billing-code-filter-q')} />,
  <BooleanInput key="active" source="showActiveOnly" label="Active only" alwaysOn helperText={false} sx={{ ml: 1 }} />,
  <SelectInput
    key="sdt"
    source="sourceDivisionType"
    label="Source type"
    alwaysOn
    emptyText="Any"
    choices={SOURCE_TYPES.map((t) => ({ id: t, name: sourceTypeLabel(t) }))}
  />,
  <SelectInput key="rt" source="requestType" label="Request type" alwaysOn emptyText="Any" choices={REQUEST_TYPES.map((t) => ({ id: t, name: enumLabel(t) }))} />,
];

/** /billing-codes (ITP admin, Insurance submenu): list with a create/edit modal; default sort code ascending. */
export function BillingCodeList() {
  const [open, setOpen] = useState<{ id: number | null } | null>(null);
  const refresh = useRefresh();
  return (
    <Box>
      <PageTitle title="Billing codes" />
      <List
        title=" "
        filters={filters}
        sort={{ field: 'code', order: 'ASC' }}
        perPage={25}
        pagination={<ListPager />}
        empty={false}
        storeKey={false}
        actions={
          <TopToolbar>
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setOpen({ id: null })} data-testid="billing-code-add">
              Add billing code
            </Button>
          </TopToolbar>
        }
      >
        <Datagrid bulkActionButtons={false} rowClick={(id) => (setOpen({ id: Number(id) }), false)} data-testid="billing-code-table">
          <TextField source="code" label="Code" />
          <TextField source="description" label="Description" />
          <FunctionField label="Source types" sortable={false} render={(r: Row) => r.sourceDivisionTypes.map(sourceTypeLabel).join(', ')} />
          <FunctionField label="Request types" sortable={false} render={(r: Row) => r.requestTypes.map(enumLabel).join(', ')} />
          <FunctionField
            source="isActive"
            label="Status"
            render={(r: Row) => <Chip size="small" label={r.isActive ? 'Active' : 'Inactive'} color={r.isActive ? 'success' : 'default'} />}
          />
        </Datagrid>
      </List>
      {open && (
        <BillingCodeDialog
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
