import { Box, Typography } from '@mui/material';
import { ExtensionInput } from './ExtensionInput';
import { PhoneInput } from './PhoneInput';
import { inputTestId } from './testId';

const LINES = [
  { key: 'phone1', label: 'Phone 1' },
  { key: 'phone2', label: 'Phone 2' },
  { key: 'fax1', label: 'Fax 1' },
  { key: 'fax2', label: 'Fax 2' },
] as const;

/**
 * Phones and faxes with extensions (facility and division). `required` marks the lines the
 * validation requires (phone1 always for a division, fax1 for a Referring one).
 */
export function ContactsFields({
  prefix = 'contacts',
  testIdPrefix,
  required = [],
  disabled,
}: {
  prefix?: string;
  testIdPrefix: string;
  required?: Array<(typeof LINES)[number]['key']>;
  disabled?: boolean;
}) {
  return (
    <Box>
      <Typography variant="subtitle2" sx={{ mt: 1 }}>
        Contacts
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, columnGap: 2 }}>
        {LINES.map(({ key, label }) => (
          <Box key={key} sx={{ display: 'flex', gap: 1 }}>
            <PhoneInput
              source={`${prefix}.${key}`}
              label={required.includes(key) ? `${label} *` : label}
              disabled={disabled}
              {...inputTestId(`${testIdPrefix}-${key}`)}
            />
            <ExtensionInput source={`${prefix}.${key}Ext`} disabled={disabled} {...inputTestId(`${testIdPrefix}-${key}-ext`)} />
          </Box>
        ))}
      </Box>
    </Box>
  );
}

/** Contacts as the API stores them: phones as +1XXXXXXXXXX, blank as null. */
export function contactsPayload(contacts: Record<string, unknown> | null | undefined, toStored: (v: string | null) => string | null) {
  const c = contacts ?? {};
  const out: Record<string, unknown> = {};
  for (const { key } of LINES) {
    out[key] = toStored((c[key] as string) ?? null);
    out[`${key}Ext`] = (c[`${key}Ext`] as string) ?? null;
  }
  return out;
}
