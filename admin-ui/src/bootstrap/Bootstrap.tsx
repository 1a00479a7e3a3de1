import { Suspense, lazy, useCallback, useEffect, useRef, useState } from 'react';
import type { AppSettings, UserContext } from '@crisis/forms/core';
import { SessionReloadContext, startSession, type Session } from '../auth/session';
import { BLANK_PATH, SIGNED_OUT_PATH, followSignOutOfOtherTabs } from '../auth/signedOut';
import { AUTH_CALLBACK_PATH, createUserManager, getValidUser, signIn, type SignInState } from '../auth/userManager';
import { isCodedError } from '../data/codedError';
import { api } from '../data/httpClient';
import { startLiveConnection } from '../live/liveConnection';
import { App, preloadPage } from '../App';
import { BootScreen } from './BootScreen';
import { loadSettings } from './settings';

/** The demo outbox before sign-in: only demo deployments open it, so it loads when shown. */
const PublicDemoTools = lazy(() => import('../demo-tools/PublicDemoTools').then((m) => ({ default: m.PublicDemoTools })));

type Phase =
  | { kind: 'loading'; message: string }
  | { kind: 'error'; message: string; action: 'retry' | 'signIn' }
  | { kind: 'public'; settings: AppSettings }
  | { kind: 'signedOut' }
  | { kind: 'blank' }
  | { kind: 'ready'; session: Session };

/** Completes the identity server's redirect back to /auth-callback and returns to where the user was. */
async function completeSignIn(settings: AppSettings) {
  const user = await createUserManager(settings).signinRedirectCallback();
  const returnTo = (user.state as SignInState | undefined)?.returnTo ?? '/';
  window.history.replaceState(null, '', returnTo.startsWith(AUTH_CALLBACK_PATH) ? '/' : returnTo);
}

/** Leaves for the identity server; the returned promise only settles if that fails. */
async function redirectToSignIn(): Promise<Phase> {
  try {
    await signIn();
  } catch (e) {
    return { kind: 'error', message: `The sign-in service cannot be reached: ${(e as Error).message}`, action: 'retry' };
  }
  return new Promise<Phase>(() => undefined);
}

/**
 * A step of the start-up as a User Timing mark ("boot:settings", …): the browser's performance
 * tools, and the browser benchmark (tests/bench/browser.ts), show where a page load's time goes.
 */
const markBoot = (step: string) => performance.mark(`boot:${step}`);

/**
 * Start-up order of spec 03 §2: application settings, then authentication, then the user context
 * (with an id), then the live connection; only then is the app rendered.
 */
async function boot(progress: (message: string) => void): Promise<Phase> {
  // The blank page asks nothing of anyone: no settings, no sign-in.
  if (window.location.pathname === BLANK_PATH) return { kind: 'blank' };
  markBoot('scripts-run');
  preloadPage(window.location.pathname);
  let settings: AppSettings;
  try {
    settings = await loadSettings();
  } catch (e) {
    return { kind: 'error', message: (e as Error).message, action: 'retry' };
  }
  markBoot('settings');
  document.title = settings.productName;
  createUserManager(settings);
  if (window.location.pathname === AUTH_CALLBACK_PATH) {
    progress('Signing in…');
    try {
      await completeSignIn(settings);
    } catch (e) {
      window.history.replaceState(null, '', '/');
      return { kind: 'error', message: `Sign-in did not complete: ${(e as Error).message}`, action: 'signIn' };
    }
  }
  const user = await getValidUser();
  markBoot('signed-in');
  if (window.location.pathname === SIGNED_OUT_PATH) {
    if (!user) return { kind: 'signedOut' };
    window.history.replaceState(null, '', '/dashboard');
  }
  if (!user) {
    // The demo outbox must be readable while signing in (to read an MFA code).
    if (settings.demoTools && window.location.pathname === '/demo-tools') return { kind: 'public', settings };
    progress('Redirecting to sign-in…');
    return redirectToSignIn();
  }
  progress('Loading your profile…');
  let context: UserContext;
  try {
    context = await api.get<UserContext>('/api/user/context');
  } catch (e) {
    if (isCodedError(e) && e.status === 401) return redirectToSignIn();
    return { kind: 'error', message: (e as Error).message, action: 'retry' };
  }
  if (!context?.id) return { kind: 'error', message: 'Your profile could not be loaded.', action: 'retry' };
  markBoot('profile');
  const session = startSession(settings, context);
  startLiveConnection(user.access_token);
  followSignOutOfOtherTabs(settings);
  return { kind: 'ready', session };
}

// One boot per attempt, even when React runs effects twice (StrictMode): the callback is single-use.
const boots = new Map<number, Promise<Phase>>();

export function Bootstrap() {
  const [phase, setPhase] = useState<Phase>(() =>
    window.location.pathname === BLANK_PATH ? { kind: 'blank' } : { kind: 'loading', message: 'Loading settings…' },
  );
  const [attempt, setAttempt] = useState(0);
  const setter = useRef(setPhase);
  setter.current = setPhase;

  useEffect(() => {
    let run = boots.get(attempt);
    if (!run) {
      run = boot((message) => setter.current({ kind: 'loading', message }));
      boots.set(attempt, run);
    }
    let active = true;
    run.then((p) => {
      if (!active) return;
      setPhase(p);
      if (p.kind === 'ready') markBoot('app');
    });
    return () => {
      active = false;
    };
  }, [attempt]);

  const reload = useCallback(async () => {
    if (phase.kind !== 'ready') return;
    const context = await api.get<UserContext>('/api/user/context');
    if (context?.id) setPhase({ kind: 'ready', session: startSession(phase.session.settings, context) });
  }, [phase]);

  switch (phase.kind) {
    case 'loading':
      return <BootScreen message={phase.message} />;
    case 'error':
      return (
        <BootScreen
          error={phase.message}
          onRetry={phase.action === 'signIn' ? () => void signIn('/') : () => setAttempt((n) => n + 1)}
        />
      );
    case 'signedOut':
      return <BootScreen message="You have been signed out." action={{ label: 'Sign in', onClick: () => void signIn('/dashboard') }} />;
    case 'blank':
      return null;
    case 'public':
      return (
        <Suspense fallback={<BootScreen />}>
          <PublicDemoTools settings={phase.settings} />
        </Suspense>
      );
    case 'ready':
      return (
        <SessionReloadContext.Provider value={reload}>
          <App session={phase.session} />
        </SessionReloadContext.Provider>
      );
  }
}
