import type { ReactNode } from 'react';
import { IconButton, Stack, Tooltip, Typography } from '@mui/material';

/** One "label: value" line of a case card; an empty value shows as a dash. */
export function InfoRow({ label, children, testId, labelWidth = 130 }: { label: string; children: ReactNode; testId?: string; labelWidth?: number }) {
  return (
    <Stack direction="row" spacing={1} sx={{ py: 0.25 }}>
      <Typography variant="body2" color="text.secondary" sx={{ minWidth: labelWidth }}>
        {label}
      </Typography>
      <Typography variant="body2" data-testid={testId}>
        {children || '—'}
      </Typography>
    </Stack>
  );
}

/** An icon button in a card's title, with its tooltip. */
export function TitleIconButton({ title, testId, onClick, icon }: { title: string; testId: string; onClick: () => void; icon: ReactNode }) {
  return (
    <Tooltip title={title}>
      <IconButton onClick={onClick} data-testid={testId}>
        {icon}
      </IconButton>
    </Tooltip>
  );
}

/** A one-line address: street, apartment, city, "state zip". */
export const addressLine = (a: { streetLine?: string | null; apartmentNumber?: string | null; city?: string | null; state?: string | null; zipCode?: string | null } | null | undefined) =>
  [a?.streetLine, a?.apartmentNumber, a?.city, [a?.state, a?.zipCode].filter(Boolean).join(' ')].filter(Boolean).join(', ');
