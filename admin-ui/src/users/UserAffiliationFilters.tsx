import { useState } from 'react';
import { Autocomplete, Checkbox, ListItemText, MenuItem, TextField } from '@mui/material';
import { OrganizationType, UserType } from '@crisis/forms/core';
import { useSession } from '../auth/session';
import { useChoices, type Choice } from './useChoices';


/**
 * The users list's organization and division filters (spec 03 §4 user list filters
 * organizationIds[], divisionsIds[]):
 * - the ITP admin picks a facility (searched by name) or a group organization once the
 *   organization type says which, then that facility's divisions;
 * - a facility admin picks among her own facility's divisions.
 */
export function UserAffiliationFilters({
  organizationType,
  organizationIds,
  divisionsIds,
  onOrganization,
  onDivisions,
}: {
  organizationType: string | undefined;
  organizationIds: number[] | undefined;
  divisionsIds: number[] | undefined;
  onOrganization: (ids: number[] | undefined) => void;
  onDivisions: (ids: number[] | undefined) => void;
}) {
  const { context } = useSession();
  const isItpAdmin = context.role === UserType.ItpAdmin;
  const isFacilityAdmin = context.role === UserType.FacilityAdmin;
  const [search, setSearch] = useState('');
  const facilityId = isFacilityAdmin ? context.organizationId : organizationType === OrganizationType.Facility ? organizationIds?.[0] : undefined;
  const facilities = useChoices(
    isItpAdmin && organizationType === OrganizationType.Facility && search.trim().length >= 2
      ? `/api/facilities/lookups?filter=${encodeURIComponent(JSON.stringify({ q: search.trim() }))}`
      : null,
  );
  const groups = useChoices(isItpAdmin && organizationType === OrganizationType.Group ? `/api/group-organizations?range=${encodeURIComponent('[0,999]')}` : null);
  const divisions = useChoices(facilityId ? `/api/facilities/${facilityId}/divisions/lookups` : null);
  // The chosen organization's name, kept while the search list changes.
  const [picked, setPicked] = useState<Choice | null>(null);
  const options = organizationType === OrganizationType.Group ? groups : facilities;
  const value = organizationIds?.length ? (options.find((o) => o.id === organizationIds[0]) ?? (picked?.id === organizationIds[0] ? picked : null)) : null;

  return (
    <>
      {isItpAdmin && (organizationType === OrganizationType.Facility || organizationType === OrganizationType.Group) && (
        <Autocomplete
          size="small"
          sx={{ width: 320 }}
          options={options}
          value={value}
          getOptionLabel={(o) => o.name}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          filterOptions={(o) => o}
          onInputChange={(_, text, reason) => reason === 'input' && setSearch(text)}
          onChange={(_, choice) => {
            setPicked(choice);
            onOrganization(choice ? [Number(choice.id)] : undefined); // clears the divisions too
          }}
          noOptionsText={organizationType === OrganizationType.Facility && search.trim().length < 2 ? 'Type at least 2 characters' : 'No match'}
          renderInput={(params) => (
            <TextField
              {...params}
              label={organizationType === OrganizationType.Group ? 'Group organization' : 'Facility'}
              helperText=" "
              inputProps={{ ...params.inputProps, 'data-testid': 'users-filter-organization' }}
            />
          )}
        />
      )}
      {facilityId && (
        <TextField
          select
          size="small"
          label="Divisions"
          value={divisionsIds ?? []}
          onChange={(e) => {
            const ids = (e.target.value as unknown as number[]).map(Number);
            onDivisions(ids.length ? ids : undefined);
          }}
          sx={{ minWidth: 200 }}
          helperText=" "
          slotProps={{
            select: {
              multiple: true,
              renderValue: (ids) => (ids as number[]).map((id) => divisions.find((d) => d.id === id)?.name ?? id).join(', '),
              SelectDisplayProps: { 'data-testid': 'users-filter-divisions' } as object,
            },
          }}
        >
          {divisions.map((d) => (
            <MenuItem key={d.id} value={d.id}>
              <Checkbox size="small" checked={(divisionsIds ?? []).includes(Number(d.id))} />
              <ListItemText primary={d.name} />
            </MenuItem>
          ))}
        </TextField>
      )}
    </>
  );
}
