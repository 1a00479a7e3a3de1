import type { ReactNode } from 'react';
import { Box, Table, TableBody, TableCell, TableHead, TableRow, type TableCellProps, type TableRowProps } from '@mui/material';
import { SortHeaderCell, type Sort } from './tableParts';

/** One column of a SimpleTable: its header and what a row shows in it. */
export interface Column<T> {
  label?: ReactNode;
  align?: 'right';
  render: (row: T) => ReactNode;
  /** The props of the column's cells (padding, sx, test id). */
  cell?: TableCellProps & { 'data-testid'?: string };
  /** The column sorts the table by this field (with the table's `sort`). */
  sortField?: string;
}

/**
 * A small table that is not a react-admin list: the headers (sortable where a column names its
 * field), "Loading…" until the rows are there, the empty text when there are none, and a row for
 * each.
 */
export function SimpleTable<T>({
  columns,
  rows,
  rowKey,
  rowProps,
  testId,
  emptyText,
  emptyCell,
  sort,
  onSort,
}: {
  columns: Column<T>[];
  /** null or undefined: still loading. */
  rows: T[] | null | undefined;
  rowKey: (row: T) => string | number;
  rowProps?: (row: T) => TableRowProps & Record<`data-${string}`, string | number | undefined>;
  testId?: string;
  emptyText?: ReactNode;
  /** The props of the empty row's cell (test id, sx). */
  emptyCell?: TableCellProps & { 'data-testid'?: string };
  sort?: Sort<string>;
  onSort?: (field: string) => void;
}) {
  const span = columns.length;
  // A table wider than the window scrolls in its own box, not the page (tablets, 200 % zoom).
  return (
    <Box sx={{ overflowX: 'auto', maxWidth: '100%' }}>
      <Table size="small" data-testid={testId}>
        <TableHead>
          <TableRow>
            {columns.map((c, i) =>
              c.sortField && sort && onSort ? (
                <SortHeaderCell key={i} field={c.sortField} label={String(c.label)} sort={sort} onSort={onSort} />
              ) : (
                <TableCell key={i} align={c.align} padding={c.cell?.padding}>
                  {c.label}
                </TableCell>
              ),
            )}
          </TableRow>
        </TableHead>
        <TableBody>
          {!rows && (
            <TableRow>
              <TableCell colSpan={span}>Loading…</TableCell>
            </TableRow>
          )}
          {rows?.length === 0 && emptyText && (
            <TableRow>
              <TableCell colSpan={span} {...emptyCell}>
                {emptyText}
              </TableCell>
            </TableRow>
          )}
          {rows?.map((r) => (
            <TableRow key={rowKey(r)} {...rowProps?.(r)}>
              {columns.map((c, i) => (
                <TableCell key={i} align={c.align} {...c.cell}>
                  {c.render(r)}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
