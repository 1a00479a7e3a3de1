/** SQL fragments of the patient read model, shared by the patient routes and the insurance service. */

/** The patient record (spec 01 §3 Patient) of `patients p` as JSON columns. */
export const PATIENT_COLUMNS = `
  p.id, p.first_name AS "firstName", p.last_name AS "lastName", p.date_of_birth::text AS "dateOfBirth", p.gender, p.phone,
  p.is_veteran AS "isVeteran", p.homeless, CASE WHEN p.is_veteran THEN p.ssn END AS ssn,
  json_build_object('streetLine', p.street_line, 'apartmentNumber', p.apartment_number, 'city', p.city, 'state', p.state,
                    'county', p.county, 'zipCode', p.zip_code) AS address,
  p.outpatient_provider_name AS "outpatientProviderName", p.outpatient_provider_phone AS "outpatientProviderPhone",
  p.athena_patient_id AS "athenaPatientId", p.patient_epic_id AS "patientEpicId", p.encounter_identifier AS "encounterIdentifier"`;

/** A stored patient row in the shape of PatientInput (for comparisons and change logs). */
export type { PatientRecord } from '@crisis/forms';
