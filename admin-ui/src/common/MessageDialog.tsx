import type { ReactNode } from 'react';
import { Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';

/** What a message dialog says. */
export interface Message {
  title: string;
  message: ReactNode;
}

/**
 * The shell of every small message dialog (confirmations, blocked actions, warnings): open while
 * there is `content`, its title and text, anything below the text, and the buttons.
 */
export function MessageDialog({
  content,
  onClose,
  testId,
  actions,
  children,
}: {
  content: Message | null;
  /** Undefined while the dialog must stay open (a command under way). */
  onClose: (() => void) | undefined;
  testId: string;
  actions: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Dialog open={!!content} onClose={onClose} data-testid={testId}>
      <DialogTitle>{content?.title}</DialogTitle>
      <DialogContent>
        <DialogContentText component="div">{content?.message}</DialogContentText>
        {children}
      </DialogContent>
      <DialogActions>{actions}</DialogActions>
    </Dialog>
  );
}
