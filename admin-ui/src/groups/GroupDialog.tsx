import { useEffect, useState } from 'react';
import { Box, Typography } from '@mui/material';
import { AutocompleteArrayInput, TextInput } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { US_STATES, type GroupOrganizationRecord } from '@crisis/forms/core';
import { RecordDialog } from '../billing-codes/RecordDialog';
import { CheckboxInput } from '../common/CheckboxInput';
import { CountyChipsInput } from '../common/PlaceChipsInputs';
import { schemaValidator } from '../common/schemaValidation';
import { inputTestId } from '../common/testId';
import { api } from '../data/httpClient';

const STATE_CHOICES = US_STATES.map((s) => ({ id: s.code, name: `${s.code} – ${s.name}` }));

type Values = Partial<GroupOrganizationRecord>;

const toPayload = (v: Values) => ({
  name: v.name ?? null,
  description: v.description ?? null,
  isActive: !!v.isActive,
  mfaEnabled: !!v.mfaEnabled,
  states: v.states ?? [],
  counties: v.counties ?? [],
  facilities: v.facilities ?? [],
  excludedFacilities: v.excludedFacilities ?? [],
  placementFacilities: v.placementFacilities ?? [],
});
const validate = schemaValidator('groupOrganization', toPayload);

interface FacilityChoice {
  id: number;
  name: string;
  address: { city: string; state: string };
}

/** The facilities of the chosen states (GET /api/facilities/lookups?states=…), sorted by name. */
function useFacilitiesOf(states: string[]): FacilityChoice[] {
  const [choices, setChoices] = useState<FacilityChoice[]>([]);
  const key = [...states].sort().join(',');
  useEffect(() => {
    if (!key) return setChoices([]);
    let live = true;
    const q = key
      .split(',')
      .map((s) => `states=${encodeURIComponent(s)}`)
      .join('&');
    api
      .get<FacilityChoice[]>(`/api/facilities/lookups?${q}`)
      .then((rows) => live && setChoices(rows ?? []))
      .catch(() => live && setChoices([]));
    return () => {
      live = false;
    };
  }, [key]);
  return choices;
}

const label = (f: FacilityChoice) => `${f.name} (${f.address.city}, ${f.address.state})`;

/**
 * The states → counties → facilities cascade (spec 03 §5 Group): changing the states resets the
 * counties and the three facility lists; facilities and excluded facilities exclude each other.
 */
function GroupFields() {
  const { setValue } = useFormContext();
  const states: string[] = useWatch({ name: 'states' }) ?? [];
  const included: number[] = useWatch({ name: 'facilities' }) ?? [];
  const excluded: number[] = useWatch({ name: 'excludedFacilities' }) ?? [];
  const facilities = useFacilitiesOf(states);
  const toChoice = (f: FacilityChoice) => ({ id: f.id, name: label(f) });
  const noStates = states.length === 0;
  const facilityLists: Array<[string, string, FacilityChoice[]]> = [
    ['facilities', 'Facilities *', facilities.filter((f) => !excluded.includes(f.id))],
    ['excludedFacilities', 'Excluded facilities', facilities.filter((f) => !included.includes(f.id))],
    ['placementFacilities', 'Placement facilities', facilities],
  ];
  const reset = () => {
    for (const f of ['counties', 'facilities', 'excludedFacilities', 'placementFacilities'])
      setValue(f, [], { shouldDirty: true, shouldValidate: false });
  };
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <TextInput source="name" label="Name" isRequired fullWidth {...inputTestId('group-name')} />
      <TextInput source="description" label="Description" multiline minRows={2} fullWidth {...inputTestId('group-description')} />
      <Box sx={{ display: 'flex', gap: 3 }}>
        <CheckboxInput source="isActive" label="Active" testId="group-isActive" />
        <CheckboxInput source="mfaEnabled" label="MFA enabled" testId="group-mfaEnabled" />
      </Box>
      <AutocompleteArrayInput
        source="states"
        label="States *"
        choices={STATE_CHOICES}
        onChange={reset}
        fullWidth
        data-testid="group-states"
      />
      <Box>
        <CountyChipsInput source="counties" label="Counties" testId="group-counties" />
        <Typography variant="caption" color="text.secondary">
          {noStates ? 'Choose the states first.' : 'Counties of the chosen states: type 2 letters and pick one.'}
        </Typography>
      </Box>
      {facilityLists.map(([source, label, offered]) => (
        <AutocompleteArrayInput
          key={source}
          source={source}
          label={label}
          choices={offered.map(toChoice)}
          disabled={noStates}
          fullWidth
          data-testid={`group-${source}`}
        />
      ))}
    </Box>
  );
}

/** Add/edit modal of a group organization. */
export function GroupDialog({ id, onClose, onSaved }: { id: number | null; onClose: () => void; onSaved: () => void }) {
  return (
    <RecordDialog<Values>
      resource="group-organizations"
      id={id}
      testId="group"
      title={{ create: 'Add group organization', edit: 'Edit group organization' }}
      blank={() => ({
        name: '',
        description: '',
        isActive: true,
        mfaEnabled: false,
        states: [],
        counties: [],
        facilities: [],
        excludedFacilities: [],
        placementFacilities: [],
      })}
      toPayload={toPayload}
      validate={validate}
      messages={{ created: 'Group organization created', updated: 'Group organization updated' }}
      onClose={onClose}
      onSaved={onSaved}
      maxWidth="md"
    >
      <GroupFields />
    </RecordDialog>
  );
}
