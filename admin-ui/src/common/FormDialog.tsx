import type { ReactNode } from 'react';
import { Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, type DialogProps } from '@mui/material';
import { Form, type FormProps } from 'react-admin';
import { useFormState } from 'react-hook-form';

function SaveButtons({ onClose, testId }: { onClose: () => void; testId: string }) {
  const { isSubmitting } = useFormState();
  return (
    <DialogActions>
      <Button onClick={onClose} data-testid={`${testId}-cancel`}>
        Cancel
      </Button>
      <Button type="submit" variant="contained" disabled={isSubmitting} data-testid={`${testId}-save`}>
        Save
      </Button>
    </DialogActions>
  );
}

/**
 * The create/edit modal of a react-admin form: title, a spinner until the record is there, the
 * fields, Cancel and Save (`${testId}-cancel`, `${testId}-save`; the dialog `${testId}-dialog`
 * unless `dialogTestId` says otherwise), and any dialogs of its own after the form.
 */
export function FormDialog({
  title,
  testId,
  dialogTestId,
  maxWidth = 'sm',
  loading = false,
  form,
  onClose,
  children,
  dialogs,
}: {
  title: ReactNode;
  testId: string;
  dialogTestId?: string;
  maxWidth?: DialogProps['maxWidth'];
  loading?: boolean;
  /** The react-admin form's props: record, onSubmit, validate, mode… */
  form: Omit<FormProps, 'children'>;
  onClose: () => void;
  children: ReactNode;
  dialogs?: ReactNode;
}) {
  return (
    <Dialog open onClose={onClose} maxWidth={maxWidth} fullWidth data-testid={dialogTestId ?? `${testId}-dialog`}>
      <DialogTitle>{title}</DialogTitle>
      {loading ? (
        <DialogContent>
          <CircularProgress />
        </DialogContent>
      ) : (
        <Form {...form}>
          <DialogContent dividers>{children}</DialogContent>
          <SaveButtons onClose={onClose} testId={testId} />
        </Form>
      )}
      {dialogs}
    </Dialog>
  );
}

/** The validation mode of the modals: errors once a field is left, then on every change. */
export const ON_TOUCHED = { mode: 'onTouched', reValidateMode: 'onChange' } as const;
