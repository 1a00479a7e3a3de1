import { Box, Divider } from '@mui/material';
import { RadioButtonGroupInput, TextInput } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { DivisionType } from '@crisis/forms/core';
import { CheckboxInput } from '../../common/CheckboxInput';
import { ContactsFields } from '../../common/ContactsFields';
import { LockedField } from '../../common/LockedField';
import { inputTestId } from '../../common/testId';
import { typeSpecificReset } from './divisionPayload';
import { ReferringFields } from './ReferringFields';
import { SourceFields } from './SourceFields';

const TYPE_CHOICES = [
  { id: DivisionType.Source, name: 'Source' },
  { id: DivisionType.Referring, name: 'Referring' },
];

/** Every field of the division modal; the type-specific block follows the chosen type. */
export function DivisionFields({ isNew, readOnly }: { isNew: boolean; readOnly: boolean }) {
  const { setValue } = useFormContext();
  const type = useWatch({ name: 'type' }) as DivisionType | null;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column' }}>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '2fr 1fr' }, columnGap: 2 }}>
        <TextInput source="name" label="Name *" readOnly={readOnly} {...inputTestId('division-name')} />
        <TextInput source="npi" label="NPI" readOnly={readOnly} {...inputTestId('division-npi')} />
      </Box>
      <CheckboxInput source="isActive" label="Active" disabled={readOnly} testId="division-isActive" />
      {isNew ? (
        <RadioButtonGroupInput
          source="type"
          label="Type *"
          choices={TYPE_CHOICES}
          readOnly={readOnly}
          onChange={(e: any) => {
            const next = (e?.target?.value ?? e) as DivisionType;
            Object.entries(typeSpecificReset(next)).forEach(([k, v]) => setValue(k, v, { shouldDirty: true }));
          }}
          data-testid="division-type"
        />
      ) : (
        <LockedField label="Type" value={type ?? ''} testId="division-type-locked" minWidth={160} />
      )}
      <TextInput source="description" label="Description" multiline minRows={2} readOnly={readOnly} {...inputTestId('division-description')} />
      <ContactsFields
        testIdPrefix="division"
        disabled={readOnly}
        required={type === DivisionType.Referring ? ['phone1', 'fax1'] : ['phone1']}
      />
      {type && <Divider sx={{ my: 2 }} />}
      {type === DivisionType.Source && <SourceFields isNew={isNew} readOnly={readOnly} />}
      {type === DivisionType.Referring && <ReferringFields isNew={isNew} readOnly={readOnly} />}
    </Box>
  );
}
