import { Box, Chip, Typography } from '@mui/material';
import { BooleanInput, CreateButton, Datagrid, FunctionField, List, SearchInput, TextField, TopToolbar, useListContext } from 'react-admin';
import { Link } from 'react-router-dom';
import { getLastVisited, usePersistedScroll } from '../common/listPersistence';
import { ListPager } from '../common/ListPager';
import { PageTitle } from '../common/PageTitle';
import { inputTestId } from '../common/testId';

type Row = { id: number; name: string; code: string | null; planName: string | null; fullAddress: string | null; isActive: boolean };

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Search by name, code or plan" sx={{ minWidth: 300 }} {...inputTestId('payer-filter-q')} />,
  <BooleanInput key="active" source="showActiveOnly" label="Active only" alwaysOn helperText={false} sx={{ ml: 1 }} />,
];

function FoundTotal() {
  const { total, isPending } = useListContext();
  if (isPending || total === undefined) return null;
  return (
    <Typography variant="body2" color="text.secondary">
      {total} found
    </Typography>
  );
}

function Rows() {
  const { isPending, data } = useListContext();
  usePersistedScroll('payers', !isPending && !!data);
  const last = getLastVisited('payers');
  return (
    <Datagrid bulkActionButtons={false} rowClick={false} data-testid="payer-table">
      <FunctionField
        source="name"
        label="Name"
        render={(r: Row) => (
          <Link to={`/payers/${r.id}`} data-testid="payer-link" style={{ fontWeight: String(r.id) === last ? 600 : undefined }}>
            {r.name}
          </Link>
        )}
      />
      <TextField source="code" label="Code" emptyText="—" />
      <TextField source="planName" label="Plan name" emptyText="—" />
      <FunctionField label="Address" sortable={false} render={(r: Row) => r.fullAddress ?? '—'} />
      <FunctionField
        source="isActive"
        label="Status"
        render={(r: Row) => <Chip size="small" label={r.isActive ? 'Active' : 'Inactive'} color={r.isActive ? 'success' : 'default'} />}
      />
    </Datagrid>
  );
}

/** /payers (ITP admin, Insurance submenu): search, active only; default sort name ascending; state persists. */
export function PayerList() {
  return (
    <Box>
      <PageTitle title="Payers" />
      <List
        title=" "
        filters={filters}
        sort={{ field: 'name', order: 'ASC' }}
        perPage={25}
        pagination={<ListPager />}
        empty={false}
        storeKey="payers.listParams"
        actions={
          <TopToolbar sx={{ alignItems: 'center' }}>
            <FoundTotal />
            <CreateButton label="Add payer" data-testid="payer-add" />
          </TopToolbar>
        }
      >
        <Rows />
      </List>
    </Box>
  );
}
