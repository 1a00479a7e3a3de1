import { useState } from 'react';
import { Card, CardContent, CardHeader, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { enumLabel, formatDateTime, isQuestion, type QuestionnaireItem } from '@crisis/forms/core';
import { TablePager } from '../common/ListPager';
import { useAppQuery } from '../data/query';

/** Spec 01 §7: the evaluation logs are paged by 10. */
export const CHANGE_LOG_PAGE_SIZE = 10;

/** Fields the API logs as enumeration values (comma-joined). */
const ENUM_FIELDS = new Set(['Main recommendation', 'Criteria']);

/**
 * A logged value in words: the API logs a choice question's answer as its option keys (joined by
 * ", ") and the recommendation as enumeration values; the provider reads labels.
 */
export function loggedValue(items: readonly QuestionnaireItem[], name: string, value: string | null): string {
  if (value === null || value === '') return '—';
  if (ENUM_FIELDS.has(name)) return value.split(', ').map(enumLabel).join(', ');
  const question = items.find((i) => isQuestion(i) && i.label === name);
  if (!question || !isQuestion(question) || !question.options?.length) return value;
  const labels = value.split(', ').map((key) => question.options!.find((o) => o.key === key)?.label);
  return labels.every((l) => l !== undefined) ? labels.join(', ') : value;
}

/** The evaluation's change log (spec 01 §3 change-log rows): the edits after completion, newest first, 10 a page. */
export function EvaluationChangeLog({ requestId, items }: { requestId: number; items: readonly QuestionnaireItem[] }) {
  const [page, setPage] = useState(0);
  const log = useAppQuery(['evaluation', requestId, 'changeLog', page], (dp) => dp.evaluationChangeLog(requestId, page, CHANGE_LOG_PAGE_SIZE));
  const rows = log.data?.rows ?? [];
  return (
    <Card variant="outlined" data-testid="evaluation-change-log">
      <CardHeader title="Change log" titleTypographyProps={{ variant: 'h6' }} />
      <CardContent sx={{ pt: 0, overflowX: 'auto' }} tabIndex={0} role="region" aria-label="Change log">
        {log.error && <Typography color="error">{log.error}</Typography>}
        {log.data && rows.length === 0 && <Typography color="text.secondary">No edits since the evaluation was completed.</Typography>}
        {rows.length > 0 && (
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>Changed at</TableCell>
                <TableCell>Changed by</TableCell>
                <TableCell>Field or question</TableCell>
                <TableCell>Old value</TableCell>
                <TableCell>New value</TableCell>
                <TableCell>Reason</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((r) => (
                <TableRow key={r.id} data-testid="evaluation-change-log-row">
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(r.changedAt)}</TableCell>
                  <TableCell>{r.changedBy ?? '—'}</TableCell>
                  <TableCell>{r.name}</TableCell>
                  <TableCell sx={{ whiteSpace: 'pre-wrap' }}>{loggedValue(items, r.name, r.oldValue)}</TableCell>
                  <TableCell sx={{ whiteSpace: 'pre-wrap' }}>{loggedValue(items, r.name, r.newValue)}</TableCell>
                  <TableCell sx={{ whiteSpace: 'pre-wrap' }}>{r.reason ?? '—'}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        <TablePager total={log.data?.total} page={page} perPage={CHANGE_LOG_PAGE_SIZE} onPageChange={setPage} />
      </CardContent>
    </Card>
  );
}
