import { useEffect, useMemo, useState } from 'react';
import { useNotify } from 'react-admin';
import {
  Box,
  Button,
  Checkbox,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  Switch,
  Typography,
} from '@mui/material';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import { AT_LEAST_ONE_CHECKBOX_MESSAGE } from '@crisis/forms/core';
import { useSession } from '../../auth/session';
import { schemaProblems } from '../page/dialogs';
import type { CaseDetails } from '../types';
import type { PatientFileRow } from '@crisis/forms/core';
import { casePdfUrl } from '../../data/methods/exports';
import { useAppData } from '../../data/query';

export interface ExportPdfDialogProps {
  caseRecord: Pick<CaseDetails, 'id'>;
  open: boolean;
  onClose: () => void;
}

/**
 * Export to PDF (spec 01 §2 modal, §5 "Export to PDF"): evaluations, case notes and patient files
 * checkboxes, at least one ticked ('Please check at least one checkbox'); with patient files, an
 * all-files toggle and the individual files, kept in sync. Downloads GET /api/cases/{id}/pdf.
 */
export function ExportPdfDialog({ caseRecord, open, onClose }: ExportPdfDialogProps) {
  const { ability } = useSession();
  const notify = useNotify();
  const canFiles = ability.can('read', 'PatientFile');
  const canNotes = ability.can('read', 'CaseNote');
  const [includeEvaluations, setEvaluations] = useState(false);
  const [includeCaseNotes, setNotes] = useState(false);
  const [includePatientFiles, setFiles] = useState(false);
  const [files, setFileList] = useState<PatientFileRow[] | null>(null);
  const dp = useAppData();
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setEvaluations(false);
    setNotes(false);
    setFiles(false);
    setProblem(null);
    setFileList(null);
    if (!canFiles) return;
    let live = true;
    // The file list is optional: without it the dialog offers the all-files toggle only.
    dp.patientFiles(caseRecord.id)
      .then((list) => {
        if (!live) return;
        setFileList(list);
        setSelected(new Set(list.map((f) => f.id)));
      })
      .catch(() => live && setFileList([]));
    return () => {
      live = false;
    };
  }, [open, caseRecord.id, canFiles, dp]);

  const allFiles = files === null || files.length === 0 || selected.size === files.length;
  const toggleAll = (on: boolean) => setSelected(new Set(on && files ? files.map((f) => f.id) : []));
  const toggleFile = (id: number, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const payload = useMemo(
    () => ({
      includeEvaluations,
      includeCaseNotes,
      includePatientFiles: includePatientFiles && (files === null || files.length === 0 || selected.size > 0),
      fileIds: includePatientFiles && files && files.length && !allFiles ? [...selected] : null,
    }),
    [includeEvaluations, includeCaseNotes, includePatientFiles, files, selected, allFiles],
  );

  const submit = async () => {
    const found = await schemaProblems('casePdfExport', payload);
    const message = Object.values(found)[0] ?? null;
    setProblem(message);
    if (message) return;
    setBusy(true);
    try {
      await dp.downloadPdf(casePdfUrl(caseRecord.id, payload));
      onClose();
    } catch (e) {
      notify((e as Error)?.message ?? 'Export failed', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const tick = (set: (v: boolean) => void) => (_: unknown, v: boolean) => {
    set(v);
    setProblem(null);
  };

  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} fullWidth maxWidth="xs" data-testid="export-pdf-dialog">
      <DialogTitle>Export to PDF</DialogTitle>
      <DialogContent>
        <FormGroup>
          <FormControlLabel
            control={<Checkbox checked={includeEvaluations} onChange={tick(setEvaluations)} data-testid="export-pdf-evaluations" />}
            label="Evaluations"
          />
          {canNotes && (
            <FormControlLabel
              control={<Checkbox checked={includeCaseNotes} onChange={tick(setNotes)} data-testid="export-pdf-case-notes" />}
              label="Case notes"
            />
          )}
          {canFiles && (
            <FormControlLabel
              control={<Checkbox checked={includePatientFiles} onChange={tick(setFiles)} data-testid="export-pdf-patient-files" />}
              label="Patient files"
            />
          )}
        </FormGroup>
        {problem && (
          <FormHelperText error data-testid="export-pdf-error">
            {problem === AT_LEAST_ONE_CHECKBOX_MESSAGE ? AT_LEAST_ONE_CHECKBOX_MESSAGE : problem}
          </FormHelperText>
        )}
        {canFiles && includePatientFiles && (
          <Box sx={{ pl: 3, mt: 1 }} data-testid="export-pdf-files">
            <FormControlLabel
              control={<Switch checked={allFiles} onChange={(_, v) => toggleAll(v)} disabled={!files || files.length === 0} data-testid="export-pdf-all-files" />}
              label="All files"
            />
            {files === null && <CircularProgress size={16} />}
            {files && files.length === 0 && (
              <Typography variant="body2" color="text.secondary">
                No patient files
              </Typography>
            )}
            {files?.map((f) => (
              <FormControlLabel
                key={f.id}
                sx={{ display: 'flex' }}
                control={<Checkbox size="small" checked={selected.has(f.id)} onChange={(_, v) => toggleFile(f.id, v)} data-testid={`export-pdf-file-${f.id}`} />}
                label={f.hidden ? `${f.title} (hidden)` : f.title}
              />
            ))}
            {files && files.length > 0 && selected.size === 0 && (
              <FormHelperText>No file selected: patient files will be left out.</FormHelperText>
            )}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button variant="contained" onClick={submit} disabled={busy} startIcon={busy ? <CircularProgress size={16} /> : <PictureAsPdfIcon />} data-testid="export-pdf-submit">
          Export
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** A button that opens the export dialog (every role that reads the case). */
export function ExportPdfButton({ caseRecord }: { caseRecord: Pick<CaseDetails, 'id'> }) {
  const { ability } = useSession();
  const [open, setOpen] = useState(false);
  if (!ability.can('read', 'CaseReport')) return null;
  return (
    <>
      <Button size="small" startIcon={<PictureAsPdfIcon />} onClick={() => setOpen(true)} data-testid="export-pdf-open">
        Export to PDF
      </Button>
      <ExportPdfDialog caseRecord={caseRecord} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
