import { useMemo, type ReactNode } from 'react';
import { Autocomplete, Box, Checkbox, FormControlLabel, FormHelperText, MenuItem, TextField, Typography } from '@mui/material';
import {
  HIGH_RISK_CRITERIA,
  criteriaForRecommendation,
  enumLabel,
  recommendationNeedsNote,
  recommendationsFor,
  type EvaluationBillingCode,
  type EvaluationView,
} from '@crisis/forms/core';
import { DiagnosisPicker } from '../cases/cards/medical/MedicalInformationEditDialog';
import { useAppQuery } from '../data/query';
import type { EvaluationValues } from './evaluationDraft';

const isHighRisk = (c: string) => (HIGH_RISK_CRITERIA as readonly string[]).includes(c);

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/**
 * The evaluation's own fields below the questionnaire (spec 02 §2 "Evaluation screen"): primary and
 * secondary diagnoses (searched from 3 characters), billing codes when the source division shows
 * them (active ones of the division's type and the request's type), the main recommendation (the
 * crisis center only on a default form), the criteria it allows, and the note.
 */
export function EvaluationFields({
  view,
  values,
  errors,
  onChange,
}: {
  view: EvaluationView;
  values: EvaluationValues;
  errors: Record<string, string>;
  onChange: (patch: Partial<EvaluationValues>) => void;
}) {
  const choices = useAppQuery(['evaluation', view.requestId, 'billingCodes'], (dp) => dp.evaluationBillingCodes(view.requestId), {
    enabled: view.showBillingCode,
  }).data;
  // The codes already chosen stay choosable even if they no longer fit (a code deactivated since).
  const billingOptions = useMemo(() => {
    const byId = new Map<number, EvaluationBillingCode>(view.billingCodes.map((b) => [b.id, b]));
    for (const b of choices ?? []) byId.set(b.id, b);
    return [...byId.values()].sort((a, b) => a.code.localeCompare(b.code));
  }, [choices, view.billingCodes]);
  const recommendations = recommendationsFor(view.form.isDefault);
  const criteria = criteriaForRecommendation(values.mainRecommendation) as readonly string[];
  const noteRequired = recommendationNeedsNote(values.mainRecommendation);

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }} data-testid="evaluation-fields">
      <Section title="Diagnoses">
        <DiagnosisPicker
          label="Primary diagnosis *"
          multiple={false}
          value={values.primaryDiagnosis}
          onChange={(d) => onChange({ primaryDiagnosis: d })}
          testId="evaluation-primary-diagnosis"
          error={errors.primaryDiagnosisId}
        />
        <DiagnosisPicker
          label="Secondary diagnoses"
          multiple
          value={values.secondaryDiagnoses}
          onChange={(d) => onChange({ secondaryDiagnoses: d })}
          testId="evaluation-secondary-diagnoses"
          error={errors.secondaryDiagnoses}
        />
      </Section>
      {view.showBillingCode && (
        <Section title="Billing codes">
          <Autocomplete<EvaluationBillingCode, true>
            multiple
            size="small"
            options={billingOptions}
            value={billingOptions.filter((b) => values.billingCodes.includes(b.id))}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            getOptionLabel={(b) => `${b.code} ${b.description}`}
            onChange={(_, v) => onChange({ billingCodes: v.map((b) => b.id) })}
            noOptionsText="No billing code fits this request"
            renderInput={(params) => (
              <TextField
                {...params}
                label="Billing codes *"
                error={!!errors.billingCodes}
                helperText={errors.billingCodes}
                inputProps={{ ...params.inputProps, 'data-testid': 'evaluation-billing-codes' }}
              />
            )}
          />
        </Section>
      )}
      <Section title="Recommendation">
        <TextField
          select
          size="small"
          label="Main recommendation *"
          value={values.mainRecommendation ?? ''}
          onChange={(e) => {
            const main = e.target.value || null;
            const allowed = criteriaForRecommendation(main) as readonly string[];
            onChange({ mainRecommendation: main, recommendationCriteria: values.recommendationCriteria.filter((c) => allowed.includes(c)) });
          }}
          error={!!errors.mainRecommendation}
          helperText={errors.mainRecommendation ?? (view.form.isDefault ? undefined : 'Crisis center is offered on the default forms only')}
          SelectProps={{ SelectDisplayProps: { 'data-testid': 'evaluation-main-recommendation' } as any }}
        >
          <MenuItem value="">
            <em>None</em>
          </MenuItem>
          {recommendations.map((r) => (
            <MenuItem key={r} value={r}>
              {enumLabel(r)}
            </MenuItem>
          ))}
        </TextField>
        {criteria.length > 0 && (
          <Box data-testid="evaluation-criteria">
            <Typography variant="body2" color={errors.recommendationCriteria ? 'error' : 'text.secondary'}>
              Criteria *
            </Typography>
            {criteria.map((c) => (
              <FormControlLabel
                key={c}
                control={
                  <Checkbox
                    size="small"
                    checked={values.recommendationCriteria.includes(c)}
                    onChange={(e) =>
                      onChange({
                        recommendationCriteria: e.target.checked ? [...values.recommendationCriteria, c] : values.recommendationCriteria.filter((x) => x !== c),
                      })
                    }
                    slotProps={{ input: { 'data-testid': `evaluation-criterion-${c}` } as any }}
                  />
                }
                label={
                  <Typography variant="body2" color={isHighRisk(c) ? 'error' : undefined} sx={isHighRisk(c) ? { fontWeight: 600 } : undefined}>
                    {enumLabel(c)}
                  </Typography>
                }
              />
            ))}
            {errors.recommendationCriteria && <FormHelperText error>{errors.recommendationCriteria}</FormHelperText>}
          </Box>
        )}
        <TextField
          size="small"
          label={noteRequired ? 'Recommendation note *' : 'Recommendation note'}
          multiline
          minRows={2}
          value={values.recommendationNote}
          onChange={(e) => onChange({ recommendationNote: e.target.value })}
          error={!!errors.recommendationNote}
          helperText={errors.recommendationNote}
          inputProps={{ 'data-testid': 'evaluation-recommendation-note', maxLength: 6000 }}
        />
      </Section>
    </Box>
  );
}
