import type { ReactNode } from 'react';
import { Box, Chip, Stack, Typography } from '@mui/material';
import { HIGH_RISK_CRITERIA, formatDateTime, fractionToPercent } from '@crisis/forms/core';
import type { Diagnosis, MedicalInformation } from '@crisis/forms/core';
import { enumLabel, yesNo } from './labels';

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: 'minmax(140px, 40%) 1fr', gap: 1, py: 0.5 }} data-testid={testId}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2" component="div" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {children === null || children === undefined || children === '' ? '—' : children}
      </Typography>
    </Box>
  );
}

const withNote = (exist: boolean | null | undefined, note: string | null | undefined) => (exist === true && note ? `Yes — ${note}` : yesNo(exist));
const diagnosis = (d: Diagnosis | null | undefined) => (d ? `${d.code} ${d.description}`.trim() : null);

/** The recommendation with its criteria; high-risk criteria are highlighted (spec 01 §3). */
export function RecommendationView({ main, criteria, note }: { main?: string | null; criteria?: string[] | null; note?: string | null }) {
  return (
    <>
      <Row label="Recommendation" testId="mi-recommendation">
        {main ? enumLabel(main) : null}
      </Row>
      <Row label="Criteria" testId="mi-criteria">
        {criteria?.length ? (
          <Stack direction="row" gap={0.5} flexWrap="wrap">
            {criteria.map((c) => {
              const high = (HIGH_RISK_CRITERIA as readonly string[]).includes(c);
              return (
                <Chip
                  key={c}
                  size="small"
                  label={enumLabel(c)}
                  color={high ? 'error' : 'default'}
                  variant={high ? 'filled' : 'outlined'}
                  data-testid={high ? 'mi-criterion-high-risk' : 'mi-criterion'}
                />
              );
            })}
          </Stack>
        ) : null}
      </Row>
      <Row label="Recommendation note">{note}</Row>
    </>
  );
}

/** Every field of spec 01 §3 Medical information (`facility` shows the facility case page's subset). */
export function MedicalInformationView({ info, facility = false }: { info: MedicalInformation; facility?: boolean }) {
  const ls = info.legalStatus ?? {};
  return (
    <Box data-testid="medical-information-view">
      <RecommendationView main={info.mainRecommendation} criteria={info.recommendationCriteria} note={info.recommendationNote} />
      <Row label="Admission-precipitating factors">{info.admissionPrecipitatingFactorsNotes}</Row>
      <Row label="Primary diagnosis" testId="mi-primary-diagnosis">
        {diagnosis(info.primaryDiagnosis)}
      </Row>
      <Row label="Secondary diagnoses">{info.secondaryDiagnoses?.map(diagnosis).join('\n')}</Row>
      {!facility && <Row label="Homicidal or suicidal ideations">{yesNo(info.homicidalOrSuicidalIdeations)}</Row>}
      {!facility && (
        <Row label="Hallucinations">
          {info.hallucinations?.exist === true && info.hallucinations.type ? `Yes — ${enumLabel(info.hallucinations.type)}` : yesNo(info.hallucinations?.exist)}
        </Row>
      )}
      {!facility && <Row label="Violent behavior">{info.violentBehavior ? enumLabel(info.violentBehavior) : null}</Row>}
      <Row label="Living situation">
        {[info.currentLivingSituationType ? enumLabel(info.currentLivingSituationType) : null, info.currentLivingSituationNote].filter(Boolean).join(' — ')}
      </Row>
      {!facility && <Row label="Criminal charges">{withNote(info.criminalCharges?.exist, info.criminalCharges?.note)}</Row>}
      <Row label="Legal status" testId="mi-legal-status">
        {[
          ls.type ? enumLabel(ls.type) : null,
          ls.legalGuardianName ? `Guardian: ${ls.legalGuardianName}${ls.relationshipToPatient ? ` (${ls.relationshipToPatient})` : ''}` : null,
          ls.holdEnd ? `Hold ends ${formatDateTime(ls.holdEnd)}` : null,
        ]
          .filter(Boolean)
          .join('\n')}
      </Row>
      <Row label="Jail prior to arriving or in custody">{withNote(info.jailPriorToArrivingOrInCustody?.exist, info.jailPriorToArrivingOrInCustody?.note)}</Row>
      <Row label="Alcohol in system">
        {info.alcoholInSystem?.exist === true && typeof info.alcoholInSystem.bal === 'number'
          ? `Yes — BAL ${fractionToPercent(info.alcoholInSystem.bal)}%`
          : yesNo(info.alcoholInSystem?.exist)}
      </Row>
      <Row label="Drugs in system" testId="mi-drugs">
        {info.drugsInSystem?.map((d) => (d.useCase ? `${enumLabel(d.drug)} (${enumLabel(d.useCase)})` : enumLabel(d.drug))).join(', ')}
      </Row>
      <Row label="Active detox">{yesNo(info.activeDetox)}</Row>
      {!facility && <Row label="Acute conditions">{info.acuteConditions}</Row>}
      <Row label="Medications given in ER">{info.medicationsGivenInEr}</Row>
      <Row label="Home medications">{info.homeMedications}</Row>
      <Row label="Ambulatory">{yesNo(info.ambulatory)}</Row>
      <Row label="COVID-19">{yesNo(info.covid19)}</Row>
      <Row label="Incontinent">{yesNo(info.incontinent)}</Row>
      <Row label="Assistive devices">{withNote(info.assistiveDevices?.exist, info.assistiveDevices?.note)}</Row>
      {!facility && <Row label="Crisis team notes">{info.crisisTeamNotes}</Row>}
      {!facility && <Row label="Medical / psych history">{info.medicalPsychHistory}</Row>}
      {info.modifiedAt && (
        <Typography variant="caption" color="text.secondary">
          Last changed {formatDateTime(info.modifiedAt)}
          {info.modifiedBy ? ` by ${info.modifiedBy}` : ''}
        </Typography>
      )}
    </Box>
  );
}
