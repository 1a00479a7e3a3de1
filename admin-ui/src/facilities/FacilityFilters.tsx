import { AutocompleteArrayInput, BooleanInput, SearchInput, SelectInput } from 'react-admin';
import { NO_DIVISION_SPECIFIED, US_STATES } from '@crisis/forms/core';
import { CityChipsInput } from '../common/PlaceChipsInputs';
import { inputTestId } from '../common/testId';

const STATE_CHOICES = US_STATES.map((s) => ({ id: s.code, name: `${s.code} – ${s.name}` }));
const DIVISION_TYPE_CHOICES = [
  { id: 'Source', name: 'Source' },
  { id: 'Referring', name: 'Referring' },
  { id: NO_DIVISION_SPECIFIED, name: 'No division specified' },
];

/** Facility list filters (spec 03 §2): name search, active only, states, cities, division type. */
export const facilityFilters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Search by name" {...inputTestId('facility-filter-q')} />,
  <BooleanInput key="active" source="showActiveOnly" label="Active only" alwaysOn helperText={false} sx={{ ml: 1 }} data-testid="facility-filter-active" />,
  <AutocompleteArrayInput
    key="states"
    source="states"
    label="States"
    choices={STATE_CHOICES}
    alwaysOn
    sx={{ minWidth: 220 }}
    data-testid="facility-filter-states"
  />,
  <CityChipsInput key="cities" source="cities" label="Cities" alwaysOn testId="facility-filter-cities" />,
  <SelectInput
    key="divisionType"
    source="divisionType"
    label="Division type"
    choices={DIVISION_TYPE_CHOICES}
    alwaysOn
    emptyText="Any"
    data-testid="facility-filter-divisionType"
  />,
];
