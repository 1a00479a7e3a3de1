import { useEffect, useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Pagination, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { SIMPLE_LIST_PAGE_SIZE, formatDateTime } from '@crisis/forms/core';
import { keys, useAppQuery } from '../../../data/query';

/** camelCase tracked name → 'Home medications'. */
const nameLabel = (n: string) => {
  const s = n.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/Er\b/, 'ER').replace(/covid19/i, 'COVID-19');
  return s.charAt(0).toUpperCase() + s.slice(1).toLowerCase().replace(/\ber\b/, 'ER').replace(/covid-19/, 'COVID-19');
};

/** The medical-information change log (spec 01 §3 change-log rows), 10 rows a page. */
export function ChangeLogDialog({ caseId, open, onClose }: { caseId: number; open: boolean; onClose: () => void }) {
  const [page, setPage] = useState(1);
  const { data, error } = useAppQuery(keys.case(caseId, 'medicalLogs', page), (dp) => dp.medicalInformationLogs(caseId, page), { enabled: open });
  useEffect(() => {
    if (open) setPage(1);
  }, [open]);
  const pages = data ? Math.max(1, Math.ceil(data.total / SIMPLE_LIST_PAGE_SIZE)) : 1;
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" data-testid="medical-information-log">
      <DialogTitle>Medical information change log</DialogTitle>
      <DialogContent>
        {error && <Typography color="error">{error}</Typography>}
        {data && data.items.length === 0 && <Typography color="text.secondary">No changes yet.</Typography>}
        {data && data.items.length > 0 && (
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>Changed at</TableCell>
                <TableCell>Changed by</TableCell>
                <TableCell>Field</TableCell>
                <TableCell>Old value</TableCell>
                <TableCell>New value</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.items.map((r) => (
                <TableRow key={r.id} data-testid="medical-information-log-row">
                  <TableCell>{formatDateTime(r.changedAt)}</TableCell>
                  <TableCell>{r.changedBy ?? '—'}</TableCell>
                  <TableCell>
                    {nameLabel(r.name)}
                    {r.metaInfo?.reason && r.metaInfo.reason !== 'edit' ? (
                      <Typography variant="caption" display="block" color="text.secondary">
                        confirmed: {nameLabel(r.metaInfo.reason)}
                      </Typography>
                    ) : null}
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'pre-wrap' }}>{r.oldValue ?? '—'}</TableCell>
                  <TableCell sx={{ whiteSpace: 'pre-wrap' }}>{r.newValue ?? '—'}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        {pages > 1 && <Pagination sx={{ mt: 2 }} count={pages} page={page} onChange={(_, p) => setPage(p)} data-testid="medical-information-log-pager" />}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
