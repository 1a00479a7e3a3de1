import { TableCell, TableRow, TableSortLabel, Typography } from '@mui/material';

export type Order = 'ASC' | 'DESC';
export interface Sort<F extends string> {
  field: F;
  order: Order;
}

/** Clicking a column: the same column turns its order around; another starts at `first`. */
export const nextSort = <F extends string>(s: Sort<F>, field: F, first: Order = 'ASC'): Sort<F> =>
  s.field === field ? { field, order: s.order === 'ASC' ? 'DESC' : 'ASC' } : { field, order: first };

/** A sortable column header: the arrow shows on the sorted column. */
export function SortHeaderCell<F extends string>({ field, label, sort, onSort }: { field: F; label: string; sort: Sort<F>; onSort: (field: F) => void }) {
  const active = sort.field === field;
  const direction = active && sort.order === 'DESC' ? 'desc' : 'asc';
  return (
    <TableCell sortDirection={active ? direction : false}>
      <TableSortLabel active={active} direction={direction} onClick={() => onSort(field)}>
        {label}
      </TableSortLabel>
    </TableCell>
  );
}

/** The one row of an empty table, in muted text. */
export function EmptyRow({ span, text }: { span: number; text: string }) {
  return (
    <TableRow>
      <TableCell colSpan={span}>
        <Typography color="text.secondary">{text}</Typography>
      </TableCell>
    </TableRow>
  );
}

/** An undone call or status: struck through and greyed. */
export const undoneRowSx = (undone: boolean) => (undone ? { '& td': { textDecoration: 'line-through', color: 'text.secondary' } } : undefined);
