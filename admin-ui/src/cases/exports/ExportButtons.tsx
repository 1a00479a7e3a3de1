import { useState } from 'react';
import { useNotify } from 'react-admin';
import { Button, CircularProgress } from '@mui/material';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import { useSession } from '../../auth/session';
import type { CaseDetails } from '../types';
import { exportUrls } from '../../data/methods/exports';
import { useAppData } from '../../data/query';

function PdfButton(props: { url: string; label: string; testId: string }) {
  const dp = useAppData();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const click = async () => {
    setBusy(true);
    try {
      await dp.downloadPdf(props.url);
    } catch (e) {
      notify((e as Error)?.message ?? 'Export failed', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="small" onClick={click} disabled={busy} startIcon={busy ? <CircularProgress size={14} /> : <PictureAsPdfIcon />} data-testid={props.testId}>
      {props.label}
    </Button>
  );
}

/** Summary PDF (spec 01 §6: ITP roles and facility admin). */
export function SummaryPdfButton({ caseRecord }: { caseRecord: Pick<CaseDetails, 'id'> }) {
  const { ability } = useSession();
  if (!ability.can('access', 'SummaryPdf')) return null;
  return <PdfButton url={exportUrls.summary(caseRecord.id)} label="Summary PDF" testId="summary-pdf" />;
}

/** The case notes as PDF (everyone who reads case notes). */
export function NotesPdfButton({ caseRecord }: { caseRecord: Pick<CaseDetails, 'id'> }) {
  const { ability } = useSession();
  if (!ability.can('read', 'CaseNote')) return null;
  return <PdfButton url={exportUrls.notes(caseRecord.id)} label="Notes PDF" testId="notes-pdf" />;
}
