import { useState } from 'react';
import { Autocomplete, CircularProgress, TextField } from '@mui/material';
import { useNotify } from 'react-admin';
import { PREFERRED_FACILITIES_PAGE_SIZE, REQUIRED_MESSAGE, type FacilityLookup, type PreferredFacilityRecord } from '@crisis/forms/core';
import { ActionDialog } from '../../common/ActionDialog';
import { validatePayload } from '../../common/schemaValidation';
import { isCodedError } from '../../data/codedError';
import { useAppData } from '../../data/query';
import { TabTable, useConfirmedRemoval, useTabQuery } from './TabTable';

const label = (f: FacilityLookup) => `${f.name} (${f.address.city}, ${f.address.state})`;

function AddPreferredDialog({ facilityId, onClose, onSaved }: { facilityId: number; onClose: () => void; onSaved: () => void }) {
  const notify = useNotify();
  const dp = useAppData();
  const choices = useTabQuery(facilityId, ['availablePreferred'], (dp) => dp.availablePreferred(facilityId), true).data;
  const [value, setValue] = useState<FacilityLookup | null>(null);
  const [touched, setTouched] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const errors = validatePayload('preferredFacility', { facilityId: value?.id ?? null });
  const error = serverError ?? (touched && errors.length ? (errors[0].key === 'required' ? REQUIRED_MESSAGE : errors[0].message) : null);

  const save = async () => {
    setTouched(true);
    if (errors.length || !value) return;
    setSaving(true);
    try {
      await dp.addPreferred(facilityId, value.id);
      notify('Preferred facility added', { type: 'success' });
      onSaved();
    } catch (e) {
      if (isCodedError(e) && e.fields.length) setServerError(e.fields[0].message);
      else notify((e as Error).message, { type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <ActionDialog
      title="Add preferred facility"
      testId="pf-dialog"
      onClose={onClose}
      action={{ label: 'Add', testId: 'pf-save', onClick: save, disabled: saving }}
      maxWidth="sm"
      fullWidth
      dividers
    >
      {!choices ? (
        <CircularProgress />
      ) : (
        <Autocomplete
          options={choices}
          value={value}
          getOptionLabel={label}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          onChange={(_e, v) => {
            setValue(v);
            setServerError(null);
            setTouched(true);
          }}
          renderInput={(params) => (
            <TextField
              {...params}
              label="Facility *"
              error={!!error}
              helperText={error ?? 'Facilities with an active Referring division'}
              onBlur={() => setTouched(true)}
              slotProps={{ htmlInput: { ...params.inputProps, 'data-testid': 'pf-facility' } }}
            />
          )}
        />
      )}
    </ActionDialog>
  );
}

/** Preferred facilities tab (spec 03 §2): a table paged at 10, an add modal, removal with confirmation. */
export function PreferredFacilitiesTab({ facilityId }: { facilityId: number }) {
  const dp = useAppData();
  const [page, setPage] = useState(0);
  const [adding, setAdding] = useState(false);
  const list = useTabQuery(facilityId, ['preferredFacilities', page], (dp) => dp.preferredFacilities(facilityId, page, PREFERRED_FACILITIES_PAGE_SIZE));
  const removal = useConfirmedRemoval<PreferredFacilityRecord>({
    title: 'Remove preferred facility',
    message: (r) => `Remove ${r.name} from the preferred facilities?`,
    run: (r) => dp.removePreferred(facilityId, r.id),
    success: 'Preferred facility removed',
    then: () => {
      if (list.data && list.data.rows.length === 1 && page > 0) setPage(page - 1);
      list.reload();
    },
  });

  return (
    <TabTable<PreferredFacilityRecord>
      testId="preferred-facilities-tab"
      prefix="pf"
      add={{ label: 'Add preferred facility', onClick: () => setAdding(true) }}
      columns={[
        { label: 'Name', render: (r) => r.name },
        { label: 'City, state', render: (r) => `${r.address.city}, ${r.address.state}` },
        { label: 'Divisions', render: (r) => r.divisions.map((d) => d.name).join(', ') },
      ]}
      data={list.data}
      emptyText="No preferred facilities"
      onRemove={removal.remove}
      pager={{ page, perPage: PREFERRED_FACILITIES_PAGE_SIZE, onPageChange: setPage }}
      dialogs={
        <>
          {adding && (
            <AddPreferredDialog
              facilityId={facilityId}
              onClose={() => setAdding(false)}
              onSaved={() => {
                setAdding(false);
                list.reload();
              }}
            />
          )}
          {removal.dialog}
        </>
      }
    />
  );
}
