import { useRef, useState } from 'react';
import {
  Box,
  Button,
  Chip,
  IconButton,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import VisibilityIcon from '@mui/icons-material/Visibility';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import { CaseStatus, EMPTY_FILE, FILE_TOO_BIG, PATIENT_FILE_MAX_BYTES, PDF_ONLY_MESSAGE, fileTitleFromName, type PatientFileRow } from '@crisis/forms/core';
import { useSession } from '../../auth/session';
import { keys, useAppData, useAppQuery } from '../../data/query';
import { ConfirmDialog, FormDialog, NoteField, schemaProblems } from '../page/dialogs';
import { SimpleTable } from '../../common/SimpleTable';
import type { CaseCardProps } from '../types';
import { CaseCard, useCardCommands } from './CaseCard';
import { authorName, when } from './records/recordFormat';

interface FormState {
  file: PatientFileRow | null;
  upload: File | null;
  title: string;
  note: string;
}

/** What the browser can tell before sending: empty, too large, not a PDF by name or type (the server checks the content). */
function fileProblem(f: File | null): string | null {
  if (!f) return 'This field is required';
  if (f.size === 0) return EMPTY_FILE;
  if (f.size > PATIENT_FILE_MAX_BYTES) return FILE_TOO_BIG;
  if (f.type && f.type !== 'application/pdf' && !/\.pdf$/i.test(f.name)) return PDF_ONLY_MESSAGE;
  return null;
}

/**
 * The patient-files card (spec 01 §2, §3 Patient file, §5 Patient files): upload (PDF, up to
 * 100 MB, title prefilled from the file name), list with title, note tooltip, submitted time
 * and submitter, download, edit of title and note, hide / unhide for ITP staff; read-only when closed.
 */
export function FilesCard({ caseRecord, onChanged }: CaseCardProps) {
  const { ability } = useSession();
  const dp = useAppData();
  const { data, error } = useAppQuery(keys.case(caseRecord.id, 'files'), (d) => d.patientFiles(caseRecord.id));
  const { run, problems, setProblems, busy, handle, dialog } = useCardCommands(caseRecord, onChanged, ['files']);
  const [form, setForm] = useState<FormState | null>(null);
  const [removing, setRemoving] = useState<PatientFileRow | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const closed = caseRecord.status === CaseStatus.Closed;
  const canUpload = !closed && ability.can('create', 'PatientFile');
  const canHide = !closed && ability.can('update', 'HiddenPatientFile');

  const pick = (f: File | null) => {
    setForm((s) => (s ? { ...s, upload: f, title: s.title || (f ? fileTitleFromName(f.name) : '') } : s));
    setProblems((p) => ({ ...p, file: fileProblem(f) ?? '' }));
  };

  const submit = async () => {
    if (!form) return;
    const found = await schemaProblems('patientFileMeta', { title: form.title, note: form.note });
    if (!form.file) {
      const p = fileProblem(form.upload);
      if (p) found.file = p;
    }
    setProblems(found);
    if (Object.values(found).some(Boolean)) return;
    const ok = form.file
      ? await run((d) => d.updatePatientFile(caseRecord.id, form.file!.id, { title: form.title, note: form.note || null }), 'File updated')
      : await run((d) => d.uploadPatientFile(caseRecord.id, form.upload!, form.title, form.note || null), 'File uploaded');
    if (ok) setForm(null);
  };

  const download = async (f: PatientFileRow) => {
    try {
      await dp.downloadPatientFile(caseRecord.id, f);
    } catch (e) {
      handle(e);
    }
  };

  return (
    <CaseCard
      title="Files"
      testId="files-card"
      action={
        canUpload && {
          label: 'Upload',
          testId: 'files-upload',
          onClick: () => {
            setProblems({});
            setForm({ file: null, upload: null, title: '', note: '' });
          },
        }
      }
      error={error}
      empty={!!data && !data.length}
      emptyText="No files yet"
      dialogs={
        <>
          <FormDialog
            open={!!form}
            title={form?.file ? 'Edit file' : 'Upload file'}
            submitLabel={form?.file ? 'Save' : 'Upload'}
            testId="file-dialog"
            busy={busy}
            onClose={() => setForm(null)}
            onSubmit={submit}
          >
            {form && !form.file ? (
              <Box>
                <input
                  ref={input}
                  type="file"
                  accept="application/pdf,.pdf"
                  hidden
                  data-testid="file-input"
                  onChange={(e) => pick(e.target.files?.[0] ?? null)}
                />
                <Button variant="outlined" onClick={() => input.current?.click()} data-testid="file-choose">
                  Choose a PDF
                </Button>
                <Typography component="span" sx={{ ml: 1 }}>
                  {form.upload?.name ?? 'No file chosen'}
                </Typography>
                {problems.file ? (
                  <Typography color="error" variant="caption" display="block" data-testid="file-error">
                    {problems.file}
                  </Typography>
                ) : null}
              </Box>
            ) : null}
            <TextField
              label="Title"
              required
              value={form?.title ?? ''}
              onChange={(e) => setForm((s) => (s ? { ...s, title: e.target.value } : s))}
              error={!!problems.title}
              helperText={problems.title}
              inputProps={{ 'data-testid': 'file-title', maxLength: 255 }}
              size="small"
            />
            <NoteField label="Note" value={form?.note ?? ''} onChange={(note) => setForm((s) => (s ? { ...s, note } : s))} error={problems.note} testId="file-note-input" />
          </FormDialog>
          {dialog}
          <ConfirmDialog
            open={!!removing}
            title="Remove file"
            message={`Remove the file ${removing?.title ?? ''}? This cannot be undone.`}
            confirmLabel="Remove"
            busy={busy}
            testId="file-remove-dialog"
            onClose={() => setRemoving(null)}
            onConfirm={async () => {
              const f = removing;
              if (f && (await run((d) => d.removePatientFile(caseRecord.id, f.id), 'File removed'))) setRemoving(null);
            }}
          />
        </>
      }
    >
      {data?.length ? (
        <Box sx={{ overflowX: 'auto' }}>
          <SimpleTable<PatientFileRow>
            testId="files-table"
            columns={[
              {
                label: 'Title',
                render: (f) => (
                  <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
                    <span>{f.title}</span>
                    {f.note ? (
                      <Tooltip title={<span style={{ whiteSpace: 'pre-wrap' }}>{f.note}</span>}>
                        <InfoOutlinedIcon fontSize="small" color="action" data-testid="file-note" />
                      </Tooltip>
                    ) : null}
                    {f.hidden ? <Chip size="small" label="Hidden" /> : null}
                  </Box>
                ),
              },
              { label: 'Submitted', render: (f) => when(f.submittedOn) },
              { label: 'Submitted by', render: (f) => authorName(f.submittedBy) },
              {
                label: 'Actions',
                align: 'right',
                cell: { sx: { whiteSpace: 'nowrap' } },
                render: (f) => (
                  <>
                    <Tooltip title={`Download ${f.fileName}`}>
                      <IconButton size="small" onClick={() => download(f)} data-testid="file-download">
                        <DownloadIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    {/* Facility staff edit and remove only the files they submitted (the server says which, per file). */}
                    {f.canEdit ? (
                      <Tooltip title="Edit title and note">
                        <IconButton
                          size="small"
                          data-testid="file-edit"
                          onClick={() => {
                            setProblems({});
                            setForm({ file: f, upload: null, title: f.title, note: f.note ?? '' });
                          }}
                        >
                          <EditIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    ) : null}
                    {f.canDelete ? (
                      <Tooltip title="Remove">
                        <IconButton size="small" disabled={busy} data-testid="file-remove" onClick={() => setRemoving(f)}>
                          <DeleteIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    ) : null}
                    {canHide && f.canHide ? (
                      <Tooltip title={f.hidden ? 'Unhide' : 'Hide'}>
                        <IconButton
                          size="small"
                          disabled={busy}
                          data-testid="file-toggle-hidden"
                          onClick={() => run((d) => d.setPatientFileHidden(caseRecord.id, f.id, !f.hidden), f.hidden ? 'File shown' : 'File hidden')}
                        >
                          {f.hidden ? <VisibilityIcon fontSize="small" /> : <VisibilityOffIcon fontSize="small" />}
                        </IconButton>
                      </Tooltip>
                    ) : null}
                  </>
                ),
              },
            ]}
            rows={data}
            rowKey={(f) => f.id}
            rowProps={(f) => ({ 'data-testid': 'file-row', 'data-hidden': f.hidden ? 'true' : 'false', sx: { opacity: f.hidden ? 0.5 : 1 } })}
          />
        </Box>
      ) : null}
    </CaseCard>
  );
}
