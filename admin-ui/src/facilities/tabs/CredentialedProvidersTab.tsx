import { useEffect, useState } from 'react';
import { Checkbox, FormControl, InputLabel, ListItemText, MenuItem, Select, TextField, Typography } from '@mui/material';
import { CheckboxGroupInput, SelectInput, useNotify } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { AGE_BANDS, allDivisionsChosen, SIMPLE_LIST_PAGE_SIZE, type CredentialedProviderRecord } from '@crisis/forms/core';
import { blockedActionDialog } from '../../common/blockedAction';
import { FormDialog, ON_TOUCHED } from '../../common/FormDialog';
import { InfoDialog, type InfoDialogContent } from '../../common/InfoDialog';
import { schemaValidator } from '../../common/schemaValidation';
import { useDebounced } from '../../common/useDebounced';
import { isCodedError } from '../../data/codedError';
import { useAppData } from '../../data/query';
import { AcceptedPatientsInput } from '../divisions/AcceptedPatientsInput';
import { emptyAcceptedPatients } from '../divisions/divisionPayload';
import { TabTable, useConfirmedRemoval, useTabQuery } from './TabTable';

interface FormValues {
  providerId: number | null;
  divisionsIds: number[];
  addToNewDivisions: boolean;
  acceptedPatients: any;
}

const toPayload = (v: FormValues) => ({
  providerId: v.providerId ?? null,
  divisionsIds: v.divisionsIds ?? [],
  addToNewDivisions: !!v.addToNewDivisions,
  acceptedPatients: v.acceptedPatients,
});
const validateProvider = schemaValidator('credentialedProvider', toPayload);

/** addToNewDivisions follows "all offered divisions chosen" (spec 03 §4). */
function AddToNewDivisionsSync({ offered }: { offered: number[] }) {
  const { setValue } = useFormContext();
  const chosen: number[] = useWatch({ name: 'divisionsIds' }) ?? [];
  const key = chosen.slice().sort().join(',');
  useEffect(() => {
    setValue('addToNewDivisions', allDivisionsChosen(chosen, offered), { shouldDirty: true });
  }, [key, offered.join(',')]);
  const on = useWatch({ name: 'addToNewDivisions' });
  return (
    <Typography variant="body2" color="text.secondary" data-testid="add-to-new-divisions">
      {on ? 'All divisions chosen: new Source divisions of this facility will get this provider too.' : 'New Source divisions will not get this provider.'}
    </Typography>
  );
}

