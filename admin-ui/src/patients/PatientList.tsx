import { useState } from 'react';
import { Button, Link as MuiLink, Typography } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { AutocompleteArrayInput, Datagrid, FunctionField, List, SearchInput, SelectArrayInput, TopToolbar } from 'react-admin';
import { GENDERS, US_STATES, type PatientDirectoryRow } from '@crisis/forms/core';
import { useSession } from '../auth/session';
import { CityChipsInput } from '../common/PlaceChipsInputs';
import { ListPager } from '../common/ListPager';
import { PageTitle } from '../common/PageTitle';
import { FoundTotal } from '../common/ReferenceList';
import { inputTestId } from '../common/testId';
import { useAppQuery } from '../data/query';
import { MergeGroupsDialog } from './MergeGroupsDialog';
import { PatientDetailsDialog } from './PatientDetailsDialog';
import { AGE_RANGE_CHOICES, dobText, facilityText, genderText } from './patientText';

type Row = PatientDirectoryRow & { sourceFacilities: Array<PatientDirectoryRow['sourceFacilities'][number] & { nameRepeats?: boolean }> };

const STATE_CHOICES = US_STATES.map((s) => ({ id: s.code, name: `${s.code} – ${s.name}` }));
const GENDER_CHOICES = GENDERS.map((g) => ({ id: g, name: genderText(g) }));

/** The directory's filters (spec 02 §2, §5): name, cities, states, age ranges, genders. */
const patientFilters = [
  <SearchInput key="name" source="name" alwaysOn placeholder="Search by name" {...inputTestId('patient-filter-name')} />,
  <CityChipsInput key="cities" source="cities" label="Cities" alwaysOn testId="patient-filter-cities" />,
  <AutocompleteArrayInput key="states" source="states" label="States" choices={STATE_CHOICES} alwaysOn sx={{ minWidth: 200 }} data-testid="patient-filter-states" />,
  <SelectArrayInput key="ageRanges" source="ageRanges" label="Age ranges" choices={AGE_RANGE_CHOICES} alwaysOn sx={{ minWidth: 180 }} data-testid="patient-filter-ageRanges" />,
  <SelectArrayInput key="genders" source="genders" label="Genders" choices={GENDER_CHOICES} alwaysOn sx={{ minWidth: 180 }} data-testid="patient-filter-genders" />,
];

/** ITP admin: the view-duplicates button with the number of groups to review. */
function DuplicatesButton({ onOpen }: { onOpen: () => void }) {
  const { data } = useAppQuery(['patients', 'mergeGroups', 1], (dp) => dp.mergeGroups(1));
  return (
    <Button variant="outlined" startIcon={<ContentCopyIcon />} onClick={onOpen} data-testid="patient-view-duplicates" data-count={data?.total ?? ''}>
      View duplicates{data ? ` (${data.total})` : ''}
    </Button>
  );
}

/** /patients (spec 02 §2 "Patients"): ITP admins and users; duplicates and merge for the admin only. */
export function PatientList() {
  const { ability } = useSession();
  const [details, setDetails] = useState<number | null>(null);
  const [groupsOpen, setGroupsOpen] = useState(false);
  const mayMerge = ability.can('access', 'PatientMerge');
  return (
    <>
      <PageTitle title="Patients" />
      <List
        resource="patients"
        title=" "
        filters={patientFilters}
        sort={{ field: 'name', order: 'ASC' }}
        perPage={25}
        pagination={<ListPager />}
        empty={false}
        storeKey={false}
        actions={
          <TopToolbar sx={{ alignItems: 'center', gap: 2 }}>
            <FoundTotal testId="patient-total" />
            {mayMerge && <DuplicatesButton onOpen={() => setGroupsOpen(true)} />}
          </TopToolbar>
        }
      >
        <Datagrid bulkActionButtons={false} rowClick={false} data-testid="patient-table">
          <FunctionField source="referenceNumber" label="Reference" sortBy="referenceNumber" render={(r: Row) => <span data-testid="patient-reference">{r.referenceNumber}</span>} />
          <FunctionField
            source="name"
            label="Name"
            sortBy="name"
            render={(r: Row) => (
              <MuiLink component="button" type="button" onClick={() => setDetails(r.id)} data-testid="patient-name">
                {r.firstName} {r.lastName}
              </MuiLink>
            )}
          />
          <FunctionField source="gender" label="Gender" sortBy="gender" render={(r: Row) => genderText(r.gender)} />
          <FunctionField source="dateOfBirth" label="DOB" sortBy="dateOfBirth" render={(r: Row) => <span data-testid="patient-dob">{dobText(r.dateOfBirth)}</span>} />
          <FunctionField source="city" label="City / state" sortBy="city" render={(r: Row) => [r.address.city, r.address.state].filter(Boolean).join(', ')} />
          <FunctionField
            label="Source facilities"
            sortable={false}
            render={(r: Row) => (
              <Typography variant="body2">{r.sourceFacilities.length ? r.sourceFacilities.map((f) => facilityText(f)).join('; ') : '—'}</Typography>
            )}
          />
          <FunctionField
            label="History"
            sortable={false}
            render={(r: Row) => (
              <MuiLink href={`/patients/${r.id}/history`} target="_blank" rel="noopener" data-testid="patient-history-link">
                History
              </MuiLink>
            )}
          />
        </Datagrid>
      </List>
      {details !== null && <PatientDetailsDialog patientId={details} onClose={() => setDetails(null)} />}
      {groupsOpen && <MergeGroupsDialog onClose={() => setGroupsOpen(false)} />}
    </>
  );
}
