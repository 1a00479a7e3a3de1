import { TablePagination } from '@mui/material';
import { memo } from 'react';
import { Pagination, PaginationActions, useListPaginationContext, type PaginationActionsProps } from 'react-admin';

/**
 * The pager of every list screen (spec 03 §2, §9): nothing at all when every row fits on one
 * page, otherwise the row range, numbered pages and, where the list offers it, the rows-per-page
 * selector.
 *
 * At most 7 numbered page buttons appear: MUI's Pagination shows
 * `2 × boundaryCount + 2 × siblingCount + 3` slots, two of which become ellipses once the pages
 * no longer fit, so boundary 1 and sibling 1 give `1 … 4 5 6 … 20` in the middle, `1 2 3 4 5 … 20`
 * at the ends and every page when there are 7 or fewer.
 */
export const PAGER_BOUNDARY_COUNT = 1;
export const PAGER_SIBLING_COUNT = 1;
export const DEFAULT_ROWS_PER_PAGE_OPTIONS = [10, 25, 50, 100];

export const BoundedPaginationActions = memo((props: PaginationActionsProps) => (
  <PaginationActions {...props} boundaryCount={PAGER_BOUNDARY_COUNT} siblingCount={PAGER_SIBLING_COUNT} />
));
BoundedPaginationActions.displayName = 'BoundedPaginationActions';

/**
 * A react-admin `pagination` element: `<List pagination={<ListPager />}>`. Pass
 * `rowsPerPageOptions={[]}` for a list that pages at a fixed size (no selector).
 */
export function ListPager({ rowsPerPageOptions = DEFAULT_ROWS_PER_PAGE_OPTIONS, countCap }: { rowsPerPageOptions?: number[]; countCap?: number }) {
  const { total, perPage } = useListPaginationContext();
  if (total == null || total <= perPage) return null;
  // A list whose API counts up to a cap (total = cap + 1 beyond it) says "of 1,000+".
  const capped = countCap !== undefined && total > countCap;
  return (
    <Pagination
      rowsPerPageOptions={rowsPerPageOptions}
      actions={BoundedPaginationActions}
      data-testid="list-pager"
      {...(capped ? { labelDisplayedRows: ({ from, to }: { from: number; to: number }) => `${from}–${to} of ${countCap.toLocaleString('en-US')}+` } : {})}
    />
  );
}

/**
 * The same pager for a table that is not a react-admin list (the facility tabs): `page` is
 * 0-based, the page size fixed.
 */
export function TablePager({
  total,
  page,
  perPage,
  onPageChange,
}: {
  total: number | undefined;
  page: number;
  perPage: number;
  onPageChange: (page: number) => void;
}) {
  if (total == null || total <= perPage) return null;
  return (
    <TablePagination
      component="div"
      data-testid="list-pager"
      count={total}
      page={page}
      onPageChange={(_e, p) => onPageChange(p)}
      rowsPerPage={perPage}
      rowsPerPageOptions={[]}
      ActionsComponent={BoundedPaginationActions as never}
    />
  );
}
