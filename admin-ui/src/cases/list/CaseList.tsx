import { Box, Checkbox, FormControlLabel, Stack, Switch, TextField as MuiTextField, useMediaQuery, type Theme } from '@mui/material';
import { useEffect, useState } from 'react';
import { Datagrid, DatagridBody, DatagridRow, FunctionField, List, SelectArrayInput, useListContext, type DatagridRowProps } from 'react-admin';
import { CASE_STATUSES, CaseStatus, DivisionType, MAIN_RECOMMENDATIONS, UserType } from '@crisis/forms/core';
import { useSession } from '../../auth/session';
import { getLastVisited, setLastVisited, usePersistedScroll } from '../../common/listPersistence';
import { ListPager } from '../../common/ListPager';
import { PageTitle } from '../../common/PageTitle';
import { useDebounced } from '../../common/useDebounced';
import { humanize } from '../../common/humanize';
import {
  CaseListActions,
  CriteriaChips,
  ProviderBiographyLink,
  dob,
  elapsed,
  patientName,
  phone,
  since,
  type CaseRow,
} from './caseListParts';

type Variant = 'itp' | 'facility' | 'referring' | 'provider';

export function caseListVariant(role: string, divisionType: string | null): Variant {
  if (role === UserType.ItpAdmin || role === UserType.ItpUser) return 'itp';
  if (role === UserType.ItpProvider) return 'provider';
  if (role === UserType.FacilityUser && divisionType === DivisionType.Referring) return 'referring';
  return 'facility';
}

const OPEN_STATUSES = CASE_STATUSES.filter((s) => s !== CaseStatus.Closed);
const STATUS_CHOICES = OPEN_STATUSES.map((s) => ({ id: s, name: humanize(s) }));
const RECOMMENDATION_CHOICES = MAIN_RECOMMENDATIONS.map((r) => ({ id: r, name: humanize(r) }));

const itpFilters = [
  <SelectArrayInput key="status" source="status" label="Status" choices={STATUS_CHOICES} alwaysOn sx={{ minWidth: 260 }} data-testid="case-filter-status" />,
  <SelectArrayInput
    key="mainRecommendation"
    source="mainRecommendation"
    label="Main recommendation"
    choices={RECOMMENDATION_CHOICES}
    alwaysOn
    sx={{ minWidth: 260 }}
    data-testid="case-filter-recommendation"
  />,
];

/** A row reached with Tab opens its case with Enter, as a click does. */
function KeyboardRow(props: DatagridRowProps) {
  return (
    <DatagridRow
      {...props}
      tabIndex={0}
      onKeyDown={(e: React.KeyboardEvent<HTMLTableRowElement>) => {
        if (e.key === 'Enter' && e.target === e.currentTarget) e.currentTarget.click();
      }}
    />
  );
}

/** Rows open the case page; the last opened one stays highlighted (spec 03 §2 list persistence). */
function CaseRows({ children }: { children: React.ReactNode }) {
  const { isPending, data } = useListContext();
  usePersistedScroll('cases', !isPending && !!data);
  const lastVisited = getLastVisited('cases');
  return (
    <Datagrid
      bulkActionButtons={false}
      rowClick={(id) => {
        setLastVisited('cases', id);
        return `/cases/${id}`;
      }}
      rowSx={(r) => (lastVisited !== null && String(r.id) === lastVisited ? { backgroundColor: 'rgba(25, 118, 210, 0.10)' } : {})}
      sx={{ '& .RaDatagrid-headerCell': { whiteSpace: 'nowrap' } }}
      data-testid="case-table"
      body={<DatagridBody row={<KeyboardRow />} />}
    >
      {children}
    </Datagrid>
  );
}

const patientField = (withDob = false) => (
  <FunctionField
    source="patient"
    label="Patient"
    sortBy="patient"
    render={(r: CaseRow) => (
      <Box data-testid="case-patient">
        <Box sx={{ fontWeight: 500 }}>{patientName(r)}</Box>
        {withDob && <Box sx={{ color: 'text.secondary', fontSize: '0.8rem' }}>{dob(r.patient.dateOfBirth)}</Box>}
      </Box>
    )}
  />
);

