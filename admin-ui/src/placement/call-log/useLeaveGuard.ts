import { useContext, useEffect, useRef } from 'react';
import { UNSAFE_NavigationContext } from 'react-router-dom';

type Navigator = { push: (...args: any[]) => void; replace: (...args: any[]) => void };

/**
 * Blocks leaving the page while `when` is true: in-app navigations (links, navigate()) are held
 * and handed to `onBlocked(proceed)`; closing or reloading the tab asks the browser's
 * beforeunload confirmation. react-router's useBlocker needs a data router; the app runs on a
 * <BrowserRouter>, so the guard wraps the router's navigator instead (same effect for in-app
 * links). `bypass.current = true` lets the page's own navigation through (after save/cancel).
 */
export function useLeaveGuard(when: boolean, onBlocked: (proceed: () => void) => void) {
  const { navigator } = useContext(UNSAFE_NavigationContext) as unknown as { navigator: Navigator };
  const bypass = useRef(false);
  const blockedHandler = useRef(onBlocked);
  blockedHandler.current = onBlocked;

  useEffect(() => {
    if (!when) return;
    const push = navigator.push;
    const replace = navigator.replace;
    const guard =
      (original: (...args: any[]) => void) =>
      (...args: any[]) => {
        if (bypass.current) return original.apply(navigator, args);
        blockedHandler.current(() => {
          bypass.current = true;
          original.apply(navigator, args);
        });
      };
    navigator.push = guard(push);
    navigator.replace = guard(replace);
    const beforeUnload = (e: BeforeUnloadEvent) => {
      if (bypass.current) return;
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', beforeUnload);
    return () => {
      navigator.push = push;
      navigator.replace = replace;
      window.removeEventListener('beforeunload', beforeUnload);
    };
  }, [when, navigator]);

  return bypass;
}
