import { useState, type ComponentType, type ReactElement, type ReactNode } from 'react';
import { Box, Button, Chip, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { BooleanInput, Datagrid, List, TopToolbar, useListContext, useRecordContext, useRefresh, type SortPayload } from 'react-admin';
import { ListPager } from './ListPager';
import { PageTitle } from './PageTitle';

/** The "Active only" filter of the reference-data lists. */
export const activeOnlyFilter = <BooleanInput key="active" source="showActiveOnly" label="Active only" alwaysOn helperText={false} sx={{ ml: 1 }} />;

/** "N found" above a list, once its total is known. */
/** "N found"; for a list counted up to `countCap` (total = cap + 1 beyond it), "1,000+ found". */
export function FoundTotal({ testId, countCap }: { testId?: string; countCap?: number }) {
  const { total, isPending } = useListContext();
  if (isPending || total === undefined) return null;
  return (
    <Typography variant="body2" color="text.secondary" data-testid={testId}>
      {countCap !== undefined && total > countCap ? `${countCap.toLocaleString('en-US')}+` : total} found
    </Typography>
  );
}

/** Active / Inactive as a chip. */
export const ActiveChip = ({ active }: { active: boolean }) => <Chip size="small" label={active ? 'Active' : 'Inactive'} color={active ? 'success' : 'default'} />;

/** A record's isActive as an Active / Inactive chip (`source` and `label` are read by the Datagrid header). */
export function ActiveChipField(_: { source: 'isActive'; label: string }) {
  const record = useRecordContext<{ isActive: boolean }>();
  return record ? <ActiveChip active={record.isActive} /> : null;
}

/** The page title of a record's edit screen: its name and whether it is active. */
export function ActiveRecordTitle() {
  const record = useRecordContext<{ name: string; isActive: boolean }>();
  if (!record) return null;
  return (
    <PageTitle title={record.name}>
      <ActiveChip active={record.isActive} />
    </PageTitle>
  );
}

/**
 * The shell of a reference-data list (billing codes, groups, payers, patient tags, facilities):
 * the page title, then a react-admin list of 25 a page with the shared pager, shown even when
 * empty; its state is kept under `storeKey` (none by default).
 */
export function ReferenceList({
  title,
  filters,
  sort = { field: 'name', order: 'ASC' },
  storeKey = false,
  actions,
  children,
  after,
}: {
  title: string;
  filters: ReactElement | ReactElement[];
  sort?: SortPayload;
  storeKey?: string | false;
  actions: ReactElement;
  children: ReactNode;
  /** Rendered after the list (the list's dialogs). */
  after?: ReactNode;
}) {
  return (
    <Box>
      <PageTitle title={title} />
      <List title=" " filters={filters} sort={sort} perPage={25} pagination={<ListPager />} actions={actions} empty={false} storeKey={storeKey}>
        {children}
      </List>
      {after}
    </Box>
  );
}

/** The add/edit modal a ModalRecordList opens: id null for a new record. */
export type RecordDialogComponent = ComponentType<{ id: number | null; onClose: () => void; onSaved: () => void }>;

/**
 * A reference-data list whose records are added and edited in a modal over it (billing codes,
 * group organizations): the Add button (`${testId}-add`), a row click opens the record, and a
 * save refreshes the list.
 */
export function ModalRecordList({
  testId,
  addLabel,
  dialog: RecordDialog,
  children,
  ...list
}: {
  title: string;
  filters: ReactElement[];
  sort?: SortPayload;
  testId: string;
  addLabel: string;
  dialog: RecordDialogComponent;
  children: ReactNode;
}) {
  const [open, setOpen] = useState<{ id: number | null } | null>(null);
  const refresh = useRefresh();
  return (
    <ReferenceList
      {...list}
      actions={
        <TopToolbar>
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setOpen({ id: null })} data-testid={`${testId}-add`}>
            {addLabel}
          </Button>
        </TopToolbar>
      }
      after={
        open && (
          <RecordDialog
            id={open.id}
            onClose={() => setOpen(null)}
            onSaved={() => {
              setOpen(null);
              refresh();
            }}
          />
        )
      }
    >
      <Datagrid bulkActionButtons={false} rowClick={(id) => (setOpen({ id: Number(id) }), false)} data-testid={`${testId}-table`}>
        {children}
      </Datagrid>
    </ReferenceList>
  );
}
