import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/**
 * The case domain (spec 01 §3): patients, cases and their activity, requests and evaluations,
 * medical information with its change log, vitals, notes, files, tags, insurances, feedback, and
 * the in-app notifications the case workflow raises (spec 02 §3).
 */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    CREATE TABLE patients (
      id serial PRIMARY KEY,
      first_name text NOT NULL,
      last_name text NOT NULL,
      date_of_birth date NOT NULL,
      gender text NOT NULL,
      phone text,
      is_veteran boolean NOT NULL DEFAULT false,
      homeless boolean NOT NULL DEFAULT false,
      street_line text,
      apartment_number text,
      city text,
      state char(2),
      county text,
      zip_code text,
      ssn text,
      athena_patient_id text,
      patient_epic_id text,
      encounter_identifier text,
      outpatient_provider_name text,
      outpatient_provider_phone text,
      created_in_facility_id integer REFERENCES facilities(id),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    -- Case-creation search: name + date of birth.
    CREATE INDEX patients_name_dob_idx ON patients (lower(last_name), lower(first_name), date_of_birth);
    CREATE INDEX patients_epic_idx ON patients (patient_epic_id) WHERE patient_epic_id IS NOT NULL;
    CREATE INDEX patients_last_name_trgm_idx ON patients USING gin (lower(last_name || ' ' || first_name) gin_trgm_ops);

    CREATE TABLE cases (
      id serial PRIMARY KEY,
      patient_id integer NOT NULL REFERENCES patients(id),
      status text NOT NULL,
      status_changed_at timestamptz NOT NULL DEFAULT now(),
      status_to_resume text,
      source_facility_id integer NOT NULL REFERENCES facilities(id),
      source_division_id integer NOT NULL REFERENCES divisions(id),
      attending_provider text,
      rn_caring_for_patient text,
      contact_phone_number text,
      notification_sending_method text NOT NULL DEFAULT 'PhoneCall',
      is_involuntary boolean NOT NULL DEFAULT false,
      include_out_of_state_facilities boolean NOT NULL DEFAULT false,
      is_from_old_system boolean NOT NULL DEFAULT false,
      main_recommendation text,
      criteria text[] NOT NULL DEFAULT '{}',
      recommendation_note text,
      uninsured boolean NOT NULL DEFAULT false,
      patient_epic_id text,
      encounter_identifier_id text,
      outcome_type text,
      outcome_note text,
      outcome_referring_division_id integer REFERENCES divisions(id),
      granted_access_created_at timestamptz,
      patient_accepted_created_at timestamptz,
      locating_services_started_at timestamptz,
      locating_services_seconds integer NOT NULL DEFAULT 0,
      closed_at timestamptz,
      reworked_at timestamptz,
      created_by integer REFERENCES users(id),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      -- Bumped by every status change: an expected version makes concurrent changes lose cleanly.
      version integer NOT NULL DEFAULT 0
    );
    -- A patient with a non-closed case gets no new case (spec 01 §1).
    CREATE UNIQUE INDEX cases_one_active_per_patient ON cases (patient_id) WHERE status <> 'Closed';
    CREATE INDEX cases_patient_idx ON cases (patient_id, created_at DESC);
    -- ITP case list: open cases by time elapsed (created_at ascending = longest waiting first).
    CREATE INDEX cases_open_created_idx ON cases (created_at, id) WHERE status <> 'Closed';
    CREATE INDEX cases_status_idx ON cases (status) WHERE status <> 'Closed';
    CREATE INDEX cases_source_division_idx ON cases (source_division_id, created_at DESC);
    CREATE INDEX cases_source_facility_idx ON cases (source_facility_id, created_at DESC);
    CREATE INDEX cases_closed_idx ON cases (closed_at DESC) WHERE status = 'Closed';

    -- One row per status a case went through (spec 01 §3 Case activity report).
    CREATE TABLE case_activities (
      id bigserial PRIMARY KEY,
      case_id integer NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
      status text NOT NULL,
      status_group text NOT NULL,
      kind text NOT NULL DEFAULT 'status',
      note text,
      initiator_id integer REFERENCES users(id),
      initiator_name text,
      started_at timestamptz NOT NULL DEFAULT now(),
      ended_at timestamptz,
      main_recommendation text,
      criteria text[],
      recommendation_note text,
      undone_at timestamptz,
      command_id text
    );
    CREATE INDEX case_activities_case_idx ON case_activities (case_id, started_at, id);

    -- Commands applied by the case workflow's activity, with their result: a retried activity
    -- (worker killed after the commit) returns the stored result instead of applying it twice.
    CREATE TABLE case_commands (
      command_id text PRIMARY KEY,
      case_id integer NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
      kind text NOT NULL,
      result jsonb NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX case_commands_case_idx ON case_commands (case_id, applied_at DESC);

    CREATE TABLE requests (
      id serial PRIMARY KEY,
      case_id integer NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
      type text NOT NULL,
      status text NOT NULL,
      evaluation_provider_id integer REFERENCES users(id),
      division_id integer REFERENCES divisions(id),
      note text,
      facility_note text,
      facility_note_author text,
      itp_note text,
      itp_note_author text,
      reason text,
      evaluation_started_at timestamptz,
      completed_at timestamptz,
      canceled_at timestamptz,
      online_meeting jsonb,
      created_by integer REFERENCES users(id),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    -- Only one active request per case.
    CREATE UNIQUE INDEX requests_one_active_per_case ON requests (case_id) WHERE status IN ('New', 'Pending', 'InProgress', 'OnHold');
    CREATE INDEX requests_case_idx ON requests (case_id, created_at DESC, id DESC);
    CREATE INDEX requests_provider_idx ON requests (evaluation_provider_id, status);

    CREATE TABLE evaluations (
      request_id integer PRIMARY KEY REFERENCES requests(id) ON DELETE CASCADE,
      evaluation_form_id integer REFERENCES evaluation_forms(id),
      primary_diagnosis text REFERENCES diagnoses(code),
      secondary_diagnoses text[] NOT NULL DEFAULT '{}',
      main_recommendation text,
      criteria text[] NOT NULL DEFAULT '{}',
      recommendation_note text,
      answers jsonb NOT NULL DEFAULT '[]',
      billing_code_ids integer[] NOT NULL DEFAULT '{}',
      reason_for_edit text,
      created_at timestamptz NOT NULL DEFAULT now(),
      modified_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE medical_information (
      case_id integer PRIMARY KEY REFERENCES cases(id) ON DELETE CASCADE,
      data jsonb NOT NULL DEFAULT '{}',
      updated_by integer REFERENCES users(id),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    -- Change logs (spec 01 §3 "Change-log rows"): medical information, patient, evaluation.
    CREATE TABLE change_logs (
      id bigserial PRIMARY KEY,
      subject text NOT NULL CHECK (subject IN ('medicalInformation', 'patient', 'evaluation')),
      case_id integer REFERENCES cases(id) ON DELETE CASCADE,
      patient_id integer REFERENCES patients(id) ON DELETE CASCADE,
      request_id integer REFERENCES requests(id) ON DELETE CASCADE,
      changed_by integer REFERENCES users(id),
      changed_by_name text,
      changed_at timestamptz NOT NULL DEFAULT now(),
      name text NOT NULL,
      old_value text,
      new_value text,
      meta_info jsonb
    );
    CREATE INDEX change_logs_case_idx ON change_logs (subject, case_id, changed_at DESC, id DESC);
    CREATE INDEX change_logs_patient_idx ON change_logs (subject, patient_id, changed_at DESC, id DESC);
    CREATE INDEX change_logs_request_idx ON change_logs (request_id, changed_at DESC) WHERE request_id IS NOT NULL;

    CREATE TABLE vitals (
      id serial PRIMARY KEY,
      case_id integer NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
      submitted_on timestamptz NOT NULL,
      pulse integer,
      systolic integer,
      diastolic integer,
      oxygen_saturation numeric(5, 4),
      body_temperature numeric(5, 1),
      respiration_rate numeric(5, 1),
      created_by integer REFERENCES users(id),
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX vitals_case_idx ON vitals (case_id, submitted_on DESC);

    CREATE TABLE progress_notes (
      id serial PRIMARY KEY,
      case_id integer NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
      note text NOT NULL,
      submitted_on timestamptz NOT NULL,
      created_by integer REFERENCES users(id),
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX progress_notes_case_idx ON progress_notes (case_id, submitted_on DESC);

    CREATE TABLE case_notes (
      id serial PRIMARY KEY,
      case_id integer NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
      note text NOT NULL,
      hidden boolean NOT NULL DEFAULT false,
      -- 'user' for notes people write; 'evaluation' for notes the request lifecycle adds.
      kind text NOT NULL DEFAULT 'user',
      reason text,
      created_by integer REFERENCES users(id),
      author_organization_type text,
      created_at timestamptz NOT NULL DEFAULT now(),
      modified_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz
    );
    CREATE INDEX case_notes_case_idx ON case_notes (case_id, created_at DESC) WHERE deleted_at IS NULL;

    CREATE TABLE patient_files (
      id serial PRIMARY KEY,
      case_id integer NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
      patient_id integer NOT NULL REFERENCES patients(id),
      title text NOT NULL,
      note text,
      file_name text NOT NULL,
      storage_key text NOT NULL,
      size_bytes bigint NOT NULL,
      hidden boolean NOT NULL DEFAULT false,
      submitted_by integer REFERENCES users(id),
      submitted_on timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX patient_files_case_idx ON patient_files (case_id, submitted_on DESC);

    CREATE TABLE case_tags (
      case_id integer NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
      tag_id integer NOT NULL REFERENCES patient_tags(id),
      PRIMARY KEY (case_id, tag_id)
    );

    -- Insurances of a case (max 3, ordered); patient_id for "last insurances of a patient".
    CREATE TABLE patient_insurances (
      id serial PRIMARY KEY,
      case_id integer NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
      patient_id integer NOT NULL REFERENCES patients(id),
      payer_id integer NOT NULL REFERENCES payers(id),
      insurance_id text NOT NULL,
      group_id text,
      relation_to_insured text,
      responsible_party jsonb,
      front_image text,
      back_image text,
      verified boolean NOT NULL DEFAULT true,
      patient_phone text,
      position smallint NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX patient_insurances_case_idx ON patient_insurances (case_id, position);
    CREATE INDEX patient_insurances_patient_idx ON patient_insurances (patient_id, created_at DESC);
    CREATE INDEX patient_insurances_payer_idx ON patient_insurances (payer_id);

    CREATE TABLE case_feedback (
      id serial PRIMARY KEY,
      case_id integer NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
      rating smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
      note text,
      confirmation boolean NOT NULL DEFAULT false,
      cant_attest boolean NOT NULL DEFAULT false,
      created_by integer REFERENCES users(id),
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX case_feedback_case_idx ON case_feedback (case_id);

    -- Referring divisions granted access to a case (placement result GrantedAccess / accepted).
    CREATE TABLE case_referring_access (
      case_id integer NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
      division_id integer NOT NULL REFERENCES divisions(id),
      granted_at timestamptz NOT NULL DEFAULT now(),
      accepted_at timestamptz,
      removed_at timestamptz,
      PRIMARY KEY (case_id, division_id)
    );
    CREATE INDEX case_referring_access_division_idx ON case_referring_access (division_id, granted_at) WHERE removed_at IS NULL;

    -- In-app notifications (spec 02 §3 Notification), raised by the case workflow.
    CREATE TABLE notifications (
      id bigserial PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      type text NOT NULL,
      case_id integer REFERENCES cases(id) ON DELETE CASCADE,
      payload jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now(),
      read_at timestamptz,
      resolved_at timestamptz,
      resolved_by integer REFERENCES users(id),
      dismissed_at timestamptz,
      -- The command that raised it: a retried activity raises it once.
      source_key text
    );
    CREATE UNIQUE INDEX notifications_source_uniq ON notifications (source_key, user_id, type) WHERE source_key IS NOT NULL;
    CREATE INDEX notifications_user_idx ON notifications (user_id, created_at DESC) WHERE dismissed_at IS NULL;
  `);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    DROP TABLE IF EXISTS notifications, case_referring_access, case_feedback, patient_insurances, case_tags, patient_files, case_notes,
      progress_notes, vitals, change_logs, medical_information, evaluations, requests, case_commands, case_activities, cases, patients CASCADE;
  `);
};
