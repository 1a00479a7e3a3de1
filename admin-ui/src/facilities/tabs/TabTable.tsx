import { useEffect, type ReactNode } from 'react';
import { Box, Button, IconButton } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import { useNotify } from 'react-admin';
import type { QueryKey } from '@tanstack/react-query';
import type { DialogAction } from '../../common/ActionDialog';
import { useConfirmation } from '../../common/ConfirmDialog';
import { TablePager } from '../../common/ListPager';
import { SimpleTable, type Column } from '../../common/SimpleTable';
import type { AppDataProvider } from '../../data/dataProvider';
import { useAppQuery, useQueryClient } from '../../data/query';

/**
 * A facility tab's read (under ['facilityTab', facilityId, …]): a failure is a toast, and a page
 * keeps showing the rows it had while the next one loads. `reload` fetches everything of the
 * tab again; a dialog's read (`fresh`) is fetched anew each time the dialog opens.
 */
export function useTabQuery<T>(facilityId: number, key: unknown[], load: (dp: AppDataProvider) => Promise<T>, fresh = false) {
  const notify = useNotify();
  const client = useQueryClient();
  const query = useAppQuery<T>(['facilityTab', facilityId, ...key] as QueryKey, load, fresh ? { gcTime: 0 } : { placeholderData: (previous) => previous });
  useEffect(() => {
    if (query.error) notify(query.error, { type: 'error' });
  }, [query.error, notify]);
  return { ...query, reload: () => void client.invalidateQueries({ queryKey: ['facilityTab', facilityId] }) };
}

/**
 * A removal asked first (spec 03 §8): `remove(row)` opens the confirmation; on yes `run` removes
 * it, the toast `success` shows and `then` reloads; a failure goes to `failed`, else a toast.
 */
export function useConfirmedRemoval<T>(options: {
  title: string;
  message: (row: T) => string;
  run: (row: T) => Promise<unknown>;
  success: string;
  then: () => void;
  failed?: (e: unknown) => boolean;
}) {
  const notify = useNotify();
  const confirm = useConfirmation();
  const remove = (row: T) =>
    confirm.ask({
      title: options.title,
      message: options.message(row),
      onConfirm: async () => {
        try {
          await options.run(row);
          notify(options.success, { type: 'success' });
          options.then();
        } catch (e) {
          if (!options.failed?.(e)) notify((e as Error).message, { type: 'error' });
        }
      },
    });
  return { remove, dialog: confirm.dialog };
}

/**
 * The table of a facility tab with add and remove (credentialed providers, preferred facilities):
 * filters and the Add button above, a Remove column (`${prefix}-remove`), the pager below, and
 * the tab's dialogs.
 */
export function TabTable<T extends { id: number }>(props: {
  testId: string;
  /** The test-id prefix: `${prefix}-table`, `${prefix}-row`, `${prefix}-empty`, `${prefix}-remove`. */
  prefix: string;
  filters?: ReactNode;
  add: Omit<DialogAction, 'testId'>;
  columns: Column<T>[];
  data: { rows: T[]; total: number } | null;
  emptyText: string;
  onRowClick?: (row: T) => void;
  onRemove: (row: T) => void;
  pager: { page: number; perPage: number; onPageChange: (page: number) => void };
  dialogs: ReactNode;
}) {
  const { prefix, onRowClick, onRemove } = props;
  const removeColumn: Column<T> = {
    label: 'Remove',
    align: 'right',
    render: (r) => (
      <IconButton
        aria-label="remove"
        data-testid={`${prefix}-remove`}
        onClick={(e) => {
          e.stopPropagation();
          onRemove(r);
        }}
      >
        <DeleteIcon />
      </IconButton>
    ),
  };
  return (
    <Box data-testid={props.testId}>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', mb: 1, flexWrap: 'wrap' }}>
        {props.filters}
        <Box sx={{ flex: 1 }} />
        <Button variant="contained" startIcon={<AddIcon />} onClick={props.add.onClick} data-testid={`${prefix}-add`}>
          {props.add.label}
        </Button>
      </Box>
      <SimpleTable
        testId={`${prefix}-table`}
        columns={[...props.columns, removeColumn]}
        rows={props.data?.rows}
        rowKey={(r) => r.id}
        rowProps={(r) =>
          onRowClick
            ? { hover: true, sx: { cursor: 'pointer' }, onClick: () => onRowClick(r), 'data-testid': `${prefix}-row` }
            : { 'data-testid': `${prefix}-row` }
        }
        emptyText={props.emptyText}
        emptyCell={{ 'data-testid': `${prefix}-empty` }}
      />
      <TablePager total={props.data?.total} {...props.pager} />
      {props.dialogs}
    </Box>
  );
}
