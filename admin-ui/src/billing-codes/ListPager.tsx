import { Pagination, useListContext } from 'react-admin';

/** The list pager, hidden when every row fits on one page (spec 03 §9). */
export function ListPager() {
  const { total, perPage, page } = useListContext();
  if (total === undefined || (total <= perPage && page === 1)) return null;
  return <Pagination rowsPerPageOptions={[10, 25, 50, 100]} />;
}
