import { useEffect, useState } from 'react';
import { api } from '../data/httpClient';
import { useDebounced } from './useDebounced';

/** Fetches suggestions for a debounced text once it has `min` characters; stale answers are dropped. */
export function useSuggestions<T>(text: string, min: number, url: (q: string) => string, enabled: boolean): { options: T[]; loading: boolean } {
  const q = useDebounced(text.trim(), 300);
  const target = enabled && q.length >= min ? url(q) : null;
  const [state, setState] = useState<{ options: T[]; loading: boolean }>({ options: [], loading: false });
  useEffect(() => {
    if (!target) {
      setState({ options: [], loading: false });
      return;
    }
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    api
      .get<T[]>(target)
      .then((rows) => live && setState({ options: rows ?? [], loading: false }))
      .catch(() => live && setState({ options: [], loading: false }));
    return () => {
      live = false;
    };
  }, [target]);
  return state;
}
