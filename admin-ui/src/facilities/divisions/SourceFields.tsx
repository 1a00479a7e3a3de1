import { Box } from '@mui/material';
import { CheckboxGroupInput, SelectInput } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { REQUEST_TYPES, SOURCE_TYPES, enumLabel } from '@crisis/forms/core';
import { CheckboxInput } from '../../common/CheckboxInput';
import { LockedField } from '../../common/LockedField';
import { subtypeLabel } from './divisionLabels';

const SOURCE_TYPE_CHOICES = SOURCE_TYPES.map((t) => ({ id: t, name: subtypeLabel(t) }));
const REQUEST_TYPE_CHOICES = REQUEST_TYPES.map((t) => ({ id: t, name: enumLabel(t) }));

/** Source-only fields. documentInEHR off resets noPlacement; once set, outcomeRequired becomes true. */
export function SourceFields({ isNew, readOnly }: { isNew: boolean; readOnly: boolean }) {
  const { setValue } = useFormContext();
  const documentInEHR = useWatch({ name: 'documentInEHR' });
  const sourceType = useWatch({ name: 'sourceType' }) as string | null;
  return (
    <Box>
      {isNew ? (
        <SelectInput
          source="sourceType"
          label="Source type *"
          choices={SOURCE_TYPE_CHOICES}
          readOnly={readOnly}
          data-testid="division-sourceType"
          sx={{ minWidth: 240 }}
        />
      ) : (
        <LockedField label="Source type" value={sourceType ? subtypeLabel(sourceType) : ''} testId="division-sourceType-locked" />
      )}
      <CheckboxGroupInput source="requestTypes" label="Request types *" choices={REQUEST_TYPE_CHOICES} readOnly={readOnly} data-testid="division-requestTypes" />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 3 }}>
        <CheckboxInput
          source="documentInEHR"
          label="Document in EHR"
          disabled={readOnly}
          testId="division-documentInEHR"
          onUserChange={(checked) => {
            if (!checked) setValue('noPlacement', false, { shouldDirty: true });
            setValue('outcomeRequired', true, { shouldDirty: true });
          }}
        />
        <CheckboxInput source="noPlacement" label="No placement" disabled={readOnly || documentInEHR !== true} testId="division-noPlacement" />
        <CheckboxInput source="outcomeRequired" label="Outcome required" disabled={readOnly} testId="division-outcomeRequired" />
        <CheckboxInput source="showBillingCode" label="Show billing code" disabled={readOnly} testId="division-showBillingCode" />
      </Box>
    </Box>
  );
}
