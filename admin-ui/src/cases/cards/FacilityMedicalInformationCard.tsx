import { useEffect, useState } from 'react';
import { Card, CardContent, CardHeader, CircularProgress, Typography } from '@mui/material';
import type { CaseCardProps } from '../types';
import { medicalApi, type MedicalInformation } from './medical/api';
import { MedicalInformationView } from './medical/MedicalInformationView';

/**
 * The facility case page's read-only medical information (spec 01 §2): the subset the API returns
 * to facility roles (admission-precipitating factors, medications, recommendation, diagnosis,
 * living situation, legal status, drugs and alcohol, detox, ambulatory, incontinent, assistive
 * devices, COVID-19, jail or custody).
 */
export function FacilityMedicalInformationCard({ caseRecord }: CaseCardProps) {
  const [info, setInfo] = useState<MedicalInformation | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    medicalApi
      .get(caseRecord.id)
      .then((d) => live && (setInfo(d), setError(null)))
      .catch((e) => live && setError((e as Error).message));
    return () => {
      live = false;
    };
  }, [caseRecord.id, caseRecord.version, caseRecord.status]);
  return (
    <Card data-testid="facility-medical-information-card">
      <CardHeader title="Medical information" titleTypographyProps={{ variant: 'h6' }} />
      <CardContent>
        {error && <Typography color="error">{error}</Typography>}
        {!info && !error && <CircularProgress size={20} />}
        {info && <MedicalInformationView info={info} facility />}
      </CardContent>
    </Card>
  );
}
