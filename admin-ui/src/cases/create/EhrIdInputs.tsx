import { Stack } from '@mui/material';
import { useState } from 'react';
import { TextInput } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { ErrorCode, GENDERS, PATIENT_EPIC_ID_REQUIRED, type EhrPatientLookup } from '@crisis/forms/core';
import { isCodedError } from '../../data/codedError';
import { useAppData } from '../../data/query';
import { rememberEhrPatient } from './ehrPatientMemory';

const ENCOUNTER_REFUSALS: string[] = [ErrorCode.EhrEncounterNotFound, ErrorCode.EhrEncounterOtherPatient];

/**
 * The EHR patient id and encounter id of an EHR-integrated division (spec 01 §5): the patient id
 * is looked up on blur and fills what the EHR knows; the encounter id is checked to belong to that
 * patient (not found: the message, and the field cleared); an encounter before a patient id is refused.
 * `paths` names where the found patient goes in the surrounding form.
 */
export function EhrIdInputs(props: {
  divisionId: number | null;
  required: boolean;
  paths: { firstName: string; lastName: string; dateOfBirth: string; gender?: string; phone?: string };
  testIdPrefix: string;
}) {
  const { divisionId, required, paths, testIdPrefix } = props;
  const dp = useAppData();
  const { getValues, setValue, setError, clearErrors } = useFormContext();
  const [found, setFound] = useState<string | null>(null);
  const star = required ? ' *' : '';

  const lookUpPatient = async () => {
    const patientId = String(getValues('patientEpicId') ?? '').trim();
    setFound(null);
    if (!patientId || !divisionId) return;
    try {
      const p: EhrPatientLookup = await dp.ehrPatient(divisionId, patientId);
      clearErrors('patientEpicId');
      const fill = (path: string | undefined, v: string | null | undefined) => {
        if (path && v) setValue(path, v, { shouldDirty: true });
      };
      fill(paths.firstName, p.firstName);
      fill(paths.lastName, p.lastName);
      fill(paths.dateOfBirth, p.dateOfBirth);
      // Only a gender the patient form knows (the EHR's 'other' / 'unknown' leaves the choice to the user).
      fill(paths.gender, p.gender && (GENDERS as readonly string[]).includes(p.gender) ? p.gender : null);
      fill(paths.phone, p.phone);
      rememberEhrPatient(patientId, p);
      setFound(`Found in the EHR: ${[p.firstName, p.lastName].filter(Boolean).join(' ')}`);
    } catch (e) {
      setError('patientEpicId', { type: 'server', message: e instanceof Error ? e.message : String(e) });
    }
  };

  const checkEncounter = async () => {
    const encounterId = String(getValues('encounterIdentifier') ?? '').trim();
    if (!encounterId || !divisionId) return;
    const patientId = String(getValues('patientEpicId') ?? '').trim();
    if (!patientId) {
      setError('encounterIdentifier', { type: 'server', message: PATIENT_EPIC_ID_REQUIRED });
      return;
    }
    try {
      await dp.ehrEncounter(divisionId, patientId, encounterId);
      clearErrors('encounterIdentifier');
    } catch (e) {
      // The EHR has no such encounter, or it is another patient's: the id is wrong, so it goes (spec 01 §8).
      if (isCodedError(e) && ENCOUNTER_REFUSALS.includes(e.code)) setValue('encounterIdentifier', '');
      setError('encounterIdentifier', { type: 'server', message: e instanceof Error ? e.message : String(e) });
    }
  };

  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} columnGap={2}>
      <TextInput
        source="patientEpicId"
        label={`Patient EPIC ID or MRN${star}`}
        fullWidth
        onBlur={lookUpPatient}
        helperText={found ?? undefined}
        data-testid={`${testIdPrefix}-patient-epic-id`}
      />
      <TextInput source="encounterIdentifier" label={`Encounter ID${star}`} fullWidth onBlur={checkEncounter} data-testid={`${testIdPrefix}-encounter-id`} />
    </Stack>
  );
}
