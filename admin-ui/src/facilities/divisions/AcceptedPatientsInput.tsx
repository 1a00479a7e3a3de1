import { Box, FormHelperText, Typography } from '@mui/material';
import { NumberInput } from 'react-admin';
import { useFormContext, useFormState, useWatch } from 'react-hook-form';
import { AGE_BANDS, enumLabel } from '@crisis/forms/core';
import { CheckboxInput } from '../../common/CheckboxInput';
import { errorText } from '../../common/schemaValidation';
import { inputTestId } from '../../common/testId';
import { emptyBand } from './divisionPayload';

/**
 * Accepted patients of a Referring division: "all ages", or age bands each with from/to years.
 * Checking all ages resets the bands; unchecking a band clears its from and to (spec 03 §4).
 */
export function AcceptedPatientsInput({ readOnly }: { readOnly: boolean }) {
  const { setValue } = useFormContext();
  const { errors, isSubmitted } = useFormState({ name: 'acceptedPatients' });
  const allAges = useWatch({ name: 'acceptedPatients.allAges' });
  const bands = useWatch({ name: 'acceptedPatients' }) ?? {};
  const groupError = isSubmitted ? errorText((errors as any)?.acceptedPatients) : undefined;
  return (
    <Box data-testid="accepted-patients">
      <Typography variant="subtitle2" sx={{ mt: 1 }}>
        Accepted patients *
      </Typography>
      <CheckboxInput
        source="acceptedPatients.allAges"
        label="All ages"
        disabled={readOnly}
        testId="accepted-allAges"
        onUserChange={(checked) => {
          if (checked) AGE_BANDS.forEach((b) => setValue(`acceptedPatients.${b}`, emptyBand(), { shouldDirty: true }));
        }}
      />
      {AGE_BANDS.map((b) => {
        const active = !!bands?.[b]?.isActive;
        return (
          <Box key={b} sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
            <Box sx={{ width: 160 }}>
              <CheckboxInput
                source={`acceptedPatients.${b}.isActive`}
                label={enumLabel(b[0].toUpperCase() + b.slice(1))}
                disabled={readOnly || !!allAges}
                testId={`accepted-${b}`}
                onUserChange={(checked) => {
                  if (!checked) {
                    setValue(`acceptedPatients.${b}.from`, null, { shouldDirty: true });
                    setValue(`acceptedPatients.${b}.to`, null, { shouldDirty: true });
                  }
                }}
              />
            </Box>
            <NumberInput
              source={`acceptedPatients.${b}.from`}
              label="From (years)"
              disabled={readOnly || !active || !!allAges}
              min={1}
              max={120}
              sx={{ width: 140 }}
              {...inputTestId(`accepted-${b}-from`)}
            />
            <NumberInput
              source={`acceptedPatients.${b}.to`}
              label="To (years)"
              disabled={readOnly || !active || !!allAges}
              min={1}
              max={120}
              sx={{ width: 140 }}
              {...inputTestId(`accepted-${b}-to`)}
            />
          </Box>
        );
      })}
      {groupError && (
        <FormHelperText error data-testid="accepted-patients-error">
          {groupError}
        </FormHelperText>
      )}
    </Box>
  );
}
