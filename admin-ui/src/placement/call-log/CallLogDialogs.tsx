import { useEffect, useState } from 'react';
import { Button, Checkbox, DialogContentText, FormControlLabel, MenuItem, Stack, TextField } from '@mui/material';
import { BULK_RESULTS, LEFT_VOICEMAIL_DEFAULT_MINUTES, NO_ANSWER_DEFAULT_MINUTES, defaultFollowUpMinutes } from '@crisis/forms/core';
import { enumLabel } from '../../cases/page/caseLabels';
import { ActionDialog } from '../../common/ActionDialog';
import { MessageDialog as CommonMessageDialog } from '../../common/MessageDialog';
import { followUpLabel } from './followUp';

export function FollowUpSelect({
  value,
  options,
  onChange,
  error,
  testId,
  label = 'Callback',
}: {
  value: number | null;
  options: number[];
  onChange: (minutes: number | null) => void;
  error?: string;
  testId: string;
  label?: string;
}) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value ?? ''}
      onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))}
      error={!!error}
      helperText={error}
      sx={{ minWidth: 150 }}
      SelectProps={{ SelectDisplayProps: { 'data-testid': testId } as any }}
    >
      <MenuItem value="">
        <em>None</em>
      </MenuItem>
      {options.map((m) => (
        <MenuItem key={m} value={m} data-testid={`follow-up-${m}`}>
          {followUpLabel(m)}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** The note modal: the note is trimmed and must not be empty. */
export function NoteDialog({ open, initial, onClose, onSave }: { open: boolean; initial: string; onClose: () => void; onSave: (note: string) => void }) {
  const [note, setNote] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (open) {
      setNote(initial);
      setError(null);
    }
  }, [open, initial]);
  const save = () => {
    const trimmed = note.trim();
    if (!trimmed) return setError('Required');
    onSave(trimmed);
  };
  return (
    <ActionDialog open={open} title="Note" testId="note-dialog" onClose={onClose} action={{ label: 'Save', testId: 'note-dialog-save', onClick: save }} fullWidth maxWidth="sm">
      <TextField
        autoFocus
        multiline
        minRows={4}
        fullWidth
        value={note}
        onChange={(e) => setNote(e.target.value)}
        error={!!error}
        helperText={error}
        inputProps={{ 'data-testid': 'note-dialog-text', maxLength: 4000 }}
        sx={{ mt: 1 }}
      />
    </ActionDialog>
  );
}

/** The callback modal: one callback for every selected row (required). */
export function CallbackDialog({ open, options, onClose, onApply }: { open: boolean; options: number[]; onClose: () => void; onApply: (minutes: number) => void }) {
  const [minutes, setMinutes] = useState<number | null>(null);
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (open) {
      setMinutes(null);
      setError(undefined);
    }
  }, [open]);
  return (
    <ActionDialog
      open={open}
      title="Callback time"
      testId="callback-dialog"
      onClose={onClose}
      action={{ label: 'Apply', testId: 'callback-dialog-apply', onClick: () => (minutes ? onApply(minutes) : setError('Required')) }}
    >
      <DialogContentText sx={{ mb: 2 }}>Sets the callback of every selected patient.</DialogContentText>
      <FollowUpSelect value={minutes} options={options} onChange={setMinutes} error={error} testId="callback-dialog-minutes" />
    </ActionDialog>
  );
}

