import { useState } from 'react';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Link, List, ListItem, Typography } from '@mui/material';
import { useNotify, useRefresh } from 'react-admin';
import { MUST_BE_CSV, USER_IMPORT_COLUMNS, USER_IMPORT_MAX_ROWS, UPLOAD_MAX_BYTES, EMPTY_FILE, FILE_TOO_BIG } from '@crisis/forms/core';
import { importApi } from './uploads';

type Phase = 'idle' | 'validating' | 'validated' | 'importing';

/** A client-side first check (the server checks again, by content). */
function fileProblem(file: File): string | null {
  if (!/\.csv$/i.test(file.name)) return MUST_BE_CSV;
  if (file.size === 0) return EMPTY_FILE;
  if (file.size > UPLOAD_MAX_BYTES) return FILE_TOO_BIG;
  return null;
}

/**
 * The CSV import dialog of /users (spec 03 §2, §5 User import): template download, validation
 * listing each problem by row, and Import enabled only after a validation found no errors.
 */
export function UserImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const notify = useNotify();
  const refresh = useRefresh();
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<Phase>('idle');
  const [errors, setErrors] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);

  const reset = () => {
    setFile(null);
    setPhase('idle');
    setErrors([]);
    setProblem(null);
  };
  const close = () => {
    reset();
    onClose();
  };
  const choose = (f: File | null) => {
    setFile(f);
    setErrors([]);
    setPhase('idle');
    setProblem(f ? fileProblem(f) : null);
  };
  const runValidation = async () => {
    if (!file) return setProblem('This field is required');
    setPhase('validating');
    try {
      const found = await importApi.validate(file);
      setErrors(found);
      setPhase(found.length ? 'idle' : 'validated');
    } catch (e: any) {
      setProblem(e?.message ?? 'Validation failed');
      setPhase('idle');
    }
  };
  const runImport = async () => {
    if (!file || phase !== 'validated') return;
    setPhase('importing');
    try {
      const { imported } = await importApi.import(file);
      notify(`${imported} user(s) imported and invited`, { type: 'success' });
      refresh();
      close();
    } catch (e: any) {
      setErrors(Array.isArray(e?.payload) ? e.payload : []);
      setProblem(e?.message ?? 'Import failed');
      setPhase('idle');
    }
  };

  return (
    <Dialog open={open} onClose={close} maxWidth="sm" fullWidth data-testid="users-import-dialog">
      <DialogTitle>Import users</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <Typography variant="body2">
          A CSV file with the columns {USER_IMPORT_COLUMNS.join(', ')} (organization is the facility or group name; divisions are
          semicolon-separated names), at most {USER_IMPORT_MAX_ROWS} rows.{' '}
          <Link
            component="button"
            type="button"
            onClick={() => importApi.downloadTemplate().catch((e) => notify(e?.message ?? 'Incorrect response', { type: 'error' }))}
            data-testid="users-import-template"
          >
            Download the template
          </Link>
        </Typography>
        <Box>
          <Button variant="outlined" component="label">
            Choose file
            <input
              hidden
              type="file"
              accept=".csv,text/csv"
              data-testid="users-import-file"
              onChange={(e) => {
                choose(e.target.files?.[0] ?? null);
                e.target.value = '';
              }}
            />
          </Button>
          <Typography component="span" sx={{ ml: 2 }} data-testid="users-import-file-name">
            {file?.name ?? 'No file chosen'}
          </Typography>
        </Box>
        {problem && (
          <Alert severity="error" data-testid="users-import-problem">
            {problem}
          </Alert>
        )}
        {phase === 'validated' && (
          <Alert severity="success" data-testid="users-import-valid">
            The file is valid: it can be imported.
          </Alert>
        )}
        {errors.length > 0 && (
          <Alert severity="error" data-testid="users-import-errors">
            <List dense disablePadding>
              {errors.map((e) => (
                <ListItem key={e} disableGutters data-testid="users-import-error">
                  {e}
                </ListItem>
              ))}
            </List>
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Cancel</Button>
        <Button onClick={runValidation} disabled={!file || !!problem || phase === 'validating' || phase === 'importing'} data-testid="users-import-validate">
          Validate
        </Button>
        <Button variant="contained" onClick={runImport} disabled={phase !== 'validated'} data-testid="users-import-submit">
          Import
        </Button>
      </DialogActions>
    </Dialog>
  );
}
