import { useState } from 'react';
import { Box, Button, Chip, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { Datagrid, FunctionField, List, TextField, TopToolbar, useListContext, useNotify } from 'react-admin';
import { Link } from 'react-router-dom';
import { AUDIT_LOG_COUNT_CAP, AUDIT_LOG_DEFAULT_SORT, formatDateTime, type AuditLogRecord } from '@crisis/forms/core';
import { getLastVisited, usePersistedScroll } from '../common/listPersistence';
import { PageTitle } from '../common/PageTitle';
import { ListPager } from '../common/ListPager';
import { FoundTotal } from '../common/ReferenceList';
import { auditLogDefaultFilter, auditLogFilters } from './AuditLogFilters';
import { useAppData } from '../data/query';

/** Downloads the filtered list (same filter and sort) as the API's CSV attachment. */
function DownloadCsvButton() {
  const { filterValues, sort } = useListContext();
  const notify = useNotify();
  const dp = useAppData();
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    setBusy(true);
    try {
      await dp.downloadAuditCsv(filterValues, sort);
    } catch (e) {
      notify((e as Error).message || 'Incorrect response', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="small" startIcon={<DownloadIcon />} onClick={onClick} disabled={busy} data-testid="audit-download-csv">
      Download CSV
    </Button>
  );
}

function ListActions() {
  return (
    <TopToolbar sx={{ alignItems: 'center' }}>
      <FoundTotal testId="audit-total" countCap={AUDIT_LOG_COUNT_CAP} />
      <DownloadCsvButton />
    </TopToolbar>
  );
}

export function SuccessChip({ success }: { success: boolean }) {
  return <Chip size="small" label={success ? 'Success' : 'Failed'} color={success ? 'success' : 'error'} variant="outlined" />;
}

function AuditRows() {
  const { isPending, data } = useListContext();
  usePersistedScroll('activity', !isPending && !!data);
  const lastVisited = getLastVisited('activity');
  const isLast = (r: AuditLogRecord) => lastVisited !== null && String(r.id) === lastVisited;
  return (
    <Datagrid
      bulkActionButtons={false}
      rowClick={false}
      rowSx={(r) => (isLast(r as AuditLogRecord) ? { backgroundColor: 'rgba(25, 118, 210, 0.10)' } : {})}
      data-testid="audit-table"
    >
      <FunctionField
        source="performedAt"
        label="Performed at"
        render={(r: AuditLogRecord) => (
          <Link to={`/activity/${r.id}`} data-testid="audit-link" style={{ fontWeight: isLast(r) ? 600 : undefined }}>
            {formatDateTime(r.performedAt)}
          </Link>
        )}
      />
      <TextField source="mainAction" label="Main action" />
      <FunctionField
        source="userName"
        label="User"
        render={(r: AuditLogRecord) => (
          <span>
            {r.userName ?? '—'}
            {r.email && (
              <Typography component="span" variant="body2" color="text.secondary">
                {' '}
                {r.email}
              </Typography>
            )}
          </span>
        )}
      />
      <FunctionField source="organization" label="Organization" render={(r: AuditLogRecord) => r.organization ?? '—'} />
      <FunctionField source="success" label="Success" render={(r: AuditLogRecord) => <SuccessChip success={r.success} />} />
    </Datagrid>
  );
}

/**
 * /activity: the audit log (ITP admin: global; facility admin: her facility, scoped by the API).
 * Filters, paging and scroll persist in local storage until sign-out or page unload.
 */
export function AuditLogList() {
  return (
    <Box>
      <PageTitle title="Audit log" />
      <List
        resource="audit-log"
        title=" "
        filters={auditLogFilters}
        filterDefaultValues={auditLogDefaultFilter()}
        sort={AUDIT_LOG_DEFAULT_SORT}
        perPage={25}
        pagination={<ListPager countCap={AUDIT_LOG_COUNT_CAP} />}
        actions={<ListActions />}
        empty={false}
        storeKey="activity.listParams"
        // Access is decided by the route's Gate (the navigation entry) and enforced by the API's scope.
        disableAuthentication
      >
        <AuditRows />
      </List>
    </Box>
  );
}
