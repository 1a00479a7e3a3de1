import { useEffect, useState } from 'react';
import { Datagrid, FunctionField, List, TopToolbar, useListContext, useNotify } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import {
  Autocomplete,
  Box,
  Button,
  Checkbox,
  Chip,
  CircularProgress,
  FormControlLabel,
  Link as MuiLink,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import {
  CASE_OUTCOMES,
  MAX_ACTIVE_CASE_HOURS,
  PAST_CASE_DEFAULT_SORT,
  PAST_CASES_COUNT_CAP,
  PAST_CASES_PAGE_SIZE,
  durationTwoUnits,
  enumLabel,
  formatDateTime,
  type FieldError,
  type PastCaseExport,
  type PastCaseFilter,
  type PastCaseItem,
  type RecencyClass,
} from '@crisis/forms/core';
import { useSession } from '../auth/session';
import { ListPager } from '../common/ListPager';
import { PageTitle } from '../common/PageTitle';
import { validate } from '../common/schemaValidation';
import { useDebounced } from '../common/useDebounced';
import { useAppData, useAppQuery } from '../data/query';
import { ActivityReportButton, ExportPdfButton, SummaryPdfButton } from '../cases/exports';
import { dob, patientName } from '../cases/list/caseListParts';
import { RetryEhrClaimsButton } from './RetryEhrClaimsDialog';

/** Spec 01 §9 recency classes: how a row's creation date is set off. */
const RECENCY: Record<RecencyClass, { label: string; color: 'success' | 'info' | 'default' | 'warning' }> = {
  today: { label: 'Today', color: 'success' },
  yesterday: { label: 'Yesterday', color: 'info' },
  within90: { label: 'Within 90 days', color: 'default' },
  over90: { label: 'Over 90 days', color: 'warning' },
  over180: { label: 'Over 180 days', color: 'warning' },
};

const EXPORT_LABELS: Record<PastCaseExport, string> = { csv: 'Export CSV', billing: 'Billing CSV', diagnostics: 'Claim diagnostics CSV' };

/** Drops empty values, so the address and the store hold only what the user chose. */
function compact(f: PastCaseFilter): PastCaseFilter {
  return Object.fromEntries(
    Object.entries(f).filter(([, v]) => v !== undefined && v !== null && v !== '' && v !== false && !(Array.isArray(v) && v.length === 0)),
  ) as PastCaseFilter;
}

function ExportButton({ kind, filter }: { kind: PastCaseExport; filter: PastCaseFilter }) {
  const dp = useAppData();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await dp.downloadPastCases(kind, filter);
    } catch (e) {
      notify((e as Error)?.message || 'Export failed', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="small" variant="outlined" onClick={run} disabled={busy} startIcon={busy ? <CircularProgress size={14} /> : <DownloadIcon />} data-testid={`past-export-${kind}`}>
      {EXPORT_LABELS[kind]}
    </Button>
  );
}

/**
 * The past-case search (spec 02 §2 "Filters"): patient or case text, from and to days, referring
 * facilities, outcomes, counties (group users), and the active-cases tick with its hours. A value
 * the rules refuse is shown under its field and not sent.
 */
function PastCasesFilters() {
  const { ability } = useSession();
  const { filterValues, setFilters } = useListContext();
  const [draft, setDraft] = useState<PastCaseFilter>(filterValues as PastCaseFilter);
  const text = useDebounced(draft.patientOrCase ?? '', 400);
  const options = useAppQuery(['past-cases', 'filter-options'], (d) => d.pastCaseFilterOptions());
  const facilities = options.data?.referringFacilities ?? [];
  const wanted = compact({ ...draft, patientOrCase: text.trim() || null, activeCaseHours: draft.activeOnly ? draft.activeCaseHours : null });
  const errors: FieldError[] = validate('pastCaseFilter', wanted);
  const errorOf = (field: string) => errors.find((e) => e.field === field || e.field.startsWith(`${field}[`))?.message;
  const key = JSON.stringify(wanted);
  useEffect(() => {
    if (!errors.length && key !== JSON.stringify(compact(filterValues as PastCaseFilter))) setFilters(wanted, undefined, false);
  }, [key]);
  const set = (patch: Partial<PastCaseFilter>) => setDraft((d) => ({ ...d, ...patch }));
  const shown = compact(filterValues as PastCaseFilter);
  return (
    <Box sx={{ width: '100%', py: 1 }} data-testid="past-filters">
      <Stack direction="row" spacing={1.5} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'flex-start' }}>
        <TextField
          size="small"
          label="Patient or #case"
          value={draft.patientOrCase ?? ''}
          onChange={(e) => set({ patientOrCase: e.target.value })}
          error={!!errorOf('patientOrCase')}
          helperText={errorOf('patientOrCase')}
          inputProps={{ 'data-testid': 'past-search' }}
          sx={{ minWidth: 220 }}
        />
        {(['from', 'to'] as const).map((field) => (
          <TextField
            key={field}
            size="small"
            type="date"
            label={field === 'from' ? 'From' : 'To'}
            value={draft[field] ?? ''}
            onChange={(e) => set({ [field]: e.target.value || null })}
            error={!!errorOf(field)}
            helperText={errorOf(field)}
            InputLabelProps={{ shrink: true }}
            inputProps={{ 'data-testid': `past-${field}`, max: new Date().toLocaleDateString('en-CA') }}
          />
        ))}
        <Autocomplete
          multiple
          size="small"
          options={facilities}
          getOptionLabel={(f) => `${f.name} (${f.city}, ${f.state})`}
          value={facilities.filter((f) => draft.referringFacilityIds?.includes(f.id))}
          onChange={(_e, v) => set({ referringFacilityIds: v.map((f) => f.id) })}
          renderInput={(p) => <TextField {...p} label="Referring facilities" inputProps={{ ...p.inputProps, 'data-testid': 'past-referring' }} />}
          sx={{ width: 300 }}
        />
        <Autocomplete
          multiple
          size="small"
          options={[...CASE_OUTCOMES]}
          getOptionLabel={enumLabel}
          value={draft.outcomes ?? []}
          onChange={(_e, v) => set({ outcomes: v })}
          renderInput={(p) => <TextField {...p} label="Outcomes" inputProps={{ ...p.inputProps, 'data-testid': 'past-outcomes' }} />}
          sx={{ width: 300 }}
        />
        {ability.can('access', 'PastCaseCounties') && (
          <Autocomplete
            multiple
            size="small"
            options={options.data?.counties ?? []}
            value={draft.counties ?? []}
            onChange={(_e, v) => set({ counties: v })}
            renderInput={(p) => <TextField {...p} label="Counties" inputProps={{ ...p.inputProps, 'data-testid': 'past-counties' }} />}
            sx={{ width: 260 }}
          />
        )}
        <FormControlLabel
          control={<Checkbox checked={!!draft.activeOnly} onChange={(e) => set({ activeOnly: e.target.checked })} inputProps={{ 'data-testid': 'past-active-only' } as any} />}
          label="Active cases only"
        />
        <TextField
          size="small"
          type="number"
          label="Active hours"
          disabled={!draft.activeOnly}
          value={draft.activeCaseHours ?? ''}
          onChange={(e) => set({ activeCaseHours: e.target.value === '' ? null : Number(e.target.value) })}
          error={!!errorOf('activeCaseHours')}
          helperText={errorOf('activeCaseHours') ?? `Up to ${MAX_ACTIVE_CASE_HOURS}`}
          inputProps={{ min: 1, max: MAX_ACTIVE_CASE_HOURS, 'data-testid': 'past-active-hours' }}
          sx={{ width: 130 }}
        />
      </Stack>
      <Stack direction="row" spacing={1} sx={{ mt: 1.5, alignItems: 'center' }}>
        <ExportButton kind="csv" filter={shown} />
        {ability.can('access', 'PastCaseBilling') && <ExportButton kind="billing" filter={shown} />}
        {ability.can('access', 'PastCaseBilling') && <ExportButton kind="diagnostics" filter={shown} />}
        {ability.can('access', 'PastCaseBilling') && <RetryEhrClaimsButton />}
        <Box sx={{ flex: 1 }} />
        <PastTotal />
      </Stack>
    </Box>
  );
}

