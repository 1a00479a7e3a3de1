import { useState } from 'react';
import { Alert, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Pagination, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { useNavigate } from 'react-router-dom';
import { MERGE_GROUPS_PAGE_SIZE } from '@crisis/forms/core';
import { useAppQuery } from '../data/query';
import { dobText, mergePath } from './patientText';

/** The duplicate groups (spec 02 §2 "Patients"): count, name, date of birth and a review button; 7 a page. */
export function MergeGroupsDialog({ onClose }: { onClose: () => void }) {
  const [page, setPage] = useState(1);
  const navigate = useNavigate();
  const { data, error } = useAppQuery(['patients', 'mergeGroups', page], (dp) => dp.mergeGroups(page));
  const pages = data ? Math.max(1, Math.ceil(data.total / MERGE_GROUPS_PAGE_SIZE)) : 1;
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth data-testid="merge-groups-dialog">
      <DialogTitle>Possible duplicates</DialogTitle>
      <DialogContent>
        {error && <Alert severity="error">{error}</Alert>}
        {!data && !error && <CircularProgress />}
        {data && data.total === 0 && <Alert severity="success">No duplicates to review.</Alert>}
        {data && data.total > 0 && (
          <Table size="small" data-testid="merge-groups-table">
            <TableHead>
              <TableRow>
                <TableCell>Records</TableCell>
                <TableCell>Name</TableCell>
                <TableCell>Date of birth</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {data.rows.map((g) => (
                <TableRow key={g.id} data-testid="merge-group-row">
                  <TableCell data-testid="merge-group-count">{g.recordsCount}</TableCell>
                  <TableCell data-testid="merge-group-name">
                    {g.firstName} {g.lastName}
                  </TableCell>
                  <TableCell>{dobText(g.dateOfBirth)}</TableCell>
                  <TableCell align="right">
                    <Button size="small" variant="outlined" onClick={() => navigate(mergePath(g))} data-testid="merge-group-review">
                      Review
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        {pages > 1 && <Pagination sx={{ mt: 1 }} count={pages} page={page} onChange={(_e, p) => setPage(p)} data-testid="merge-groups-pager" />}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
