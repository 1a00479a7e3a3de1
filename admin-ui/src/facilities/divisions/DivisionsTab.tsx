import { useState } from 'react';
import { Box, Button, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { useGetList } from 'react-admin';
import { formatPhone, SIMPLE_LIST_PAGE_SIZE } from '@crisis/forms/core';
import { useSession } from '../../auth/session';
import { useDebounced } from '../../common/useDebounced';
import { DivisionDialog } from './DivisionDialog';
import { subtypeLabel } from './divisionLabels';
import { DivisionFilters, type DivisionFilterValues } from './DivisionFilters';
import type { DivisionRecord } from './divisionPayload';
import { TablePager } from '../../common/ListPager';
import { ActiveChip } from '../../common/ReferenceList';
import { SimpleTable } from '../../common/SimpleTable';

type Row = DivisionRecord & { id: number };

const subtype = (d: Row) => (d.sourceType ? subtypeLabel(d.sourceType) : d.referringType ? subtypeLabel(d.referringType) : '');

/**
 * The divisions of a facility: search, a table sorted by name, and the add/edit modal. Only an
 * ITP admin may add or change; a facility admin opens them read-only and has no search.
 */
export function DivisionsTab({ facilityId, hideSearch = false }: { facilityId: number; hideSearch?: boolean }) {
  const { ability } = useSession();
  const canCreate = ability.can('create', 'Division');
  const canUpdate = ability.can('update', 'Division');
  const [filters, setFilters] = useState<DivisionFilterValues>({ q: '', type: '', showActiveOnly: false });
  const [page, setPage] = useState(0);
  const [open, setOpen] = useState<{ id: number | null } | null>(null);
  const q = useDebounced(filters.q);
  const filter = {
    ...(q.trim() ? { q: q.trim() } : {}),
    ...(filters.type ? { type: filters.type } : {}),
    ...(filters.showActiveOnly ? { showActiveOnly: true } : {}),
  };
  const { data, total, isPending, error, refetch } = useGetList<Row>('divisions', {
    pagination: { page: page + 1, perPage: SIMPLE_LIST_PAGE_SIZE },
    sort: { field: 'name', order: 'ASC' },
    filter,
    meta: { facilityId },
  });

  return (
    <Box data-testid="divisions-tab">
      <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 2 }}>
        {!hideSearch ? (
          <DivisionFilters
            value={filters}
            onChange={(v) => {
              setFilters(v);
              setPage(0);
            }}
          />
        ) : (
          <span />
        )}
        {canCreate && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setOpen({ id: null })} data-testid="division-add">
            Add division
          </Button>
        )}
      </Box>
      <SimpleTable<Row>
        testId="division-table"
        columns={[
          {
            label: 'Name',
            render: (d) => (
              <Typography variant="body2" color="primary">
                {d.name}
              </Typography>
            ),
          },
          { label: 'Phone', render: (d) => formatPhone(d.contacts?.phone1) || '—' },
          { label: 'Type', render: (d) => `${d.type}${subtype(d) ? ` (${subtype(d)})` : ''}` },
          { label: 'Status', render: (d) => <ActiveChip active={d.isActive} /> },
        ]}
        rows={isPending ? null : (data ?? [])}
        rowKey={(d) => d.id}
        rowProps={(d) => ({ hover: true, sx: { cursor: 'pointer' }, onClick: () => setOpen({ id: d.id }), 'data-testid': 'division-row' })}
        emptyText={error ? undefined : 'No divisions'}
        emptyCell={{ 'data-testid': 'division-empty' }}
      />
      <TablePager total={total} page={page} perPage={SIMPLE_LIST_PAGE_SIZE} onPageChange={setPage} />
      {open && (
        <DivisionDialog
          facilityId={facilityId}
          divisionId={open.id}
          readOnly={open.id === null ? !canCreate : !canUpdate}
          onClose={() => setOpen(null)}
          onSaved={() => {
            setOpen(null);
            refetch();
          }}
        />
      )}
    </Box>
  );
}
