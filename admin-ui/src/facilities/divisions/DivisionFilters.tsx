import { Box, FormControlLabel, MenuItem, Switch, TextField } from '@mui/material';
import { DivisionType } from '@crisis/forms/core';

export interface DivisionFilterValues {
  q: string;
  type: '' | DivisionType;
  showActiveOnly: boolean;
}

/** Divisions tab search: by name, type and active only. */
export function DivisionFilters({ value, onChange }: { value: DivisionFilterValues; onChange: (v: DivisionFilterValues) => void }) {
  return (
    <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
      <TextField
        size="small"
        label="Search by name"
        value={value.q}
        onChange={(e) => onChange({ ...value, q: e.target.value })}
        slotProps={{ htmlInput: { 'data-testid': 'division-filter-q' } }}
      />
      <TextField
        select
        size="small"
        label="Type"
        value={value.type}
        onChange={(e) => onChange({ ...value, type: e.target.value as DivisionFilterValues['type'] })}
        sx={{ minWidth: 160 }}
        slotProps={{ htmlInput: { 'data-testid': 'division-filter-type' } }}
      >
        <MenuItem value="">Any</MenuItem>
        <MenuItem value={DivisionType.Source}>Source</MenuItem>
        <MenuItem value={DivisionType.Referring}>Referring</MenuItem>
      </TextField>
      <FormControlLabel
        label="Active only"
        control={
          <Switch
            checked={value.showActiveOnly}
            onChange={(e) => onChange({ ...value, showActiveOnly: e.target.checked })}
            slotProps={{ input: { 'data-testid': 'division-filter-active' } as any }}
          />
        }
      />
    </Box>
  );
}
