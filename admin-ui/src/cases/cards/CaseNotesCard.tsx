import { useState } from 'react';
import { Box, Chip, Divider, IconButton, Tooltip, Typography } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/Delete';
import VisibilityIcon from '@mui/icons-material/Visibility';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import { CaseStatus, type CaseNoteRow } from '@crisis/forms/core';
import { useSession } from '../../auth/session';
import { keys, useAppQuery } from '../../data/query';
import { ConfirmDialog, FormDialog, NoteField } from '../page/dialogs';
import type { CaseCardProps } from '../types';
import { CaseCard, useCardCommands } from './CaseCard';
import { authorName, when } from './records/recordFormat';
import { onSourceSide } from '../sourceSide';

/**
 * The case-notes card (spec 01 §2, §4 "Patient file and note visibility", §6): every staff role
 * reads; source-side staff and ITP add; each note says whether this user may edit / remove it
 * (facility authors for facility users, ITP authors for ITP staff, open case) or hide it (ITP
 * staff, ITP authors); hidden notes are greyed and only ITP staff get them.
 */
export function CaseNotesCard({ caseRecord, onChanged }: CaseCardProps) {
  const { ability, context } = useSession();
  const { data, error } = useAppQuery(keys.case(caseRecord.id, 'caseNotes'), (dp) => dp.caseNotes(caseRecord.id));
  // A refused change may mean the notes changed meanwhile: they are fetched again either way.
  const { run, submit: send, problems, setProblems, busy, dialog } = useCardCommands(caseRecord, onChanged, ['caseNotes'], { refreshOnError: true });
  const [editing, setEditing] = useState<{ note: CaseNoteRow | null; text: string; reason: string } | null>(null);
  const [removing, setRemoving] = useState<CaseNoteRow | null>(null);
  const closed = caseRecord.status === CaseStatus.Closed;
  const canAdd = !closed && ability.can('create', 'CaseNote') && onSourceSide(context, caseRecord);

  const submit = async () => {
    if (!editing) return;
    const payload = editing.note ? { note: editing.text, reason: editing.reason } : { note: editing.text };
    const note = editing.note;
    const ok = note
      ? await send('caseNote', payload, (dp) => dp.updateCaseNote(caseRecord.id, note.id, payload), 'Note edited')
      : await send('caseNote', payload, (dp) => dp.addCaseNote(caseRecord.id, payload), 'Note created');
    if (ok) setEditing(null);
  };

  return (
    <CaseCard
      title="Case notes"
      testId="case-notes-card"
      action={
        canAdd && {
          label: 'Add',
          testId: 'case-notes-add',
          onClick: () => {
            setProblems({});
            setEditing({ note: null, text: '', reason: '' });
          },
        }
      }
      error={error}
      empty={!!data && !data.length}
      emptyText="No case notes yet"
      dialogs={
        <>
          <FormDialog
            open={!!editing}
            title={editing?.note ? 'Edit case note' : 'Add case note'}
            testId="case-note-dialog"
            busy={busy}
            onClose={() => setEditing(null)}
            onSubmit={submit}
          >
            <NoteField
              label="Note"
              required
              value={editing?.text ?? ''}
              onChange={(text) => setEditing((e) => (e ? { ...e, text } : e))}
              error={problems.note}
              testId="case-note-text"
            />
            {editing?.note ? (
              <NoteField
                label="Reason for edit"
                value={editing.reason}
                onChange={(reason) => setEditing((e) => (e ? { ...e, reason } : e))}
                error={problems.reason}
                testId="case-note-reason"
              />
            ) : null}
          </FormDialog>
          <ConfirmDialog
            open={!!removing}
            title="Remove case note"
            message="Remove this note? This cannot be undone."
            confirmLabel="Remove"
            busy={busy}
            testId="case-note-remove-dialog"
            onClose={() => setRemoving(null)}
            onConfirm={async () => {
              const n = removing;
              if (n && (await run((dp) => dp.removeCaseNote(caseRecord.id, n.id), 'Note removed'))) setRemoving(null);
            }}
          />
          {dialog}
        </>
      }
    >
      {data?.map((n, i) => (
        <Box key={n.id} data-testid="case-note" data-hidden={n.hidden ? 'true' : 'false'} sx={{ opacity: n.hidden ? 0.5 : 1 }}>
          {i > 0 ? <Divider sx={{ my: 1 }} /> : null}
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <Typography variant="caption" color="text.secondary" sx={{ flex: 1 }}>
              {when(n.createdAt)} · {authorName(n.createdBy)}
              {n.modifiedAt && n.modifiedAt !== n.createdAt && n.kind === 'user' ? ` · edited ${when(n.modifiedAt)}` : ''}
            </Typography>
            {n.kind === 'evaluation' ? <Chip size="small" label="Evaluation" /> : null}
            {n.hidden ? <Chip size="small" label="Hidden" data-testid="case-note-hidden-chip" /> : null}
            {n.canHide ? (
              <Tooltip title={n.hidden ? 'Unhide' : 'Hide'}>
                <IconButton
                  size="small"
                  disabled={busy}
                  data-testid="case-note-toggle-hidden"
                  onClick={() => run((dp) => dp.setCaseNoteHidden(caseRecord.id, n.id, !n.hidden), n.hidden ? 'Note shown' : 'Note hidden')}
                >
                  {n.hidden ? <VisibilityIcon fontSize="small" /> : <VisibilityOffIcon fontSize="small" />}
                </IconButton>
              </Tooltip>
            ) : null}
            {n.canEdit ? (
              <>
                <Tooltip title="Edit">
                  <IconButton
                    size="small"
                    data-testid="case-note-edit"
                    onClick={() => {
                      setProblems({});
                      setEditing({ note: n, text: n.note, reason: '' });
                    }}
                  >
                    <EditIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
                <Tooltip title="Remove">
                  <IconButton size="small" data-testid="case-note-remove" onClick={() => setRemoving(n)}>
                    <DeleteIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              </>
            ) : null}
          </Box>
          <Typography sx={{ whiteSpace: 'pre-wrap' }}>{n.note}</Typography>
          {n.reason ? (
            <Typography variant="caption" color="text.secondary">
              Reason for edit: {n.reason}
            </Typography>
          ) : null}
        </Box>
      ))}
    </CaseCard>
  );
}
