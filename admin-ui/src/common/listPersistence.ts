import { useEffect, useRef } from 'react';

/** Pages whose filters, paging and scroll position persist (spec 03 §2). */
export const PERSISTED_LIST_PAGES = ['activity', 'cases', 'facilities', 'past-cases', 'payers', 'users'] as const;
export type PersistedListPage = (typeof PERSISTED_LIST_PAGES)[number];

/** react-admin's store (localStorageStore('1', 'crisis')) keeps list params under this prefix. */
export const RA_STORE_APP_KEY = 'crisis';
const RA_STORE_PREFIX = `RaStore${RA_STORE_APP_KEY}.`;
const OWN_PREFIX = 'crisis.list.';

const ownKey = (page: PersistedListPage, what: string) => `${OWN_PREFIX}${page}.${what}`;

function removeWhere(test: (key: string) => boolean) {
  const keys: string[] = [];
  for (let i = 0; i < window.localStorage.length; i++) {
    const k = window.localStorage.key(i);
    if (k && test(k)) keys.push(k);
  }
  keys.forEach((k) => window.localStorage.removeItem(k));
}

/** Forget one page's list state, or all of them (sign-out, page unload). */
export function clearPersistedLists(page?: PersistedListPage) {
  const pages: readonly string[] = page ? [page] : PERSISTED_LIST_PAGES;
  removeWhere(
    (k) =>
      pages.some((p) => k.startsWith(`${OWN_PREFIX}${p}.`)) ||
      pages.some((p) => k.startsWith(`${RA_STORE_PREFIX}${p}.listParams`)),
  );
}

/** Clears list state when the page is unloaded (reload, close, navigation away from the app). */
export function installListCleanup() {
  window.addEventListener('pagehide', () => clearPersistedLists());
}

export function getLastVisited(page: PersistedListPage): string | null {
  return window.localStorage.getItem(ownKey(page, 'lastVisited'));
}

export function setLastVisited(page: PersistedListPage, id: string | number) {
  window.localStorage.setItem(ownKey(page, 'lastVisited'), String(id));
}

/** Saves the window scroll position when the list unmounts; restores it once the rows are shown. */
export function usePersistedScroll(page: PersistedListPage, ready: boolean) {
  const restored = useRef(false);
  useEffect(() => {
    if (!ready || restored.current) return;
    restored.current = true;
    const y = Number(window.localStorage.getItem(ownKey(page, 'scroll')) ?? 0);
    if (y > 0) requestAnimationFrame(() => window.scrollTo(0, y));
  }, [page, ready]);
  useEffect(() => {
    const save = () => window.localStorage.setItem(ownKey(page, 'scroll'), String(Math.round(window.scrollY)));
    let timer: number | undefined;
    const onScroll = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(save, 150);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener('scroll', onScroll);
    };
  }, [page]);
}