/** The no-answer modal: callback required (15 min by default); "left voicemail" switches to 1 h. */
export function NoAnswerDialog({
  open,
  options,
  onClose,
  onApply,
}: {
  open: boolean;
  options: number[];
  onClose: () => void;
  onApply: (result: 'NoAnswer' | 'LeftVoicemail', minutes: number) => void;
}) {
  const [voicemail, setVoicemail] = useState(false);
  const [minutes, setMinutes] = useState<number | null>(NO_ANSWER_DEFAULT_MINUTES);
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (open) {
      setVoicemail(false);
      setMinutes(NO_ANSWER_DEFAULT_MINUTES);
      setError(undefined);
    }
  }, [open]);
  return (
    <ActionDialog
      open={open}
      title="No answer"
      testId="no-answer-dialog"
      onClose={onClose}
      action={{
        label: 'Apply',
        testId: 'no-answer-apply',
        onClick: () => (minutes ? onApply(voicemail ? 'LeftVoicemail' : 'NoAnswer', minutes) : setError('Required')),
      }}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <FormControlLabel
          control={
            <Checkbox
              checked={voicemail}
              onChange={(e) => {
                setVoicemail(e.target.checked);
                setMinutes(e.target.checked ? LEFT_VOICEMAIL_DEFAULT_MINUTES : NO_ANSWER_DEFAULT_MINUTES);
              }}
              inputProps={{ 'data-testid': 'no-answer-left-voicemail' } as any}
            />
          }
          label="Left voicemail"
        />
        <FollowUpSelect value={minutes} options={options} onChange={setMinutes} error={error} testId="no-answer-minutes" />
      </Stack>
    </ActionDialog>
  );
}

export interface BulkValues {
  result: string;
  minutes: number;
  spokeWith: string;
  note: string;
}

/** The bulk-change modal: one result for the selected rows (callback required; sent with bulk: true). */
export function BulkDialog({ open, options, onClose, onApply }: { open: boolean; options: number[]; onClose: () => void; onApply: (v: BulkValues) => void }) {
  const [result, setResult] = useState('');
  const [minutes, setMinutes] = useState<number | null>(null);
  const [spokeWith, setSpokeWith] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    if (open) {
      setResult('');
      setMinutes(null);
      setSpokeWith('');
      setNote('');
      setErrors({});
    }
  }, [open]);
  const apply = () => {
    const e: Record<string, string> = {};
    if (!result) e.result = 'Required';
    if (!minutes) e.minutes = 'Required';
    if (!spokeWith.trim()) e.spokeWith = 'Required';
    setErrors(e);
    if (Object.keys(e).length) return;
    onApply({ result, minutes: minutes!, spokeWith: spokeWith.trim(), note: note.trim() });
  };
  return (
    <ActionDialog open={open} title="Bulk change" testId="bulk-dialog" onClose={onClose} action={{ label: 'Apply', testId: 'bulk-apply', onClick: apply }} fullWidth maxWidth="xs">
      <Stack spacing={2} sx={{ pt: 1 }}>
        <TextField
          select
          size="small"
          label="Result"
          value={result}
          onChange={(e) => {
            setResult(e.target.value);
            setMinutes(defaultFollowUpMinutes(e.target.value));
          }}
          error={!!errors.result}
          helperText={errors.result}
          SelectProps={{ SelectDisplayProps: { 'data-testid': 'bulk-result' } as any }}
        >
          {BULK_RESULTS.map((r) => (
            <MenuItem key={r} value={r}>
              {enumLabel(r)}
            </MenuItem>
          ))}
        </TextField>
        <FollowUpSelect value={minutes} options={options} onChange={setMinutes} error={errors.minutes} testId="bulk-minutes" />
        <TextField size="small" label="Spoke with" value={spokeWith} onChange={(e) => setSpokeWith(e.target.value)} error={!!errors.spokeWith} helperText={errors.spokeWith} inputProps={{ maxLength: 255 }} />
        <TextField size="small" label="Note" multiline minRows={2} value={note} onChange={(e) => setNote(e.target.value)} inputProps={{ maxLength: 4000 }} />
      </Stack>
    </ActionDialog>
  );
}

/** A plain message dialog (claim expired, case closed / reworked, leave blocked). */
export function MessageDialog({
  content,
  onClose,
  actions,
}: {
  content: { title: string; message: string } | null;
  onClose: () => void;
  actions?: React.ReactNode;
}) {
  return (
    <CommonMessageDialog
      content={content}
      onClose={onClose}
      testId="call-log-message"
      actions={
        actions ?? (
          <Button variant="contained" onClick={onClose} data-testid="call-log-message-ok">
            OK
          </Button>
        )
      }
    />
  );
}
