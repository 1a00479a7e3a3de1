import type { ReactNode } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, type DialogProps } from '@mui/material';

/** The primary button of a dialog (Save, Apply, Add…). */
export interface DialogAction {
  label: string;
  testId: string;
  onClick: () => void;
  disabled?: boolean;
}

/**
 * A simple dialog with its own fields: the title, the content, Cancel and one primary button.
 * The caller keeps the field state and checks it in `action.onClick`.
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
  children: ReactNode;
}) {
  return (
    <Dialog open={open} onClose={onClose} maxWidth={maxWidth} fullWidth={fullWidth} data-testid={testId}>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent dividers={dividers}>{children}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={action.onClick} disabled={action.disabled} data-testid={action.testId}>
          {action.label}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
