import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Bootstrap } from './bootstrap/Bootstrap';
import { installListCleanup } from './common/listPersistence';

installListCleanup();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Bootstrap />
  </StrictMode>,
);
