import { useState } from 'react';
import { useNotify } from 'react-admin';
import { Box, Button, Card, CardContent, CardHeader, Divider, TextField, Typography } from '@mui/material';
import { CaseStatus } from '@crisis/forms';
import { useSession } from '../../auth/session';
import { FormDialog, NoteField, schemaProblems } from '../page/dialogs';
import { useCaseErrors } from '../page/useCaseErrors';
import type { CaseCardProps } from '../types';
import { authorName, localInputToIso, nowLocalInput, recordsApi, useRecords, when } from './records/recordsApi';

/** The progress-notes card (spec 01 §2, §5 Progress note): ITP admin, user and provider; list and an add modal. */
export function ProgressNotesCard({ caseRecord, onChanged }: CaseCardProps) {
  const { ability } = useSession();
  const notify = useNotify();
  const errors = useCaseErrors(onChanged);
  const canRead = ability.can('read', 'ProgressNote');
  const { data, error, reload } = useRecords(() => (canRead ? recordsApi.progressNotes(caseRecord.id) : Promise.resolve([])), [caseRecord.id, canRead]);
  const [form, setForm] = useState<{ note: string; submittedOn: string } | null>(null);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const canAdd = caseRecord.status !== CaseStatus.Closed && ability.can('create', 'ProgressNote');
  if (!canRead) return null;

  const submit = async () => {
    if (!form) return;
    const payload = { note: form.note, submittedOn: localInputToIso(form.submittedOn) };
    const found = schemaProblems('progressNote', payload);
    setProblems(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      await recordsApi.addProgressNote(caseRecord.id, payload);
      notify('Progress note created', { type: 'success' });
      setForm(null);
      reload();
    } catch (e) {
      const fields = errors.handle(e);
      if (fields) setProblems(fields);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card data-testid="progress-notes-card">
      <CardHeader
        title="Progress notes"
        action={
          canAdd ? (
            <Button
              onClick={() => {
                setProblems({});
                setForm({ note: '', submittedOn: nowLocalInput() });
              }}
              data-testid="progress-notes-add"
            >
              Add
            </Button>
          ) : null
        }
      />
      <CardContent>
        {error ? <Typography color="error">{error}</Typography> : null}
        {data && !data.length ? <Typography color="text.secondary">No progress notes yet</Typography> : null}
        {data?.map((n, i) => (
          <Box key={n.id} data-testid="progress-note">
            {i > 0 ? <Divider sx={{ my: 1 }} /> : null}
            <Typography variant="caption" color="text.secondary">
              {when(n.submittedOn)} · {authorName(n.createdBy)}
            </Typography>
            <Typography sx={{ whiteSpace: 'pre-wrap' }}>{n.note}</Typography>
          </Box>
        ))}
      </CardContent>
      <FormDialog open={!!form} title="Add progress note" testId="progress-note-dialog" busy={busy} onClose={() => setForm(null)} onSubmit={submit}>
        <TextField
          label="Submitted on"
          type="datetime-local"
          required
          value={form?.submittedOn ?? ''}
          onChange={(e) => setForm((f) => (f ? { ...f, submittedOn: e.target.value } : f))}
          error={!!problems.submittedOn}
          helperText={problems.submittedOn}
          InputLabelProps={{ shrink: true }}
          inputProps={{ 'data-testid': 'progress-note-submittedOn', max: nowLocalInput() }}
          size="small"
        />
        <NoteField
          label="Note"
          required
          value={form?.note ?? ''}
          onChange={(note) => setForm((f) => (f ? { ...f, note } : f))}
          error={problems.note}
          testId="progress-note-note"
        />
      </FormDialog>
      {errors.dialog}
    </Card>
  );
}
