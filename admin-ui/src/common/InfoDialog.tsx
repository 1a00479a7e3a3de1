import { Button, List, ListItem } from '@mui/material';
import { MessageDialog, type Message } from './MessageDialog';

export interface InfoDialogContent extends Message {
  items: string[];
}

/** An informational dialog listing names (groups, patients, providers) that block an action. */
export function InfoDialog({ content, onClose }: { content: InfoDialogContent | null; onClose: () => void }) {
  return (
    <MessageDialog
      content={content}
      onClose={onClose}
      testId="info-dialog"
      actions={
        <Button onClick={onClose} variant="contained">
          OK
        </Button>
      }
    >
      <List dense>
        {content?.items.map((item, i) => (
          <ListItem key={i} data-testid="info-dialog-item">
            {item}
          </ListItem>
        ))}
      </List>
    </MessageDialog>
  );
}
