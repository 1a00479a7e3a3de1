import { useMemo, useRef, useState, type ReactNode } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { useNotify } from 'react-admin';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  Chip,
  CircularProgress,
  Divider,
  FormControlLabel,
  Link,
  Table,
  TableBody,
  TableCell,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import CloudOffIcon from '@mui/icons-material/CloudOff';
import {
  DEFAULT_MESSAGES,
  ErrorCode,
  answeredQuestions,
  caseReference,
  enumLabel,
  evaluationProblems,
  formatDay,
  type CaseDetails,
  type EvaluationView,
  type FieldError,
} from '@crisis/forms/core';
import { codeOf } from '../billing-codes/codedFields';
import { ConfirmDialog, ReasonDialog } from '../cases/page/dialogs';
import { MessageDialog } from '../common/MessageDialog';
import { keys, useAppData, useAppQuery } from '../data/query';
import { AccessDeniedPage } from '../pages/errors/AccessDeniedPage';
import { NotFoundPage } from '../pages/errors/NotFoundPage';
import { answerProblemsInBrowser, splitProblems } from './answerProblems';
import { EvaluationChangeLog } from './EvaluationChangeLog';
import { EvaluationFields } from './EvaluationFields';
import { clearDrafts, payloadOf, readDraft, valuesOf, type EvaluationValues } from './evaluationDraft';
import { QuestionnaireForm } from './QuestionnaireForm';
import { evaluationPdfUrl } from '../data/methods/evaluations';
import { VideoMeetingControls } from '../online-meetings/VideoMeetingControls';
import { useEvaluationAutosave, type SaveState } from './useEvaluationAutosave';

/** Where the provider lands after completing (spec 01 §4: his dashboard; his cases are its list). */
export const AFTER_COMPLETE_PATH = '/cases';

/** /cases/:id/requests/:requestId/evaluation (spec 02 §2 "Evaluation screen"). */
export function EvaluationPage() {
  const params = useParams();
  const caseId = Number(params.id);
  const requestId = Number(params.requestId);
  const valid = Number.isInteger(caseId) && caseId > 0 && Number.isInteger(requestId) && requestId > 0;
  const view = useAppQuery(['evaluation', requestId, 'view'], (dp) => dp.evaluation(requestId), { enabled: valid, gcTime: 0 });
  const details = useAppQuery(keys.case(caseId, 'details'), (dp) => dp.caseDetails(caseId), { enabled: valid });
  if (!valid) return <NotFoundPage />;
  const failure = view.failure ?? details.failure;
  if (failure) {
    const code = codeOf(failure);
    if (code === ErrorCode.Forbidden) return <AccessDeniedPage />;
    if (code === ErrorCode.NotFound) return <NotFoundPage />;
    return <Alert severity="error">{failure.message}</Alert>;
  }
  if (!view.data || !details.data) return <CircularProgress data-testid="evaluation-loading" />;
  // The URL's case must be the request's.
  if (view.data.caseId !== caseId) return <NotFoundPage />;
  return <EvaluationScreen key={requestId} view={view.data} caseRecord={details.data} />;
}