/** The total, counted up to PAST_CASES_COUNT_CAP: "10,000+ found" beyond. */
function PastTotal() {
  const { total, isPending } = useListContext();
  if (isPending || total === undefined) return null;
  return (
    <Typography variant="body2" color="text.secondary" data-testid="past-total">
      {total > PAST_CASES_COUNT_CAP ? `${PAST_CASES_COUNT_CAP.toLocaleString('en-US')}+` : total.toLocaleString('en-US')} found
    </Typography>
  );
}

/** The reference number opens the case for everyone who may open cases (not group users, spec 02 §6). */
function Reference({ row }: { row: PastCaseItem }) {
  const { ability } = useSession();
  const text = `#${String(row.referenceNumber).padStart(6, '0')}`;
  if (!ability.can('read', 'Case')) return <span data-testid="past-reference">{text}</span>;
  return (
    <MuiLink component={RouterLink} to={`/cases/${row.id}`} data-testid="past-reference">
      {text}
    </MuiLink>
  );
}

/** Group users cannot open a case (spec 02 §6): its PDF export is offered on the row instead. */
function GroupPdfExport({ id }: { id: number }) {
  const { ability } = useSession();
  return ability.can('read', 'Case') ? null : <ExportPdfButton caseRecord={{ id }} />;
}

