import { keys, useAppQuery } from '../../data/query';
import type { CaseCardProps } from '../types';
import { CaseCard } from './CaseCard';
import { MedicalInformationView } from './medical/MedicalInformationView';

/**
 * The facility case page's read-only medical information (spec 01 §2): the subset the API returns
 * to facility roles (admission-precipitating factors, medications, recommendation, diagnosis,
 * living situation, legal status, drugs and alcohol, detox, ambulatory, incontinent, assistive
 * devices, COVID-19, jail or custody).
 */
export function FacilityMedicalInformationCard({ caseRecord }: CaseCardProps) {
  const { data: info, error } = useAppQuery(keys.case(caseRecord.id, 'medical', caseRecord.version, caseRecord.status), (dp) =>
    dp.medicalInformation(caseRecord.id),
  );
  return (
    <CaseCard title="Medical information" testId="facility-medical-information-card" dense error={error} loading={!info}>
      {info && <MedicalInformationView info={info} facility />}
    </CaseCard>
  );
}