/** Downloads the request's evaluation PDF (spec 01 §7 GET /{id}/requests/{requestId}/evaluation/pdf). */
export function EvaluationPdfButton({ caseId, requestId, size = 'small' }: { caseId: number; requestId: number; size?: 'small' | 'medium' }) {
  const dp = useAppData();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const open = async () => {
    setBusy(true);
    try {
      await dp.downloadPdf(evaluationPdfUrl(caseId, requestId));
    } catch (e) {
      notify((e as Error).message || 'The evaluation PDF could not be made', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size={size} variant="outlined" onClick={() => void open()} disabled={busy} data-testid="evaluation-pdf">
      Evaluation PDF
    </Button>
  );
}

const SAVE_STATE_LABEL: Record<SaveState, string> = { saved: 'Saved', saving: 'Saving…', unsaved: 'Saving…', failed: 'Not saved' };

function SaveStateChip({ state, autosave, onRetry }: { state: SaveState; autosave: boolean; onRetry: () => void }) {
  // Without autosave (edit mode) a change waits for the Save button.
  const label = !autosave && state === 'unsaved' ? 'Not saved' : SAVE_STATE_LABEL[state];
  const icon = state === 'saved' ? <CheckCircleIcon /> : label === 'Not saved' ? <CloudOffIcon /> : <CircularProgress size={14} />;
  return (
    <Chip
      size="small"
      variant="outlined"
      icon={icon}
      label={label}
      color={state === 'saved' ? 'success' : label === 'Not saved' ? 'warning' : 'default'}
      onClick={state === 'failed' ? onRetry : undefined}
      title={state === 'failed' ? 'Click to try again' : undefined}
      data-testid="evaluation-save-state"
      data-state={state}
    />
  );
}

function Header({ view, caseRecord, children }: { view: EvaluationView; caseRecord: CaseDetails; children?: ReactNode }) {
  const p = caseRecord.patient;
  return (
    <Card variant="outlined" sx={{ mb: 2 }} data-testid="evaluation-header">
      <CardContent sx={{ display: 'flex', gap: 3, flexWrap: 'wrap', alignItems: 'flex-start' }}>
        <Box sx={{ flex: '1 1 320px' }}>
          <Typography variant="h5" component="h1" data-testid="page-title">
            Evaluation — {p.firstName} {p.lastName}
          </Typography>
          <Typography color="text.secondary" data-testid="evaluation-patient">
            Born {formatDay(p.dateOfBirth)} · {p.gender} ·{' '}
            <Link component={RouterLink} to={`/cases/${caseRecord.id}`} data-testid="evaluation-case-link">
              Case {caseReference(caseRecord.id)}
            </Link>
          </Typography>
          <Typography color="text.secondary" data-testid="evaluation-request">
            {enumLabel(view.requestType)} · {enumLabel(view.requestStatus)} · {caseRecord.sourceFacility.name} — {caseRecord.sourceDivision.name}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Form: {view.form.name}
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>{children}</Box>
      </CardContent>
    </Card>
  );
}

const FIELD_OF: Partial<Record<keyof EvaluationValues, string>> = {
  primaryDiagnosis: 'primaryDiagnosisId',
  secondaryDiagnoses: 'secondaryDiagnoses',
  billingCodes: 'billingCodes',
  mainRecommendation: 'mainRecommendation',
  recommendationCriteria: 'recommendationCriteria',
  recommendationNote: 'recommendationNote',
  reasonForEdit: 'reasonForEdit',
};

/**
 * The screen of one evaluation in its mode (spec 02 §2, §4, §5): new (autosave, complete, not
 * ready), edit (a completed one: a reason, Save returns to the case, a recommendation change while
 * placing asks first) or read-only (anyone else); the change log once completed.
 */
function EvaluationScreen({ view, caseRecord }: { view: EvaluationView; caseRecord: CaseDetails }) {
  const dp = useAppData();
  const notify = useNotify();
  const navigate = useNavigate();
  const items = view.form.items;
  const mode = view.mode;
  const editing = mode === 'edit';
  const [restored] = useState(() => (mode === 'readOnly' ? null : readDraft(view.requestId, view.version)));
  const [values, setValues] = useState<EvaluationValues>(() => restored ?? valuesOf(view));
  const valuesRef = useRef(values);
  const [questionErrors, setQuestionErrors] = useState<Record<string, string>>({});
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [confirming, setConfirming] = useState<'complete' | 'recommendation' | null>(null);
  const [notReady, setNotReady] = useState(false);
  const [busy, setBusy] = useState(false);
  const [restoredShown, setRestoredShown] = useState(true);

  const showProblems = (problems: readonly FieldError[]) => {
    const { questions, fields } = splitProblems(problems);
    setQuestionErrors(questions);
    setFieldErrors(fields);
    const first = Object.keys(questions)[0];
    if (first) document.querySelector(`[data-testid="question-${CSS.escape(first)}"]`)?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  };
  const failed = (e: unknown) => notify((e as Error)?.message ?? 'The evaluation could not be saved', { type: 'error' });
  const autosave = useEvaluationAutosave({
    view,
    items,
    editing,
    autosave: mode === 'new',
    initial: values,
    restored: !!restored,
    onProblems: (problems) => (problems.length ? showProblems(problems) : undefined),
    onFailure: failed,
  });

  const change = (patch: Partial<EvaluationValues>) => {
    const before = valuesRef.current;
    const next = { ...before, ...patch };
    valuesRef.current = next;
    setValues(next);
    // A change clears the problem shown on what changed.
    const touched = Object.keys(patch).map((k) => FIELD_OF[k as keyof EvaluationValues]).filter(Boolean) as string[];
    if (touched.length) setFieldErrors((errs) => Object.fromEntries(Object.entries(errs).filter(([f]) => !touched.includes(f))));
    if (patch.answers)
      setQuestionErrors((errs) => Object.fromEntries(Object.entries(errs).filter(([q]) => JSON.stringify(before.answers[q]) === JSON.stringify(next.answers[q]))));
    autosave.changed(next);
  };

  const rules = { items, showBillingCode: view.showBillingCode, defaultForm: view.form.isDefault, editing, formOptional: view.formOptional };
  const problemsOf = (complete: boolean) =>
    evaluationProblems(payloadOf(valuesRef.current, items, autosave.version(), editing), rules, {
      complete,
      answerProblems: (answers, draft) => answerProblemsInBrowser(items, answers, draft),
    });

  /** Complete: checked in the browser first (the same rules as the API), then confirmed. */
  const askComplete = () => {
    const problems = problemsOf(true);
    showProblems(problems);
    if (problems.length) return notify(DEFAULT_MESSAGES[ErrorCode.EvaluationCannotBeCompleted], { type: 'error' });
    setConfirming('complete');
  };
  const complete = async () => {
    setBusy(true);
    try {
      if (!(await autosave.flush(true))) return;
      await dp.completeEvaluation(view.requestId, { sourceDivisionId: view.sourceDivisionId ?? 0, version: autosave.version() });
      clearDrafts(view.requestId);
      notify('Evaluation completed', { type: 'success' });
      navigate(AFTER_COMPLETE_PATH);
    } catch (e) {
      const code = codeOf(e);
      if (code === ErrorCode.EvaluationCannotBeCompleted) {
        showProblems(((e as { fields?: FieldError[] }).fields ?? []) as FieldError[]);
        notify(DEFAULT_MESSAGES[ErrorCode.EvaluationCannotBeCompleted], { type: 'error' });
      } else failed(e);
    } finally {
      setBusy(false);
      setConfirming(null);
    }
  };

  /** Edit mode: everything checked, a reason given; Save returns to the case. */
  const saveEdit = async (confirmed: boolean) => {
    const problems = problemsOf(false);
    showProblems(problems);
    if (problems.length) return notify(DEFAULT_MESSAGES[ErrorCode.EvaluationCannotBeSaved], { type: 'error' });
    setBusy(true);
    try {
      await dp.saveEvaluation(view.requestId, { ...payloadOf(valuesRef.current, items, autosave.version(), true), ...(confirmed ? { confirmed: true } : {}) });
      clearDrafts(view.requestId);
      notify('Evaluation saved', { type: 'success' });
      navigate(`/cases/${view.caseId}`);
    } catch (e) {
      const code = codeOf(e);
      if (code === ErrorCode.MedicalInformationConfirmationRequired) setConfirming('recommendation');
      else if (code === ErrorCode.EvaluationCannotBeSaved) {
        showProblems(((e as { fields?: FieldError[] }).fields ?? []) as FieldError[]);
        notify(DEFAULT_MESSAGES[ErrorCode.EvaluationCannotBeSaved], { type: 'error' });
      } else if (code === ErrorCode.EvaluationStale) autosave.markStale();
      else failed(e);
    } finally {
      setBusy(false);
    }
  };

  const readOnly = mode === 'readOnly';
  const request = caseRecord.requests.find((r) => r.id === view.requestId);
  return (
    <Box data-testid="evaluation-page" data-mode={mode}>
      <Header view={view} caseRecord={caseRecord}>
        <Chip label={readOnly ? 'Read only' : editing ? 'Editing a completed evaluation' : 'In progress'} color={readOnly ? 'default' : 'primary'} data-testid="evaluation-mode" />
        {!readOnly && <SaveStateChip state={autosave.state} autosave={mode === 'new'} onRetry={() => void autosave.flush()} />}
        {view.version > 0 && <EvaluationPdfButton caseId={view.caseId} requestId={view.requestId} />}
      </Header>
      {request && (
        <Box sx={{ mb: 2 }} data-testid="evaluation-video">
          <VideoMeetingControls request={request} />
        </Box>
      )}
      {restored && !readOnly && restoredShown && (
        <Alert severity="info" sx={{ mb: 2 }} onClose={() => setRestoredShown(false)} data-testid="evaluation-restored">
          Changes you made before the page was reloaded had not been saved yet: they are back{mode === 'new' ? ' and saved now' : ''}.
        </Alert>
      )}
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 2fr) minmax(320px, 1fr)' }, gap: 2, alignItems: 'start' }}>
        <Card variant="outlined">
          <CardContent>
            {readOnly ? (
              <ReadOnlyAnswers view={view} />
            ) : (
              <>
                {view.formOptional && (
                  <Alert severity="info" sx={{ mb: 2 }} data-testid="evaluation-form-optional">
                    <FormControlLabel
                      control={<Checkbox checked={values.skipForm} onChange={(e) => change({ skipForm: e.target.checked })} inputProps={{ 'data-testid': 'evaluation-skip-form' } as any} />}
                      label="Documented in the EHR: skip the questionnaire"
                    />
                    <Typography variant="body2">Diagnoses and the recommendation are still required.</Typography>
                  </Alert>
                )}
                <QuestionnaireForm items={items} answers={values.answers} errors={questionErrors} optional={values.skipForm} onChange={(answers) => change({ answers })} />
              </>
            )}
          </CardContent>
        </Card>
        <Card variant="outlined" sx={{ position: { lg: 'sticky' }, top: { lg: 72 } }}>
          <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
            {readOnly ? (
              <ReadOnlyFields view={view} />
            ) : (
              <EvaluationFields view={view} values={values} errors={fieldErrors} onChange={change} />
            )}
            {editing && (
              <TextField
                label="Reason for edit *"
                multiline
                minRows={2}
                value={values.reasonForEdit}
                onChange={(e) => change({ reasonForEdit: e.target.value })}
                error={!!fieldErrors.reasonForEdit}
                helperText={fieldErrors.reasonForEdit}
                inputProps={{ 'data-testid': 'evaluation-reason-for-edit', maxLength: 6000 }}
              />
            )}
            {fieldErrors.sourceDivisionId && <Alert severity="error">{fieldErrors.sourceDivisionId}</Alert>}
            {!readOnly && <Divider />}
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
              {mode === 'new' && (
                <>
                  <Button onClick={() => setNotReady(true)} disabled={busy} data-testid="evaluation-not-ready">
                    Not ready for evaluation
                  </Button>
                  <Button variant="contained" onClick={askComplete} disabled={busy} data-testid="evaluation-complete">
                    Complete
                  </Button>
                </>
              )}
              {editing && (
                <>
                  <Button component={RouterLink} to={`/cases/${view.caseId}`} disabled={busy} data-testid="evaluation-cancel">
                    Cancel
                  </Button>
                  <Button variant="contained" onClick={() => void saveEdit(false)} disabled={busy} data-testid="evaluation-save">
                    Save
                  </Button>
                </>
              )}
              {readOnly && (
                <Button component={RouterLink} to={`/cases/${view.caseId}`} data-testid="evaluation-back">
                  Back to the case
                </Button>
              )}
            </Box>
          </CardContent>
        </Card>
      </Box>
      {view.completedAt && (
        <Box sx={{ mt: 2 }}>
          <EvaluationChangeLog requestId={view.requestId} items={items} />
        </Box>
      )}
      <ConfirmDialog
        open={confirming === 'complete'}
        title="Complete the evaluation"
        message="Once completed, the recommendation goes to the coordinators. Later changes need a reason and are logged."
        confirmLabel="Complete"
        busy={busy}
        testId="evaluation-complete-confirm"
        onConfirm={() => void complete()}
        onClose={() => setConfirming(null)}
      />
      <ConfirmDialog
        open={confirming === 'recommendation'}
        title="Change the recommendation"
        message="Services are being contacted for this patient on the current recommendation. Save the new recommendation anyway?"
        confirmLabel="Save"
        busy={busy}
        testId="evaluation-recommendation-confirm"
        onConfirm={() => {
          setConfirming(null);
          void saveEdit(true);
        }}
        onClose={() => setConfirming(null)}
      />
      <ReasonDialog
        open={notReady}
        title="Not ready for evaluation"
        submitLabel="Send"
        testId="evaluation-not-ready-dialog"
        onClose={() => setNotReady(false)}
        onSubmit={async (reason) => {
          try {
            await autosave.flush(true);
            await dp.requestNotReady(view.requestId, reason);
            setNotReady(false);
            notify('The request was marked as not ready for evaluation', { type: 'success' });
            navigate('/dashboard');
          } catch (e) {
            setNotReady(false);
            failed(e);
          }
        }}
      />
      <StaleDialog open={autosave.stale} />
    </Box>
  );
}

/** Someone saved this evaluation from another window: going on here would overwrite it. */
function StaleDialog({ open }: { open: boolean }) {
  return (
    <MessageDialog
      content={open ? { title: 'Saved from another window', message: DEFAULT_MESSAGES[ErrorCode.EvaluationStale] } : null}
      onClose={undefined}
      testId="evaluation-stale"
      actions={
        <Button variant="contained" onClick={() => window.location.reload()} data-testid="evaluation-stale-reload">
          Reload
        </Button>
      }
    />
  );
}

/** The questionnaire as the provider answered it (headings, the questions that showed, answers in words). */
function ReadOnlyAnswers({ view }: { view: EvaluationView }) {
  const rows = useMemo(() => answeredQuestions(view.form.items, view.answers), [view]);
  if (!rows.length) return <Typography color="text.secondary">No answers yet.</Typography>;
  return (
    <Box data-testid="evaluation-answers">
      {rows.map((r, i) =>
        r.heading ? (
          <Typography key={i} variant="subtitle1" sx={{ fontWeight: 600, mt: i ? 2 : 0 }}>
            {r.label}
          </Typography>
        ) : (
          <Box key={i} sx={{ py: 0.75, borderBottom: 1, borderColor: 'divider' }} data-testid="evaluation-answer">
            <Typography variant="body2" color="text.secondary">
              {r.label}
            </Typography>
            <Typography sx={{ whiteSpace: 'pre-wrap' }}>{r.answer}</Typography>
          </Box>
        ),
      )}
    </Box>
  );
}

function ReadOnlyFields({ view }: { view: EvaluationView }) {
  const row = (label: string, value: ReactNode, testId: string) => (
    <TableRow>
      <TableCell sx={{ color: 'text.secondary', pl: 0, width: '40%' }}>{label}</TableCell>
      <TableCell data-testid={testId}>{value || '—'}</TableCell>
    </TableRow>
  );
  const diagnosis = (d: { code: string; description: string }) => `${d.code} ${d.description}`.trim();
  return (
    <Table size="small" data-testid="evaluation-summary">
      <TableBody>
        {row('Primary diagnosis', view.primaryDiagnosis && diagnosis(view.primaryDiagnosis), 'evaluation-summary-primary')}
        {row('Secondary diagnoses', view.secondaryDiagnoses.map(diagnosis).join('; '), 'evaluation-summary-secondary')}
        {view.showBillingCode && row('Billing codes', view.billingCodes.map((b) => b.code).join(', '), 'evaluation-summary-billing')}
        {row('Main recommendation', view.mainRecommendation ? enumLabel(view.mainRecommendation) : null, 'evaluation-summary-recommendation')}
        {row('Criteria', view.recommendationCriteria.map(enumLabel).join(', '), 'evaluation-summary-criteria')}
        {row('Note', view.recommendationNote, 'evaluation-summary-note')}
      </TableBody>
    </Table>
  );
}
