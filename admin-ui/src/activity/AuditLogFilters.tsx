import { useEffect, useMemo, useState } from 'react';
import { AutocompleteInput, DateTimeInput, SelectInput, useInput } from 'react-admin';
import { auditLogFilterRules, AUDIT_LOG_DEFAULT_RANGE_MS, USER_SEARCH_MIN_CHARS, type UserLookup } from '@crisis/forms/core';
import { useDebounced } from '../common/useDebounced';
import { useAppData, useAppQuery } from '../data/query';

const userLabel = (u: UserLookup) =>
  `${u.fullName ?? [u.firstName, u.lastName].filter(Boolean).join(' ')}${u.email ? ` (${u.email})` : ''}`.trim();

const toIso = (v: unknown) => (v instanceof Date ? v.toISOString() : typeof v === 'string' && v ? new Date(v).toISOString() : null);

/** 'To' not before 'From' (cross time) and neither in the future: the same rule the API applies. */
const rangeRule = (field: 'from' | 'to') => (_: unknown, all: Record<string, unknown>) => {
  try {
    const errors = auditLogFilterRules({ from: toIso(all.from), to: toIso(all.to) });
    return errors.find((e) => e.field === field)?.message;
  } catch {
    return undefined;
  }
};

/** Spec 03 §4: the range defaults to the last day up to now ('to' empty means now). */
export const auditLogDefaultFilter = () => ({ from: new Date(Date.now() - AUDIT_LOG_DEFAULT_RANGE_MS).toISOString() });

/** `source` and `alwaysOn` are read by react-admin's filter form from the element's props. */
interface FilterProps {
  source: string;
  alwaysOn?: boolean;
}

function MainActionFilter(_: FilterProps) {
  const actions = useAppQuery(['audit', 'mainActions'], (dp) => dp.auditMainActions()).data ?? [];
  const choices = actions.map((a) => ({ id: a, name: a }));
  return <SelectInput source="mainAction" label="Main action" choices={choices} emptyText="Any" sx={{ minWidth: 200 }} data-testid="audit-filter-mainAction" />;
}

/** User autocomplete on GET /api/user/lookups (3+ characters), filtering by user id. */
function UserFilter(_: FilterProps) {
  const { field } = useInput({ source: 'userId' });
  const dp = useAppData();
  const [search, setSearch] = useState('');
  const debounced = useDebounced(search, 300);
  const [found, setFound] = useState<UserLookup[]>([]);
  const [selected, setSelected] = useState<UserLookup | null>(null);
  useEffect(() => {
    if (debounced.length < USER_SEARCH_MIN_CHARS) return;
    let live = true;
    dp.lookupUsers({ nameOrEmail: debounced }).then((r) => live && setFound(r)).catch(() => undefined);
    return () => {
      live = false;
    };
  }, [debounced]);
  // A persisted filter names a user by id only: fetch her label once.
  useEffect(() => {
    const id = Number(field.value);
    if (!id || selected?.id === id) return;
    dp.lookupUsers({ id: [id] })
      .then((r) => setSelected(r.find((u) => u.id === id) ?? { id, fullName: `User ${id}` }))
      .catch(() => setSelected({ id, fullName: `User ${id}` }));
  }, [field.value, selected?.id]);
  const choices = useMemo(() => {
    const all = [...(selected ? [selected] : []), ...found.filter((u) => u.id !== selected?.id)];
    return all.map((u) => ({ id: u.id, name: userLabel(u) }));
  }, [found, selected]);
  return (
    <AutocompleteInput
      source="userId"
      label="User"
      choices={choices}
      setFilter={setSearch}
      filterToQuery={(q: string) => q}
      shouldRenderSuggestions={(q: string) => q.trim().length >= USER_SEARCH_MIN_CHARS}
      onChange={(id: unknown) => setSelected(found.find((u) => u.id === id) ?? null)}
      noOptionsText={`Type at least ${USER_SEARCH_MIN_CHARS} characters`}
      sx={{ minWidth: 260 }}
      data-testid="audit-filter-user"
    />
  );
}

const SUCCESS_CHOICES = [
  { id: 'true', name: 'Succeeded' },
  { id: 'false', name: 'Failed' },
];
const parseSuccess = (v: unknown) => (v === 'true' ? true : v === 'false' ? false : null);
const formatSuccess = (v: unknown) => (v === true ? 'true' : v === false ? 'false' : '');
/** The input holds local 'yyyy-MM-ddTHH:mm'; the filter carries an ISO instant (UTC). */
const parseDateTime = (v: unknown) => (typeof v === 'string' && v && !Number.isNaN(Date.parse(v)) ? new Date(v).toISOString() : null);

/** Audit log filters (spec 03 §5): range, main action, user, success. */
export const auditLogFilters = [
  <DateTimeInput key="from" source="from" label="From" alwaysOn parse={parseDateTime} validate={rangeRule('from')} data-testid="audit-filter-from" />,
  <DateTimeInput key="to" source="to" label="To (empty: now)" alwaysOn parse={parseDateTime} validate={rangeRule('to')} data-testid="audit-filter-to" />,
  <MainActionFilter key="mainAction" source="mainAction" alwaysOn />,
  <UserFilter key="userId" source="userId" alwaysOn />,
  <SelectInput key="success" source="success" label="Success" choices={SUCCESS_CHOICES} parse={parseSuccess} format={formatSuccess} emptyText="Any" alwaysOn data-testid="audit-filter-success" />,
];
