import { useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  Autocomplete,
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  IconButton,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import {
  DRUGS,
  DRUG_USE_CASES,
  HALLUCINATION_TYPES,
  HIGH_RISK_CRITERIA,
  LEGAL_STATUSES,
  LIVING_SITUATIONS,
  MAIN_RECOMMENDATIONS,
  VIOLENT_BEHAVIORS,
  criteriaForRecommendation,
  fractionToPercent,
  medicalInformationProblems,
  percentToFraction,
  normalizeMedicalInformation,
  problemsToFieldErrors,
  showsGuardianFields,
  showsHoldEnd,
  type MedicalInformationInput,
} from '@crisis/forms/core';
import { schemaProblems } from '../../page/dialogs';
import type { Diagnosis, MedicalInformation } from '@crisis/forms/core';
import { useDebounced } from '../../../common/useDebounced';
import { useAppQuery } from '../../../data/query';
import { enumLabel } from './labels';

type Drug = NonNullable<MedicalInformationInput['drugsInSystem']>[number];
export type MedicalForm = MedicalInformationInput & { primaryDiagnosis?: Diagnosis | null; secondaryDiagnoses?: Diagnosis[] };

/** The editable copy of what GET returned. */
export function formFrom(info: MedicalInformation): MedicalForm {
  const { caseId: _c, caseStatus: _s, includeOutOfStateFacilities: _o, modifiedAt: _m, modifiedBy: _b, ...rest } = info;
  return rest;
}

/** The PUT body: the form without the display-only diagnosis objects. */
export function payloadFrom(form: MedicalForm): MedicalInformationInput {
  const { primaryDiagnosis, secondaryDiagnoses, ...rest } = form;
  return {
    ...rest,
    primaryDiagnosisCode: primaryDiagnosis?.code ?? null,
    secondaryDiagnosisCodes: (secondaryDiagnoses ?? []).map((d) => d.code),
  };
}

/** localized 'YYYY-MM-DDTHH:mm' for a datetime-local input, and back to ISO. */
const toLocalInput = (iso: string | null | undefined) => {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
const fromLocalInput = (v: string) => (v ? new Date(v).toISOString() : null);

function YesNo(props: { label: string; value: boolean | null | undefined; onChange: (v: boolean | null) => void; testId: string }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2 }}>
      <Typography variant="body2">{props.label}</Typography>
      <ToggleButtonGroup
        size="small"
        exclusive
        value={props.value === true ? 'yes' : props.value === false ? 'no' : null}
        onChange={(_, v) => props.onChange(v === 'yes' ? true : v === 'no' ? false : null)}
        data-testid={props.testId}
      >
        <ToggleButton value="yes" data-testid={`${props.testId}-yes`}>
          Yes
        </ToggleButton>
        <ToggleButton value="no" data-testid={`${props.testId}-no`}>
          No
        </ToggleButton>
      </ToggleButtonGroup>
    </Box>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
      <Typography variant="subtitle2" sx={{ mt: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function EnumSelect(props: { label: string; value: string | null | undefined; options: readonly string[]; onChange: (v: string | null) => void; testId: string; error?: string }) {
  return (
    <TextField
      select
      size="small"
      label={props.label}
      value={props.value ?? ''}
      onChange={(e) => props.onChange(e.target.value || null)}
      error={!!props.error}
      helperText={props.error}
      inputProps={{ 'data-testid': props.testId }}
    >
      <MenuItem value="">
        <em>None</em>
      </MenuItem>
      {props.options.map((o) => (
        <MenuItem key={o} value={o}>
          {enumLabel(o)}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** Diagnosis search from 3 characters (GET /api/diagnoses?q=). */
export function DiagnosisPicker<M extends boolean>(props: {
  label: string;
  multiple: M;
  value: M extends true ? Diagnosis[] : Diagnosis | null;
  onChange: (v: M extends true ? Diagnosis[] : Diagnosis | null) => void;
  testId: string;
  error?: string;
}) {
  const [input, setInput] = useState('');
  const q = useDebounced(input.trim(), 250);
  const found = useAppQuery(['diagnoses', q], (dp) => dp.diagnoses(q), { enabled: q.length >= 3 }).data;
  const options: Diagnosis[] = input.trim().length >= 3 && found ? found : [];
  return (
    <Autocomplete<Diagnosis, M>
      multiple={props.multiple}
      size="small"
      options={options}
      value={props.value as any}
      filterOptions={(x) => x}
      isOptionEqualToValue={(a, b) => a.code === b.code}
      getOptionLabel={(d) => `${d.code} ${d.description}`}
      onChange={(_, v) => props.onChange(v as any)}
      onInputChange={(_, v) => setInput(v)}
      noOptionsText={input.trim().length < 3 ? 'Type at least 3 characters' : 'No diagnosis found'}
      renderInput={(params) => (
        <TextField {...params} label={props.label} error={!!props.error} helperText={props.error} inputProps={{ ...params.inputProps, 'data-testid': props.testId }} />
      )}
    />
  );
}

function DrugDialog(props: { drug: Drug | null; open: boolean; onClose: () => void; onSave: (d: Drug) => void }) {
  const [drug, setDrug] = useState<string | null>(null);
  const [useCase, setUseCase] = useState<string | null>(null);
  const [error, setError] = useState<string>();
  useEffect(() => {
    setDrug(props.drug?.drug ?? null);
    setUseCase(props.drug?.useCase ?? null);
    setError(undefined);
  }, [props.drug, props.open]);
  return (
    <Dialog open={props.open} onClose={props.onClose} data-testid="mi-drug-dialog" fullWidth maxWidth="xs">
      <DialogTitle>{props.drug ? 'Edit drug' : 'Add drug'}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
        <EnumSelect label="Drug *" value={drug} options={DRUGS} onChange={setDrug} testId="mi-drug" error={error} />
        <EnumSelect label="Use case" value={useCase} options={DRUG_USE_CASES} onChange={setUseCase} testId="mi-drug-use-case" />
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>Cancel</Button>
        <Button
          variant="contained"
          data-testid="mi-drug-save"
          onClick={() => {
            if (!drug) return setError('This field is required');
            props.onSave({ drug: drug as Drug['drug'], useCase: (useCase as Drug['useCase']) ?? null });
          }}
        >
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * The medical-information edit modal with every field and the dynamics of spec 01 §5: the legal
 * status shows guardian fields or the hold end and clears them otherwise, yes/no toggles clear
 * their notes (normalizeMedicalInformation from forms/ on every change), criteria come from the
 * recommendation table, diagnoses are searched from 3 characters, drugs are added and edited in a
 * small dialog with the drug required.
 */
export function MedicalInformationEditDialog(props: {
  open: boolean;
  initial: MedicalForm;
  caseStatus: string;
  busy: boolean;
  serverErrors: Record<string, string>;
  onCancel: () => void;
  onSubmit: (form: MedicalForm) => void;
}) {
  const [form, setForm] = useState<MedicalForm>(props.initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [drugEdit, setDrugEdit] = useState<{ index: number | null } | null>(null);
  useEffect(() => {
    if (props.open) {
      setForm(props.initial);
      setErrors({});
    }
  }, [props.open, props.initial]);
  useEffect(() => setErrors((e) => ({ ...e, ...props.serverErrors })), [props.serverErrors]);

  const set = (patch: Partial<MedicalForm>) => setForm((f) => normalizeMedicalInformation({ ...f, ...patch }));
  const criteriaOptions = useMemo(() => criteriaForRecommendation(form.mainRecommendation), [form.mainRecommendation]);
  const text = (field: keyof MedicalForm, label: string, rows = 2) => (
    <TextField
      size="small"
      label={label}
      multiline
      minRows={rows}
      value={(form[field] as string | null | undefined) ?? ''}
      onChange={(e) => set({ [field]: e.target.value } as Partial<MedicalForm>)}
      error={!!errors[field as string]}
      helperText={errors[field as string]}
      inputProps={{ 'data-testid': `mi-${String(field)}`, maxLength: 6000 }}
    />
  );
  const yesNoNote = (field: 'criminalCharges' | 'jailPriorToArrivingOrInCustody' | 'assistiveDevices', label: string, noteLabel: string) => (
    <>
      <YesNo label={label} value={form[field]?.exist} onChange={(exist) => set({ [field]: { ...(form[field] ?? {}), exist } })} testId={`mi-${field}`} />
      {form[field]?.exist === true && (
        <TextField
          size="small"
          label={noteLabel}
          multiline
          value={form[field]?.note ?? ''}
          onChange={(e) => set({ [field]: { ...(form[field] ?? {}), note: e.target.value } })}
          inputProps={{ 'data-testid': `mi-${field}-note`, maxLength: 6000 }}
        />
      )}
    </>
  );

  const submit = async () => {
    const payload = payloadFrom(form);
    const problems = {
      ...(await schemaProblems('medicalInformation', payload)),
      ...Object.fromEntries(problemsToFieldErrors(medicalInformationProblems(payload, { caseStatus: props.caseStatus })).map((e) => [e.field, e.message])),
    };
    setErrors(problems);
    if (Object.keys(problems).length === 0) props.onSubmit(form);
  };

  const ls = form.legalStatus ?? {};
  const drugs = form.drugsInSystem ?? [];
  return (
    <Dialog open={props.open} onClose={props.busy ? undefined : props.onCancel} fullWidth maxWidth="md" data-testid="medical-information-edit">
      <DialogTitle>Edit medical information</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, pt: '8px !important' }}>
        <Section title="Recommendation">
          <EnumSelect
            label="Main recommendation"
            value={form.mainRecommendation}
            options={MAIN_RECOMMENDATIONS}
            onChange={(v) => {
              const allowed = criteriaForRecommendation(v) as readonly string[];
              set({ mainRecommendation: v as MedicalForm['mainRecommendation'], recommendationCriteria: (form.recommendationCriteria ?? []).filter((c) => allowed.includes(c)) });
            }}
            testId="mi-mainRecommendation"
            error={errors.mainRecommendation}
          />
          {criteriaOptions.length > 0 && (
            <Box data-testid="mi-criteria-options">
              {criteriaOptions.map((c) => (
                <FormControlLabel
                  key={c}
                  control={
                    <Checkbox
                      checked={(form.recommendationCriteria ?? []).includes(c)}
                      onChange={(e) => {
                        const cur = form.recommendationCriteria ?? [];
                        set({ recommendationCriteria: e.target.checked ? [...cur, c] : cur.filter((x) => x !== c) });
                      }}
                    />
                  }
                  label={
                    <Typography variant="body2" color={(HIGH_RISK_CRITERIA as readonly string[]).includes(c) ? 'error' : undefined}>
                      {enumLabel(c)}
                    </Typography>
                  }
                />
              ))}
              {errors.recommendationCriteria && (
                <Typography variant="caption" color="error">
                  {errors.recommendationCriteria}
                </Typography>
              )}
            </Box>
          )}
          {text('recommendationNote', 'Recommendation note')}
        </Section>
        <Section title="Diagnosis">
          <DiagnosisPicker label="Primary diagnosis" multiple={false} value={form.primaryDiagnosis ?? null} onChange={(d) => set({ primaryDiagnosis: d })} testId="mi-primary-diagnosis-input" error={errors.primaryDiagnosisCode} />
          <DiagnosisPicker label="Secondary diagnoses" multiple value={form.secondaryDiagnoses ?? []} onChange={(d) => set({ secondaryDiagnoses: d })} testId="mi-secondary-diagnoses-input" error={errors.secondaryDiagnosisCodes} />
        </Section>
        <Section title="Presentation">
          {text('admissionPrecipitatingFactorsNotes', 'Admission-precipitating factors notes')}
          <YesNo label="Homicidal or suicidal ideations" value={form.homicidalOrSuicidalIdeations} onChange={(v) => set({ homicidalOrSuicidalIdeations: v })} testId="mi-ideations" />
          <YesNo label="Hallucinations" value={form.hallucinations?.exist} onChange={(exist) => set({ hallucinations: { ...(form.hallucinations ?? {}), exist } })} testId="mi-hallucinations" />
          {form.hallucinations?.exist === true && (
            <EnumSelect label="Hallucination type" value={form.hallucinations?.type} options={HALLUCINATION_TYPES} onChange={(type) => set({ hallucinations: { ...(form.hallucinations ?? {}), type: type as any } })} testId="mi-hallucinations-type" />
          )}
          <EnumSelect label="Violent behavior" value={form.violentBehavior} options={VIOLENT_BEHAVIORS} onChange={(v) => set({ violentBehavior: v as any })} testId="mi-violentBehavior" />
        </Section>
        <Section title="Situation">
          <EnumSelect label="Current living situation" value={form.currentLivingSituationType} options={LIVING_SITUATIONS} onChange={(v) => set({ currentLivingSituationType: v as any })} testId="mi-livingSituation" />
          {text('currentLivingSituationNote', 'Living situation note', 1)}
          <EnumSelect
            label="Legal status"
            value={ls.type}
            options={LEGAL_STATUSES}
            onChange={(type) => set({ legalStatus: { ...ls, type: type as any } })}
            testId="mi-legalStatus"
          />
          {showsGuardianFields(ls.type) && (
            <>
              <TextField size="small" label="Legal guardian name" value={ls.legalGuardianName ?? ''} onChange={(e) => set({ legalStatus: { ...ls, legalGuardianName: e.target.value } })} inputProps={{ 'data-testid': 'mi-guardianName', maxLength: 255 }} />
              <TextField size="small" label="Relationship to patient" value={ls.relationshipToPatient ?? ''} onChange={(e) => set({ legalStatus: { ...ls, relationshipToPatient: e.target.value } })} inputProps={{ 'data-testid': 'mi-guardianRelationship', maxLength: 255 }} />
            </>
          )}
          {showsHoldEnd(ls.type) && (
            <TextField
              size="small"
              type="datetime-local"
              label="Hold end"
              InputLabelProps={{ shrink: true }}
              value={toLocalInput(ls.holdEnd)}
              onChange={(e) => set({ legalStatus: { ...ls, holdEnd: fromLocalInput(e.target.value) } })}
              inputProps={{ 'data-testid': 'mi-holdEnd' }}
            />
          )}
          {yesNoNote('criminalCharges', 'Criminal charges', 'Criminal charges note')}
          {yesNoNote('jailPriorToArrivingOrInCustody', 'Jail prior to arriving or in custody', 'Jail or custody note')}
        </Section>
        <Section title="Substances">
          <YesNo label="Alcohol in system" value={form.alcoholInSystem?.exist} onChange={(exist) => set({ alcoholInSystem: { ...(form.alcoholInSystem ?? {}), exist } })} testId="mi-alcohol" />
          {form.alcoholInSystem?.exist === true && (
            <TextField
              size="small"
              type="number"
              label="Blood alcohol level (%)"
              value={fractionToPercent(form.alcoholInSystem?.bal) ?? ''}
              onChange={(e) => set({ alcoholInSystem: { ...(form.alcoholInSystem ?? {}), bal: e.target.value === '' ? null : percentToFraction(Number(e.target.value)) } })}
              error={!!errors['alcoholInSystem.bal']}
              helperText={errors['alcoholInSystem.bal'] ?? 'Positive, at most 900'}
              inputProps={{ 'data-testid': 'mi-bal', min: 0, max: 900, step: 'any' }}
            />
          )}
          <Box>
            <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
              <Typography variant="body2">Drugs in system</Typography>
              <Button size="small" onClick={() => setDrugEdit({ index: null })} data-testid="mi-drug-add">
                Add drug
              </Button>
            </Box>
            <List dense data-testid="mi-drug-list">
              {drugs.map((d, i) => (
                <ListItem
                  key={`${d.drug}-${i}`}
                  secondaryAction={
                    <>
                      <IconButton size="small" aria-label="Edit drug" onClick={() => setDrugEdit({ index: i })}>
                        <EditIcon fontSize="small" />
                      </IconButton>
                      <IconButton size="small" aria-label="Remove drug" onClick={() => set({ drugsInSystem: drugs.filter((_, j) => j !== i) })}>
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </>
                  }
                >
                  <ListItemText primary={enumLabel(d.drug)} secondary={d.useCase ? enumLabel(d.useCase) : undefined} />
                </ListItem>
              ))}
            </List>
          </Box>
          <YesNo label="Active detox" value={form.activeDetox} onChange={(v) => set({ activeDetox: v })} testId="mi-activeDetox" />
        </Section>
        <Section title="Medical">
          {text('acuteConditions', 'Acute conditions')}
          {text('medicationsGivenInEr', 'Medications given in ER')}
          {text('homeMedications', 'Home medications')}
          <YesNo label="Ambulatory" value={form.ambulatory} onChange={(v) => set({ ambulatory: v })} testId="mi-ambulatory" />
          <YesNo label="COVID-19" value={form.covid19} onChange={(v) => set({ covid19: v })} testId="mi-covid19" />
          <YesNo label="Incontinent" value={form.incontinent} onChange={(v) => set({ incontinent: v })} testId="mi-incontinent" />
          {yesNoNote('assistiveDevices', 'Assistive devices', 'Assistive devices note')}
          {text('crisisTeamNotes', 'Crisis team notes')}
          {text('medicalPsychHistory', 'Medical / psych history')}
        </Section>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel} disabled={props.busy} data-testid="medical-information-edit-cancel">
          Cancel
        </Button>
        <Button variant="contained" onClick={submit} disabled={props.busy} data-testid="medical-information-edit-submit">
          Save
        </Button>
      </DialogActions>
      <DrugDialog
        open={!!drugEdit}
        drug={drugEdit && drugEdit.index !== null ? drugs[drugEdit.index] : null}
        onClose={() => setDrugEdit(null)}
        onSave={(d) => {
          set({ drugsInSystem: drugEdit?.index === null || drugEdit?.index === undefined ? [...drugs, d] : drugs.map((x, j) => (j === drugEdit.index ? d : x)) });
          setDrugEdit(null);
        }}
      />
    </Dialog>
  );
}