/** /cases/past: ITP staff, providers, facility admins and group users (spec 02 §2 "Past cases"). */
export function PastCasesPage() {
  return (
    <Box>
      <PageTitle title="Past cases" />
      <List
        resource="cases/past"
        disableAuthentication
        disableSyncWithLocation
        title=" "
        actions={<TopToolbar sx={{ width: '100%' }}><PastCasesFilters /></TopToolbar>}
        sort={{ field: PAST_CASE_DEFAULT_SORT[0], order: PAST_CASE_DEFAULT_SORT[1] }}
        perPage={PAST_CASES_PAGE_SIZE}
        pagination={<ListPager />}
        empty={false}
        storeKey="past-cases.listParams"
      >
        <Datagrid bulkActionButtons={false} rowClick={false} data-testid="past-table" sx={{ '& .RaDatagrid-headerCell': { whiteSpace: 'nowrap' } }}>
          <FunctionField
            label="Created at"
            source="createdAt"
            sortBy="createdAt"
            render={(r: PastCaseItem) => (
              <Box data-recency={r.recency} data-testid="past-created">
                <Typography variant="body2">{formatDateTime(r.createdAt)}</Typography>
                <Chip size="small" variant="outlined" label={RECENCY[r.recency].label} color={RECENCY[r.recency].color} sx={{ mt: 0.5 }} />
              </Box>
            )}
          />
          <FunctionField label="Reference" source="id" sortBy="id" render={(r: PastCaseItem) => <Reference row={r} />} />
          <FunctionField
            label="Patient"
            source="patient"
            sortBy="patient"
            render={(r: PastCaseItem) => (
              <Box data-testid="past-patient">
                {patientName(r)}
                <Box sx={{ color: 'text.secondary', fontSize: '0.8rem' }}>{dob(r.patient.dateOfBirth)}</Box>
              </Box>
            )}
          />
          <FunctionField
            label="Source facility"
            source="sourceFacility"
            sortBy="sourceFacility"
            render={(r: PastCaseItem) => (
              <Box>
                {r.sourceFacility.name}
                <Box sx={{ color: 'text.secondary', fontSize: '0.8rem' }}>{r.sourceDivision.name}</Box>
              </Box>
            )}
          />
          <FunctionField
            label="Referring facility and outcome"
            sortable={false}
            render={(r: PastCaseItem) => (
              <Box data-testid="past-outcome">
                {r.referringFacility ? r.referringFacility.name : r.status === 'Closed' ? '—' : r.statusLabel}
                {r.outcome && <Box sx={{ color: 'text.secondary', fontSize: '0.8rem' }}>{enumLabel(r.outcome)}</Box>}
              </Box>
            )}
          />
          <FunctionField label="Locating services" source="locatingServices" sortBy="locatingServices" render={(r: PastCaseItem) => durationTwoUnits(r.locatingServicesSeconds * 1000)} />
          <FunctionField label="Providers" sortable={false} render={(r: PastCaseItem) => r.providers.join(', ') || '—'} />
          <FunctionField
            label="Payers"
            sortable={false}
            render={(r: PastCaseItem) => (r.insurance === 'insured' ? r.payers.join(', ') : r.insurance === 'uninsured' ? 'Uninsured' : 'Not provided')}
          />
          <FunctionField
            label=""
            sortable={false}
            render={(r: PastCaseItem) => (
              <Stack direction="row" spacing={0.5} onClick={(e) => e.stopPropagation()}>
                <ActivityReportButton caseRecord={{ id: r.id }} />
                <SummaryPdfButton caseRecord={{ id: r.id }} />
                <GroupPdfExport id={r.id} />
              </Stack>
            )}
          />
        </Datagrid>
      </List>
    </Box>
  );
}
