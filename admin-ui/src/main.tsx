import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Bootstrap } from './bootstrap/Bootstrap';
import { installListCleanup } from './common/listPersistence';

installListCleanup();

// A page opened before a new version was deployed asks for chunks that are gone: load the new
// version instead of a broken page (at most once a minute, so a real outage cannot loop).
window.addEventListener('vite:preloadError', (event) => {
  const last = Number(sessionStorage.getItem('chunk-reload-at') ?? 0);
  if (Date.now() - last < 60_000) return;
  event.preventDefault();
  sessionStorage.setItem('chunk-reload-at', String(Date.now()));
  window.location.reload();
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Bootstrap />
  </StrictMode>,
);
