import { CreateButton, Datagrid, FunctionField, SearchInput, TextField, TopToolbar, useListContext } from 'react-admin';
import { Link } from 'react-router-dom';
import { getLastVisited, usePersistedScroll } from '../common/listPersistence';
import { activeOnlyFilter, ActiveChipField, FoundTotal, ReferenceList } from '../common/ReferenceList';
import { inputTestId } from '../common/testId';

type Row = { id: number; name: string; code: string | null; planName: string | null; fullAddress: string | null; isActive: boolean };

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Search by name, code or plan" sx={{ minWidth: 300 }} {...inputTestId('payer-filter-q')} />,
  activeOnlyFilter,
];

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
      <ActiveChipField source="isActive" label="Status" />
    </Datagrid>
  );
}

/** /payers (ITP admin, Insurance submenu): search, active only; default sort name ascending; state persists. */
export function PayerList() {
  return (
    <ReferenceList
      title="Payers"
      filters={filters}
      storeKey="payers.listParams"
      actions={
        <TopToolbar sx={{ alignItems: 'center' }}>
          <FoundTotal />
          <CreateButton label="Add payer" data-testid="payer-add" />
        </TopToolbar>
      }
    >
      <Rows />
    </ReferenceList>
  );
}
