import type { ReactNode } from 'react';
import { Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, type DialogProps, type SxProps } from '@mui/material';

/** The primary button of a dialog (Save, Apply, Add…). */
export interface DialogAction {
  label: string;
  testId: string;
  onClick: () => void;
  disabled?: boolean;
}

/**
 * A simple dialog with its own fields: the title, the content, Cancel and one primary button.
 * The caller keeps the field state and checks it in `action.onClick`; while `busy` the dialog
 * stays open and the primary button shows a spinner.
 */
export function ActionDialog({
  open = true,
  title,
  testId,
  onClose,
  action,
  maxWidth,
  fullWidth,
  dividers,
  contentSx,
  cancelTestId,
  busy = false,
  children,
}: {
  open?: boolean;
  title: ReactNode;
  testId: string;
  onClose: () => void;
  action: DialogAction;
  maxWidth?: DialogProps['maxWidth'];
  fullWidth?: boolean;
  dividers?: boolean;
  contentSx?: SxProps;
  cancelTestId?: string;
  busy?: boolean;
  children: ReactNode;
}) {
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} maxWidth={maxWidth} fullWidth={fullWidth} data-testid={testId}>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent dividers={dividers} sx={contentSx}>
        {children}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy} data-testid={cancelTestId}>
          Cancel
        </Button>
        <Button
          variant="contained"
          onClick={action.onClick}
          disabled={action.disabled || busy}
          data-testid={action.testId}
          startIcon={busy ? <CircularProgress size={16} /> : undefined}
        >
          {action.label}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