const facilityField = () => (
  <FunctionField
    source="sourceFacility"
    label="Facility"
    sortBy="sourceFacility"
    render={(r: CaseRow) => (
      <Box>
        <Box>{r.sourceFacility.name}</Box>
        <Box sx={{ color: 'text.secondary', fontSize: '0.8rem' }}>{r.sourceDivision.name}</Box>
      </Box>
    )}
  />
);

const contactField = () => (
  <FunctionField
    label="Contact"
    sortable={false}
    render={(r: CaseRow) => (
      <Box>
        <Box sx={{ whiteSpace: 'nowrap' }}>{phone(r.contactPhoneNumber)}</Box>
        {r.rnCaringForPatient && <Box sx={{ color: 'text.secondary', fontSize: '0.8rem' }}>{r.rnCaringForPatient}</Box>}
      </Box>
    )}
  />
);

const statusField = () => <FunctionField source="status" label="Status" sortBy="status" render={(r: CaseRow) => r.statusLabel} />;
const elapsedField = () => (
  <FunctionField source="timeElapsed" label="Time elapsed" sortBy="timeElapsed" render={(r: CaseRow) => <span data-testid="case-elapsed">{elapsed(r)}</span>} />
);

/**
 * The shell the four case lists share (spec 01 §2): the cases resource, page size, pager, actions
 * and stored list parameters; each variant gives its default sort, filters, the content above the
 * rows and its columns.
 */
function CaseListShell(props: {
  embedded: boolean;
  sort: { field: string; order: 'ASC' | 'DESC' };
  filters?: React.ReactElement[];
  above?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <List
      resource="cases"
      disableAuthentication
      disableSyncWithLocation={props.embedded}
      title=" "
      filters={props.filters}
      sort={props.sort}
      perPage={25}
      pagination={<ListPager />}
      actions={<CaseListActions />}
      empty={false}
      storeKey="cases.listParams"
    >
      {props.above}
      <CaseRows>{props.children}</CaseRows>
    </List>
  );
}

/** ITP admin and user: filters on status and main recommendation, closed cases excluded. */
function ItpCaseList({ embedded = false }: { embedded?: boolean }) {
  const wide = useMediaQuery((t: Theme) => t.breakpoints.up('lg'));
  return (
    <CaseListShell embedded={embedded} sort={{ field: 'timeElapsed', order: 'DESC' }} filters={itpFilters}>
      {patientField()}
      {facilityField()}
      {wide && contactField()}
      {statusField()}
      <FunctionField label="Criteria" sortable={false} render={(r: CaseRow) => <CriteriaChips criteria={r.criteria} />} />
      {elapsedField()}
    </CaseListShell>
  );
}

/** Facility admin and source-division users. */
function FacilityCaseList({ embedded = false }: { embedded?: boolean }) {
  return (
    <CaseListShell embedded={embedded} sort={{ field: 'timeElapsed', order: 'DESC' }}>
      {patientField()}
      {statusField()}
      {elapsedField()}
      <FunctionField source="requestType" label="Request type" sortBy="requestType" render={(r: CaseRow) => humanize(r.latestRequest?.type) || '—'} />
      <FunctionField
        label="Request provider"
        sortable={false}
        render={(r: CaseRow) => <ProviderBiographyLink provider={r.latestRequest?.evaluationProvider ?? null} />}
      />
    </CaseListShell>
  );
}

/** The 'waiting for confirmation' toggle; it switches the default sort (spec 01 §9). */
function WaitingToggle() {
  const { filterValues, setFilters, setSort } = useListContext();
  // Local state so the switch answers at once; the list follows its filter.
  const [on, setOn] = useState(!!filterValues.onlyWaitingForConfirmation);
  return (
    <FormControlLabel
      sx={{ ml: 0 }}
      control={
        <Switch
          checked={on}
          data-testid="case-waiting-toggle"
          onChange={(_e, checked) => {
            setOn(checked);
            const { onlyWaitingForConfirmation: _drop, ...rest } = filterValues;
            setFilters(checked ? { ...rest, onlyWaitingForConfirmation: true } : rest, undefined, false);
            setSort({ field: checked ? 'patientAcceptedCreatedAt' : 'grantedAccessCreatedAt', order: 'ASC' });
          }}
        />
      }
      label="Waiting for confirmation"
    />
  );
}

