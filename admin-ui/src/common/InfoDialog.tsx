import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, List, ListItem } from '@mui/material';

export interface InfoDialogContent {
  title: string;
  message: string;
  items: string[];
}

/** An informational dialog listing names (groups, patients, providers) that block an action. */
export function InfoDialog({ content, onClose }: { content: InfoDialogContent | null; onClose: () => void }) {
  return (
    <Dialog open={!!content} onClose={onClose} data-testid="info-dialog">
      <DialogTitle>{content?.title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{content?.message}</DialogContentText>
        <List dense>
          {content?.items.map((item, i) => (
            <ListItem key={i} data-testid="info-dialog-item">
              {item}
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} variant="contained">
          OK
        </Button>
      </DialogActions>
    </Dialog>
  );
}