function ProviderDialog({
  facilityId,
  editing,
  onClose,
  onSaved,
}: {
  facilityId: number;
  editing: CredentialedProviderRecord | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const notify = useNotify();
  const dp = useAppData();
  const [blocked, setBlocked] = useState<InfoDialogContent | null>(null);
  const providers = useTabQuery(facilityId, ['availableProviders', editing?.id ?? null], (dp) => dp.availableProviders(facilityId, editing?.id ?? null), true).data;
  const divisions = useTabQuery(facilityId, ['sourceDivisions', 'dialog'], (dp) => dp.activeSourceDivisions(facilityId), true).data;

  const offered = [...(divisions ?? [])];
  for (const d of editing?.divisions ?? []) if (!offered.some((o) => o.id === d.id)) offered.push(d);
  const record: FormValues = editing
    ? {
        providerId: editing.id,
        divisionsIds: editing.divisions.map((d) => d.id),
        addToNewDivisions: editing.addToNewDivisions,
        acceptedPatients: { ...emptyAcceptedPatients(), ...editing.acceptedPatients },
      }
    : { providerId: null, divisionsIds: [], addToNewDivisions: false, acceptedPatients: emptyAcceptedPatients() };

  const submit = async (values: Record<string, unknown>) => {
    const payload = toPayload(values as unknown as FormValues);
    for (const b of AGE_BANDS) if (payload.acceptedPatients?.[b] && !payload.acceptedPatients[b].isActive) payload.acceptedPatients[b] = { isActive: false, from: null, to: null };
    try {
      if (editing) await dp.updateCredentialedProvider(facilityId, editing.id, payload);
      else await dp.createCredentialedProvider(facilityId, payload);
      notify(editing ? 'Credentialed provider updated' : 'Credentialed provider added', { type: 'success' });
      onSaved();
    } catch (e) {
      if (isCodedError(e) && (e.body as any)?.errors) return (e.body as any).errors;
      const dialog = blockedActionDialog(e);
      if (dialog) return void setBlocked(dialog);
      if (isCodedError(e) && e.payload && Array.isArray(e.payload))
        return void setBlocked({ title: 'The provider has pending requests', message: 'These divisions have pending requests:', items: e.payload.map(String) });
      notify((e as Error).message, { type: 'error' });
    }
  };

  return (
    <FormDialog
      title={editing ? 'Edit credentialed provider' : 'Add credentialed provider'}
      testId="cp"
      loading={!providers || !divisions}
      form={{ record: record as any, onSubmit: submit, validate: validateProvider as any, ...ON_TOUCHED }}
      onClose={onClose}
      dialogs={<InfoDialog content={blocked} onClose={() => setBlocked(null)} />}
    >
      <SelectInput
        source="providerId"
        label="Provider"
        choices={(providers ?? []).map((p) => ({ id: p.id, name: p.providerType ? `${p.fullName} (${p.providerType})` : p.fullName }))}
        disabled={!!editing}
        fullWidth
        data-testid="cp-provider"
      />
      {offered.length === 0 ? (
        <Typography color="error">The facility has no active Source divisions.</Typography>
      ) : (
        <CheckboxGroupInput source="divisionsIds" label="Divisions" choices={offered} row={false} data-testid="cp-divisions" />
      )}
      <AddToNewDivisionsSync offered={(divisions ?? []).map((d) => d.id)} />
      <AcceptedPatientsInput readOnly={false} />
    </FormDialog>
  );
}

/** Credentialed providers tab (spec 03 §2): search by name and divisions; name, divisions, remove; add/edit modal. */
export function CredentialedProvidersTab({ facilityId }: { facilityId: number }) {
  const dp = useAppData();
  const [q, setQ] = useState('');
  const [divisionFilter, setDivisionFilter] = useState<number[]>([]);
  const [page, setPage] = useState(0);
  const [open, setOpen] = useState<{ editing: CredentialedProviderRecord | null } | null>(null);
  const [blocked, setBlocked] = useState<InfoDialogContent | null>(null);
  const debounced = useDebounced(q);
  const filter = { ...(debounced.trim() ? { q: debounced.trim() } : {}), ...(divisionFilter.length ? { divisionsIds: divisionFilter } : {}) };
  const list = useTabQuery(facilityId, ['credentialedProviders', filter, page], (dp) => dp.credentialedProviders(facilityId, filter, page, SIMPLE_LIST_PAGE_SIZE));
  const divisions = useTabQuery(facilityId, ['sourceDivisions'], (dp) => dp.activeSourceDivisions(facilityId)).data ?? [];
  const removal = useConfirmedRemoval<CredentialedProviderRecord>({
    title: 'Remove credentialed provider',
    message: (r) => `Remove ${r.provider.fullName} from this facility?`,
    run: (r) => dp.removeCredentialedProvider(facilityId, r.id),
    success: 'Credentialed provider removed',
    then: list.reload,
    failed: (e) => {
      const dialog = blockedActionDialog(e);
      if (dialog) setBlocked(dialog);
      return !!dialog;
    },
  });

  const filters = (
    <>
      <TextField
        size="small"
        label="Search by name"
        value={q}
        onChange={(e) => {
          setQ(e.target.value);
          setPage(0);
        }}
        slotProps={{ htmlInput: { 'data-testid': 'cp-search' } }}
      />
      <FormControl size="small" sx={{ minWidth: 220 }}>
        <InputLabel id="cp-division-filter">Divisions</InputLabel>
        <Select
          labelId="cp-division-filter"
          label="Divisions"
          multiple
          value={divisionFilter}
          onChange={(e) => {
            setDivisionFilter(e.target.value as number[]);
            setPage(0);
          }}
          renderValue={(ids) => divisions.filter((d) => (ids as number[]).includes(d.id)).map((d) => d.name).join(', ')}
        >
          {divisions.map((d) => (
            <MenuItem key={d.id} value={d.id}>
              <Checkbox checked={divisionFilter.includes(d.id)} />
              <ListItemText primary={d.name} />
            </MenuItem>
          ))}
        </Select>
      </FormControl>
    </>
  );

  return (
    <TabTable<CredentialedProviderRecord>
      testId="credentialed-providers-tab"
      prefix="cp"
      filters={filters}
      add={{ label: 'Add provider', onClick: () => setOpen({ editing: null }) }}
      columns={[
        {
          label: 'Name',
          render: (r) => (
            <Typography variant="body2" color="primary">
              {r.provider.fullName}
            </Typography>
          ),
        },
        { label: 'Divisions', render: (r) => r.divisions.map((d) => d.name).join(', ') },
      ]}
      data={list.data}
      emptyText="No credentialed providers"
      onRowClick={(r) => setOpen({ editing: r })}
      onRemove={removal.remove}
      pager={{ page, perPage: SIMPLE_LIST_PAGE_SIZE, onPageChange: setPage }}
      dialogs={
        <>
          {open && (
            <ProviderDialog
              facilityId={facilityId}
              editing={open.editing}
              onClose={() => setOpen(null)}
              onSaved={() => {
                setOpen(null);
                list.reload();
              }}
            />
          )}
          {removal.dialog}
          <InfoDialog content={blocked} onClose={() => setBlocked(null)} />
        </>
      }
    />
  );
}
