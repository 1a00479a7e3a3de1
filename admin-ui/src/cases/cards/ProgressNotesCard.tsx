import { useState } from 'react';
import { Box, Divider, TextField, Typography } from '@mui/material';
import { CaseStatus } from '@crisis/forms/core';
import { useSession } from '../../auth/session';
import { keys, useAppQuery } from '../../data/query';
import { FormDialog, NoteField } from '../page/dialogs';
import type { CaseCardProps } from '../types';
import { CaseCard, useCardCommands } from './CaseCard';
import { authorName, localInputToIso, nowLocalInput, when } from './records/recordFormat';

/** The progress-notes card (spec 01 §2, §5 Progress note): ITP admin, user and provider; list and an add modal. */
export function ProgressNotesCard({ caseRecord, onChanged }: CaseCardProps) {
  const { ability } = useSession();
  const canRead = ability.can('read', 'ProgressNote');
  const { data, error } = useAppQuery(keys.case(caseRecord.id, 'progressNotes'), (dp) => dp.progressNotes(caseRecord.id), { enabled: canRead });
  const { submit: send, problems, setProblems, busy, dialog } = useCardCommands(caseRecord, onChanged, ['progressNotes']);
  const [form, setForm] = useState<{ note: string; submittedOn: string } | null>(null);
  const canAdd = caseRecord.status !== CaseStatus.Closed && ability.can('create', 'ProgressNote');
  if (!canRead) return null;

  const submit = async () => {
    if (!form) return;
    const payload = { note: form.note, submittedOn: localInputToIso(form.submittedOn) };
    if (await send('progressNote', payload, (dp) => dp.addProgressNote(caseRecord.id, payload), 'Progress note created')) setForm(null);
  };
  const open = () => {
    setProblems({});
    setForm({ note: '', submittedOn: nowLocalInput() });
  };

  return (
    <CaseCard
      title="Progress notes"
      testId="progress-notes-card"
      action={canAdd && { label: 'Add', testId: 'progress-notes-add', onClick: open }}
      error={error}
      empty={!!data && !data.length}
      emptyText="No progress notes yet"
      dialogs={
        <>
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
          {dialog}
        </>
      }
    >
      {data?.map((n, i) => (
        <Box key={n.id} data-testid="progress-note">
          {i > 0 ? <Divider sx={{ my: 1 }} /> : null}
          <Typography variant="caption" color="text.secondary">
            {when(n.submittedOn)} · {authorName(n.createdBy)}
          </Typography>
          <Typography sx={{ whiteSpace: 'pre-wrap' }}>{n.note}</Typography>
        </Box>
      ))}
    </CaseCard>
  );
}
