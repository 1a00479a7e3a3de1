import { Typography } from '@mui/material';
import { CreateButton, Datagrid, FunctionField, TextField, TopToolbar, useListContext } from 'react-admin';
import { Link } from 'react-router-dom';
import { getLastVisited, usePersistedScroll } from '../common/listPersistence';
import { FoundTotal, ReferenceList } from '../common/ReferenceList';
import { facilityFilters } from './FacilityFilters';
import type { FacilityRecord } from './facilityTypes';

function ListActions() {
  return (
    <TopToolbar sx={{ alignItems: 'center' }}>
      <FoundTotal testId="facility-total" />
      <CreateButton label="Add facility" data-testid="facility-add" />
    </TopToolbar>
  );
}

function DivisionsCell({ record }: { record: FacilityRecord }) {
  const types = [...(record.divisionTypes ?? [])].sort((a, b) => a.localeCompare(b)); // Referring / Source
  if (types.length === 0)
    return (
      <Typography variant="body2" color="error" data-testid="no-divisions">
        No divisions
      </Typography>
    );
  return <span>{types.join(' / ')}</span>;
}

function FacilityRows() {
  const { isPending, data } = useListContext();
  usePersistedScroll('facilities', !isPending && !!data);
  const lastVisited = getLastVisited('facilities');
  const isLast = (r: FacilityRecord) => lastVisited !== null && String(r.id) === lastVisited;
  // Facilities with the same name are told apart by city and state (spec 03 §9).
  const nameCount = new Map<string, number>();
  (data as FacilityRecord[] | undefined)?.forEach((r) => nameCount.set(r.name, (nameCount.get(r.name) ?? 0) + 1));
  const displayName = (r: FacilityRecord) =>
    (nameCount.get(r.name) ?? 0) > 1 ? `${r.name} (${[r.address?.city, r.address?.state].filter(Boolean).join(', ')})` : r.name;
  return (
    <Datagrid
      bulkActionButtons={false}
      rowClick={false}
      rowSx={(r) => (isLast(r as FacilityRecord) ? { backgroundColor: 'rgba(25, 118, 210, 0.10)' } : {})}
      data-testid="facility-table"
    >
      <FunctionField
        source="name"
        label="Name"
        render={(r: FacilityRecord) => (
          <Link
            to={`/facilities/${r.id}`}
            data-testid="facility-link"
            data-last-visited={isLast(r) ? 'true' : undefined}
            style={{ fontWeight: isLast(r) ? 600 : undefined }}
          >
            {displayName(r)}
          </Link>
        )}
      />
      <TextField source="address.city" label="City" sortBy="city" />
      <TextField source="address.state" label="State" sortBy="state" />
      <FunctionField label="Divisions" sortable={false} render={(r: FacilityRecord) => <DivisionsCell record={r} />} />
      <FunctionField label="EHR department id" sortable={false} render={(r: FacilityRecord) => r.ehrDepartmentId || '—'} />
      <FunctionField source="isActive" label="Status" sortBy="isActive" render={(r: FacilityRecord) => (r.isActive ? 'Active' : 'Inactive')} />
    </Datagrid>
  );
}

/** /facilities (ITP admin): filters, paging and scroll persist until sign-out or page unload. */
export function FacilityList() {
  return (
    <ReferenceList title="Facilities" filters={facilityFilters} storeKey="facilities.listParams" actions={<ListActions />}>
      <FacilityRows />
    </ReferenceList>
  );
}
