import { Box } from '@mui/material';
import { CheckboxGroupInput, NumberInput, SelectInput } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { DIVISION_GENDERS, REFERRING_TYPES, criteriaAllowedFor, enumLabel, type ReferringType } from '@crisis/forms/core';
import { CheckboxInput } from '../../common/CheckboxInput';
import { LockedField } from '../../common/LockedField';
import { inputTestId } from '../../common/testId';
import { AcceptedPatientsInput } from './AcceptedPatientsInput';

const REFERRING_TYPE_CHOICES = REFERRING_TYPES.map((t) => ({ id: t, name: enumLabel(t) }));
const GENDER_CHOICES = DIVISION_GENDERS.map((g) => ({ id: g, name: g }));

/** Referring-only fields. Changing the referring type clears the criteria; only allowed criteria are offered. */
export function ReferringFields({ isNew, readOnly }: { isNew: boolean; readOnly: boolean }) {
  const { setValue } = useFormContext();
  const referringType = useWatch({ name: 'referringType' }) as ReferringType | null;
  const allowed = criteriaAllowedFor(referringType);
  return (
    <Box>
      {isNew ? (
        <SelectInput
          source="referringType"
          label="Referring type *"
          choices={REFERRING_TYPE_CHOICES}
          readOnly={readOnly}
          onChange={() => setValue('criteria', [], { shouldDirty: true })}
          data-testid="division-referringType"
          sx={{ minWidth: 260 }}
        />
      ) : (
        <LockedField label="Referring type" value={referringType ? enumLabel(referringType) : ''} testId="division-referringType-locked" minWidth={260} />
      )}
      {allowed.length > 0 && (
        <CheckboxGroupInput
          source="criteria"
          label="Criteria *"
          choices={allowed.map((c) => ({ id: c, name: enumLabel(c) }))}
          readOnly={readOnly}
          data-testid="division-criteria"
        />
      )}
      <CheckboxGroupInput source="genders" label="Accepted genders *" choices={GENDER_CHOICES} readOnly={readOnly} data-testid="division-genders" />
      <AcceptedPatientsInput readOnly={readOnly} />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 3, alignItems: 'center' }}>
        <CheckboxInput source="veteranOnly" label="Veterans only" disabled={readOnly} testId="division-veteranOnly" />
        <CheckboxInput
          source="extendMaximumCallbackTime"
          label="Extend maximum callback time (68 hours)"
          disabled={readOnly}
          testId="division-extendMaximumCallbackTime"
        />
        <NumberInput source="score" label="Score *" min={0} max={100} step={1} readOnly={readOnly} sx={{ width: 120 }} {...inputTestId('division-score')} />
      </Box>
    </Box>
  );
}
