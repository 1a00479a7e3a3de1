import { useState } from 'react';
import { Box, Button, Typography } from '@mui/material';
import { BooleanInput, DateInput, SelectInput, TextInput, useOptionalSourceContext } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { RELATIONS_TO_INSURED, RESPONSIBLE_PARTY_ROLES, responsiblePartyForRelation } from '@crisis/forms/core';
import { PhoneInput } from '../../common/PhoneInput';
import { PayerPlanLookup } from './PayerPlanLookup';

const RELATION_CHOICES = RELATIONS_TO_INSURED.map((r) => ({ id: r, name: r }));
const ROLE_CHOICES = RESPONSIBLE_PARTY_ROLES.map((r) => ({ id: r, name: r.replace(/([a-z])([A-Z])/g, '$1 $2') }));

export interface InsuranceFieldsPatient {
  firstName?: string | null;
  lastName?: string | null;
  phone?: string | null;
  dateOfBirth?: string | null;
}

export interface InsuranceFieldsProps {
  /** Payers to choose from (active ones, and any inactive one the insurance already has). */
  payers: Array<{ id: number; name: string; isActive?: boolean }>;
  /** The patient, copied into the responsible party when the relation is Self (spec 01 §4). */
  patient?: InsuranceFieldsPatient | null;
  disabled?: boolean;
  /** Hide the verified switch (e.g. a form that always saves verified insurances). */
  hideVerified?: boolean;
  /** Offer the payer look-up by plan name (spec 01 §5 Insurance). */
  planLookup?: boolean;
}

/**
 * The form fields of ONE insurance (spec 01 §3, §5 Insurance): payer, insurance id, group id,
 * relation to insured with the responsible party, verified, patient phone. react-admin inputs
 * with relative sources: use them inside a react-admin <Form>, or inside a SimpleFormIterator
 * item (the case-creation form), where the sources are prefixed with the item's path.
 * Relation Self copies the patient into the responsible party; any other relation clears it.
 */
export function InsuranceFields({ payers, patient, disabled, hideVerified, planLookup }: InsuranceFieldsProps) {
  const [lookup, setLookup] = useState(false);
  const sourceContext = useOptionalSourceContext();
  const src = (s: string) => (sourceContext ? sourceContext.getSource(s) : s);
  const form = useFormContext();
  const payerChoices = payers.map((p) => ({ id: p.id, name: p.isActive === false ? `${p.name} (inactive)` : p.name }));

  const onRelation = (e: any) => {
    const relation = e?.target?.value ?? e;
    const current = form.getValues(src('responsibleParty'));
    const next =
      relation === 'Self'
        ? responsiblePartyForRelation('Self', patient ?? null, current)
        : { firstName: null, lastName: null, contactPhoneNumber: null, dateOfBirth: null, role: null };
    form.setValue(src('responsibleParty'), next, { shouldDirty: true, shouldValidate: false });
  };
  const relation = form.watch(src('relationToInsured'));
  const self = relation === 'Self';

  return (
    <Box data-testid="insurance-fields" sx={{ display: 'flex', flexDirection: 'column' }}>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        <SelectInput source="payerId" label="Payer *" choices={payerChoices} disabled={disabled} sx={{ minWidth: 240 }} data-testid="insurance-payer" />
        {planLookup && !disabled && (
          <Button size="small" sx={{ alignSelf: 'center' }} onClick={() => setLookup(true)} data-testid="insurance-plan-lookup">
            Look up by plan name
          </Button>
        )}
        <TextInput source="insuranceId" label="Insurance ID *" disabled={disabled} data-testid="insurance-id" />
        <TextInput source="groupId" label="Group ID" disabled={disabled} data-testid="insurance-group-id" />
      </Box>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        <SelectInput
          source="relationToInsured"
          label="Relation to insured"
          choices={RELATION_CHOICES}
          emptyText="—"
          disabled={disabled}
          onChange={onRelation}
          sx={{ minWidth: 200 }}
          data-testid="insurance-relation"
        />
        <PhoneInput source="patientPhone" label="Patient phone" disabled={disabled} />
        {!hideVerified && <BooleanInput source="verified" label="Verified" disabled={disabled} data-testid="insurance-verified" />}
      </Box>
      <Typography variant="subtitle2" sx={{ mt: 1 }}>
        Responsible party{self ? ' (the patient)' : ''}
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }} data-testid="responsible-party">
        <TextInput source="responsibleParty.firstName" label="First name" disabled={disabled} readOnly={self} data-testid="rp-first-name" />
        <TextInput source="responsibleParty.lastName" label="Last name" disabled={disabled} readOnly={self} data-testid="rp-last-name" />
        <PhoneInput source="responsibleParty.contactPhoneNumber" label="Contact phone" disabled={disabled} readOnly={self} />
        <DateInput source="responsibleParty.dateOfBirth" label="Date of birth" disabled={disabled} readOnly={self} />
        <SelectInput source="responsibleParty.role" label="Role" choices={ROLE_CHOICES} emptyText="—" disabled={disabled} readOnly={self} sx={{ minWidth: 160 }} />
      </Box>
      {planLookup && (
        <PayerPlanLookup
          open={lookup}
          onClose={() => setLookup(false)}
          onPick={(payerId) => {
            form.setValue(src('payerId'), payerId, { shouldDirty: true, shouldValidate: true });
            setLookup(false);
          }}
        />
      )}
    </Box>
  );
}
