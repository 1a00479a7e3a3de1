import { useState } from 'react';
import { Alert, Box, Button, Typography } from '@mui/material';
import { useCloseNotification } from 'react-admin';

export interface CodedErrorToastProps {
  message: string;
  code: string;
  defaultMessage: string;
  correlationId?: string;
}

/** The toast of a coded error (spec 03 §8): the message, and a see/hide details toggle. */
export function CodedErrorToast({ message, code, defaultMessage, correlationId }: CodedErrorToastProps) {
  const close = useCloseNotification();
  const [open, setOpen] = useState(false);
  return (
    <Alert
      severity="error"
      variant="filled"
      onClose={close}
      data-testid="error-toast"
      data-code={code}
      sx={{ minWidth: 320, maxWidth: 560, alignItems: 'flex-start' }}
      action={undefined}
    >
      <Typography variant="body2" data-testid="error-toast-message">
        {message}
      </Typography>
      {correlationId && (
        <>
          <Button
            size="small"
            color="inherit"
            variant="text"
            onClick={() => setOpen((v) => !v)}
            data-testid="error-toast-details-toggle"
            sx={{ px: 0, minWidth: 0, textDecoration: 'underline', textTransform: 'none' }}
          >
            {open ? 'hide details' : 'see details'}
          </Button>
          {open && (
            <Box data-testid="error-toast-details" sx={{ fontSize: 12, wordBreak: 'break-all' }}>
              <div>Correlation id: {correlationId}</div>
              {defaultMessage && <div>{defaultMessage}</div>}
            </Box>
          )}
        </>
      )}
    </Alert>
  );
}
