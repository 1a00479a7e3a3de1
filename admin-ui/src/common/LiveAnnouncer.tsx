import { useEffect, useState } from 'react';
import { Box } from '@mui/material';
import { visuallyHidden } from '@mui/utils';

/**
 * One polite live region for what changes by itself (a new notification, the calls card updated
 * live, a division claimed by someone else): always in the page, so that a screen reader hears
 * each text `announce` puts in it. The text stays until the next one.
 */
type Listener = (text: string) => void;
const listeners = new Set<Listener>();

/** Says `text` through the live region (politely: after what the screen reader is reading). */
export function announce(text: string) {
  const t = text.trim();
  if (!t) return;
  listeners.forEach((l) => l(t));
}

export function LiveAnnouncer() {
  const [text, setText] = useState('');
  useEffect(() => {
    let timer: number | undefined;
    const listener: Listener = (t) => {
      // Emptied first, so that the same text said twice is heard twice.
      setText('');
      window.clearTimeout(timer);
      timer = window.setTimeout(() => setText(t), 100);
    };
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      window.clearTimeout(timer);
    };
  }, []);
  return (
    // Hidden from sight (MUI's visuallyHidden), not from screen readers.
    <Box role="status" aria-live="polite" aria-atomic="true" data-testid="live-announcer" sx={visuallyHidden}>
      {text}
    </Box>
  );
}
