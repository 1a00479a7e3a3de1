import { useState } from 'react';
import { Box, Checkbox, FormControlLabel, IconButton } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import { NumberInput, SelectInput, useNotify } from 'react-admin';
import { useWatch } from 'react-hook-form';
import {
  enumLabel,
  secondsToTravelTime,
  STATE_RESTRICTION_TYPES,
  StateRestrictionType,
  travelTimeToSeconds,
  type StateRestrictionRecord,
} from '@crisis/forms/core';
import { useConfirmation } from '../../common/ConfirmDialog';
import { FormDialog, ON_TOUCHED } from '../../common/FormDialog';
import { schemaValidator } from '../../common/schemaValidation';
import { SimpleTable } from '../../common/SimpleTable';
import { isCodedError } from '../../data/codedError';
import { useAppData } from '../../data/query';
import { useTabQuery } from './TabTable';

interface FormValues {
  type: string | null;
  hours: number | null;
  minutes: number | null;
}
const num = (v: unknown) => (v === '' || v === undefined || v === null ? null : Number(v));
const toFormPayload = (v: FormValues) => ({ type: v.type ?? null, hours: num(v.hours), minutes: num(v.minutes) });
const validateRestriction = schemaValidator('stateRestrictionForm', toFormPayload);

/** Travel time as hours and minutes ("1 h 30 min"). */
function travel(seconds: number | null): string {
  if (seconds === null) return '—';
  const { hours, minutes } = secondsToTravelTime(seconds);
  return [hours ? `${hours} h` : '', minutes || !hours ? `${minutes} min` : ''].filter(Boolean).join(' ');
}

function TravelTimeFields() {
  const type = useWatch({ name: 'type' });
  if (type !== StateRestrictionType.OnlyPopulateFacilitiesWithinTravelTime) return null;
  return (
    <Box sx={{ display: 'flex', gap: 2 }}>
      <NumberInput source="hours" label="Hours *" min={0} slotProps={{ htmlInput: { 'data-testid': 'sr-hours' } } as any} />
      <NumberInput source="minutes" label="Minutes *" min={0} slotProps={{ htmlInput: { 'data-testid': 'sr-minutes' } } as any} />
    </Box>
  );
}

function RestrictionDialog({ facilityId, row, onClose, onSaved }: { facilityId: number; row: StateRestrictionRecord; onClose: () => void; onSaved: () => void }) {
  const notify = useNotify();
  const dp = useAppData();
  const record: FormValues = { type: row.type, ...secondsToTravelTime(row.withinTravelTime) };
  const submit = async (values: Record<string, unknown>) => {
    const v = toFormPayload(values as unknown as FormValues);
    const within = v.type === StateRestrictionType.OnlyPopulateFacilitiesWithinTravelTime ? travelTimeToSeconds(v.hours ?? 0, v.minutes ?? 0) : null;
    try {
      await dp.saveStateRestriction(facilityId, row.state, { type: v.type as string, withinTravelTime: within });
      notify('State restriction updated', { type: 'success' });
      onSaved();
    } catch (e) {
      if (isCodedError(e) && e.fields.length) return { type: e.fields.map((f) => f.message).join('; ') };
      notify((e as Error).message, { type: 'error' });
    }
  };
  return (
    <FormDialog
      title={row.stateName}
      testId="sr"
      maxWidth="xs"
      form={{ record: record as any, onSubmit: submit, validate: validateRestriction as any, ...ON_TOUCHED }}
      onClose={onClose}
    >
      <SelectInput source="type" label="Type" choices={STATE_RESTRICTION_TYPES.map((t) => ({ id: t, name: enumLabel(t) }))} fullWidth />
      <TravelTimeFields />
    </FormDialog>
  );
}

/** Restrictions tab (spec 03 §2): populate-out-of-state checkbox (confirmed, auto-submitted) and the states table. */
export function RestrictionsTab({ facilityId }: { facilityId: number }) {
  const notify = useNotify();
  const dp = useAppData();
  const rows = useTabQuery(facilityId, ['stateRestrictions'], (dp) => dp.stateRestrictions(facilityId));
  const stored = useTabQuery(facilityId, ['populateOutOfState'], (dp) => dp.populateOutOfState(facilityId)).data;
  const [changed, setChanged] = useState<boolean | null>(null);
  const populate = changed ?? stored?.populateOutOfStateFacilities ?? null;
  const [editing, setEditing] = useState<StateRestrictionRecord | null>(null);
  const confirm = useConfirmation();

  const askPopulate = (value: boolean) =>
    confirm.ask({
      title: 'Populate out-of-state facilities',
      message: value ? 'Include facilities of other states when populating?' : 'Stop including facilities of other states when populating?',
      onConfirm: async () => {
        try {
          const r = await dp.setPopulateOutOfState(facilityId, value);
          setChanged(r.populateOutOfStateFacilities);
          notify('Updated', { type: 'success' });
        } catch (e) {
          notify((e as Error).message, { type: 'error' });
        }
      },
    });

  return (
    <Box data-testid="restrictions-tab">
      <FormControlLabel
        label="Populate out-of-state facilities"
        disabled={populate === null}
        control={
          <Checkbox
            checked={!!populate}
            onChange={(e) => askPopulate(e.target.checked)}
            slotProps={{ input: { 'data-testid': 'populate-out-of-state' } as any }}
          />
        }
      />
      <SimpleTable<StateRestrictionRecord>
        testId="sr-table"
        columns={[
          { label: 'Closest travel time', render: (r) => travel(r.closestTravelTime) },
          { label: 'State', render: (r) => r.stateName },
          {
            label: 'Type',
            render: (r) =>
              enumLabel(r.type) +
              (r.type === StateRestrictionType.OnlyPopulateFacilitiesWithinTravelTime && r.withinTravelTime !== null ? ` (${travel(r.withinTravelTime)})` : ''),
          },
          {
            label: 'Edit',
            align: 'right',
            render: (r) => (
              <IconButton aria-label="edit" data-testid={`sr-edit-${r.state}`} onClick={() => setEditing(r)}>
                <EditIcon />
              </IconButton>
            ),
          },
        ]}
        rows={rows.data}
        rowKey={(r) => r.state}
        rowProps={(r) => ({ 'data-testid': `sr-row-${r.state}` })}
      />
      {editing && (
        <RestrictionDialog
          facilityId={facilityId}
          row={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            rows.reload();
          }}
        />
      )}
      {confirm.dialog}
    </Box>
  );
}
