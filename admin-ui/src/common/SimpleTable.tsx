import type { ReactNode } from 'react';
import { Table, TableBody, TableCell, TableHead, TableRow, type TableRowProps } from '@mui/material';

/** One column of a SimpleTable: its header and what a row shows in it. */
export interface Column<T> {
  label: ReactNode;
  align?: 'right';
  render: (row: T) => ReactNode;
}

/**
 * A small table that is not a react-admin list: the headers, "Loading…" until the rows are there,
 * the empty text when there are none, and a row for each.
 */
export function SimpleTable<T>({
  columns,
  rows,
  rowKey,
  rowProps,
  testId,
  emptyText,
  emptyTestId,
}: {
  columns: Column<T>[];
  /** null or undefined: still loading. */
  rows: T[] | null | undefined;
  rowKey: (row: T) => string | number;
  rowProps?: (row: T) => TableRowProps & { 'data-testid'?: string };
  testId?: string;
  emptyText?: string;
  emptyTestId?: string;
}) {
  const span = columns.length;
  return (
    <Table size="small" data-testid={testId}>
      <TableHead>
        <TableRow>
          {columns.map((c, i) => (
            <TableCell key={i} align={c.align}>
              {c.label}
            </TableCell>
          ))}
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
            <TableCell colSpan={span} data-testid={emptyTestId}>
              {emptyText}
            </TableCell>
          </TableRow>
        )}
        {rows?.map((r) => (
          <TableRow key={rowKey(r)} {...rowProps?.(r)}>
            {columns.map((c, i) => (
              <TableCell key={i} align={c.align}>
                {c.render(r)}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
