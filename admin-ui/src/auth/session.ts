import { createContext, useContext } from 'react';
import { navigationFor, type AppAbility, type AppSettings, type Navigation, type UserContext } from '@crisis/forms/core';
import { abilityFromContext } from './ability';

/** Everything the app knows about the signed-in user once the bootstrap is done. */
export interface Session {
  settings: AppSettings;
  context: UserContext;
  ability: AppAbility;
  navigation: Navigation;
}

let current: Session | undefined;

export function startSession(settings: AppSettings, context: UserContext): Session {
  const ability = abilityFromContext(context);
  current = { settings, context, ability, navigation: navigationFor(context, ability) };
  return current;
}

export function session(): Session {
  if (!current) throw new Error('No session yet');
  return current;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside of the SessionContext');
  return s;
}

/** Re-reads the user context (after the user changed something the context reflects, e.g. MFA). */
export const SessionReloadContext = createContext<() => Promise<void>>(async () => undefined);

export const useReloadSession = () => useContext(SessionReloadContext);
