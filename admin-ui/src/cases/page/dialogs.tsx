import { useEffect, useState, type ReactNode } from 'react';
import { Button, TextField } from '@mui/material';
import { ActionDialog } from '../../common/ActionDialog';
import { MessageDialog, type Message } from '../../common/MessageDialog';
import type { SchemaName } from '@crisis/forms/validators';

/** The validators (ajv and the shared schemas): loaded by the first dialog that opens, not with the page. */
const loadValidation = () => import('../../common/schemaValidation');

/** field → message of the shared schema's problems (spec 01 §5), shown under each field. */
export async function schemaProblems(name: SchemaName, payload: unknown): Promise<Record<string, string>> {
  const { validatePayload } = await loadValidation();
  const out: Record<string, string> = {};
  for (const e of validatePayload(name, payload)) if (e.field && !out[e.field]) out[e.field] = e.message;
  return out;
}

/** A dialog with a title, content and Cancel / submit buttons; the submit shows a spinner while busy. */
export function FormDialog(props: {
  open: boolean;
  title: string;
  testId: string;
  submitLabel?: string;
  busy?: boolean;
  onClose: () => void;
  onSubmit: () => void;
  children: ReactNode;
}) {
  // Fetched while the user fills the dialog in, so that its check is ready when they submit.
  useEffect(() => {
    if (props.open) void loadValidation();
  }, [props.open]);
  return (
    <ActionDialog
      open={props.open}
      title={props.title}
      testId={props.testId}
      onClose={props.onClose}
      action={{ label: props.submitLabel ?? 'Save', testId: `${props.testId}-submit`, onClick: props.onSubmit }}
      busy={props.busy}
      cancelTestId={`${props.testId}-cancel`}
      fullWidth
      maxWidth="sm"
      contentSx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}
    >
      {props.children}
    </ActionDialog>
  );
}

/** A yes/no confirmation. */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  message: ReactNode;
  confirmLabel?: string;
  busy?: boolean;
  testId: string;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <MessageDialog
      content={props.open ? props : null}
      onClose={props.busy ? undefined : props.onClose}
      testId={props.testId}
      actions={
        <>
          <Button onClick={props.onClose} disabled={props.busy}>
            Cancel
          </Button>
          <Button variant="contained" onClick={props.onConfirm} disabled={props.busy} data-testid={`${props.testId}-confirm`}>
            {props.confirmLabel ?? 'Confirm'}
          </Button>
        </>
      }
    />
  );
}

/** An information dialog with one OK button (blocked actions, coded errors a screen handles). */
export function OkDialog(props: { content: Message | null; onClose: () => void; testId?: string }) {
  return (
    <MessageDialog
      content={props.content}
      onClose={props.onClose}
      testId={props.testId ?? 'case-message-dialog'}
      actions={
        <Button variant="contained" onClick={props.onClose} data-testid="case-message-dialog-ok">
          OK
        </Button>
      }
    />
  );
}

/** A large-text field (note, reason) with its error. */
export function NoteField(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  required?: boolean;
  testId: string;
  /** The dialog's first field: it gets the focus when the dialog opens. */
  autoFocus?: boolean;
}) {
  return (
    <TextField
      autoFocus={props.autoFocus}
      label={props.label}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      required={props.required}
      error={!!props.error}
      helperText={props.error}
      multiline
      minRows={3}
      fullWidth
      inputProps={{ 'data-testid': props.testId, maxLength: 6000 }}
    />
  );
}

/** A dialog asking for a reason (cancel a request, not ready for evaluation). */
export function ReasonDialog(props: {
  open: boolean;
  title: string;
  testId: string;
  submitLabel?: string;
  onClose: () => void;
  onSubmit: (reason: string) => Promise<void>;
}) {
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const problems = await schemaProblems('requestReason', { reason });
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setBusy(true);
    try {
      await props.onSubmit(reason);
      setReason('');
    } finally {
      setBusy(false);
    }
  };
  return (
    <FormDialog open={props.open} title={props.title} testId={props.testId} submitLabel={props.submitLabel} busy={busy} onClose={props.onClose} onSubmit={submit}>
      <NoteField label="Reason" value={reason} onChange={setReason} error={errors.reason} required testId={`${props.testId}-reason`} />
    </FormDialog>
  );
}