/** Users of a Referring division: the cases they were granted access to. */
function ReferringCaseList({ embedded = false }: { embedded?: boolean }) {
  return (
    <CaseListShell
      embedded={embedded}
      sort={{ field: 'grantedAccessCreatedAt', order: 'ASC' }}
      above={
        <Box sx={{ px: 2, pt: 1 }}>
          <WaitingToggle />
        </Box>
      }
    >
      {patientField()}
      <FunctionField source="sourceFacility" label="Source facility" sortBy="sourceFacility" render={(r: CaseRow) => r.sourceFacility.name} />
      <FunctionField
        source="grantedAccessCreatedAt"
        label="Time since access granted"
        sortBy="grantedAccessCreatedAt"
        render={(r: CaseRow) => since(r.grantedAccessCreatedAt)}
      />
    </CaseListShell>
  );
}

/** Search box, 'show all cases' and the active-for-hours number, enabled only with show-all. */
function ProviderFilterBar() {
  const { filterValues, setFilters } = useListContext();
  const [text, setText] = useState<string>(filterValues.search ?? '');
  const debounced = useDebounced(text, 400);
  const [showAll, setShowAll] = useState(!!filterValues.showAll);
  const [hours, setHours] = useState<string>(filterValues.activeForHours ? String(filterValues.activeForHours) : '');
  const apply = (patch: Record<string, unknown>, debounce = false) => {
    const next: Record<string, unknown> = { ...filterValues, ...patch };
    Object.keys(next).forEach((k) => (next[k] === null || next[k] === '' || next[k] === false || next[k] === undefined) && delete next[k]);
    setFilters(next, undefined, debounce);
  };
  useEffect(() => {
    if ((filterValues.search ?? '') !== debounced) apply({ search: debounced.trim() || null });
  }, [debounced]);
  return (
    <Stack direction="row" spacing={2} alignItems="center" sx={{ px: 2, pt: 2, pb: 1 }} flexWrap="wrap" useFlexGap>
      <MuiTextField size="small" label="Search" value={text} onChange={(e) => setText(e.target.value)} inputProps={{ 'data-testid': 'case-search' }} sx={{ minWidth: 260 }} />
      <FormControlLabel
        control={
          <Checkbox
            checked={showAll}
            onChange={(_e, checked) => {
              setShowAll(checked);
              if (!checked) setHours('');
              apply(checked ? { showAll: true } : { showAll: null, activeForHours: null });
            }}
            inputProps={{ 'data-testid': 'case-show-all' } as never}
          />
        }
        label="Show all cases"
      />
      <MuiTextField
        size="small"
        type="number"
        label="Active for hours"
        value={hours}
        disabled={!showAll}
        onChange={(e) => {
          setHours(e.target.value);
          const n = Number(e.target.value);
          apply({ activeForHours: Number.isInteger(n) && n >= 1 && n <= 99 ? n : null }, true);
        }}
        inputProps={{ min: 1, max: 99, 'data-testid': 'case-active-hours' }}
        sx={{ width: 160 }}
      />
    </Stack>
  );
}

/** Providers: the cases with a request assigned to them (or all, within a number of hours). */
function ProviderCaseList({ embedded = false }: { embedded?: boolean }) {
  return (
    <CaseListShell embedded={embedded} sort={{ field: 'timeElapsed', order: 'DESC' }} above={<ProviderFilterBar />}>
      {patientField(true)}
      <FunctionField source="sourceFacility" label="Source facility" sortBy="sourceFacility" render={(r: CaseRow) => r.sourceFacility.name} />
      {contactField()}
      {elapsedField()}
      {statusField()}
    </CaseListShell>
  );
}

/**
 * /cases: one table per audience (spec 01 §2). `embedded`: the same table on the dashboard (spec
 * 02 §2: ITP and facility staff find their cases there; only providers have a Cases link).
 */
export function CaseList({ embedded = false }: { embedded?: boolean }) {
  const { context } = useSession();
  const variant = caseListVariant(context.role, context.divisionType);
  return (
    <Box>
      {!embedded && <PageTitle title="Cases" />}
      {variant === 'itp' && <ItpCaseList embedded={embedded} />}
      {variant === 'facility' && <FacilityCaseList embedded={embedded} />}
      {variant === 'referring' && <ReferringCaseList embedded={embedded} />}
      {variant === 'provider' && <ProviderCaseList embedded={embedded} />}
    </Box>
  );
}
