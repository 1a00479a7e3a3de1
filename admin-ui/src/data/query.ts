import { useDataProvider } from 'react-admin';
// react-query is react-admin's own data layer (react-admin depends on it and provides the client).
import { useMutation, useQuery, useQueryClient, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import type { AppDataProvider } from './dataProvider';

export { useMutation, useQuery, useQueryClient };

/** The data provider with its custom methods. */
export const useAppData = () => useDataProvider<AppDataProvider>();

/**
 * Query keys: everything of a case under ['case', id] (a live 'case.updated' or a command
 * invalidates the part it changed), placement and the call log under their own roots.
 */
export const keys = {
  case: (caseId: number, ...part: Array<string | number>) => ['case', caseId, ...part] as const,
  callLog: (claimId: number) => ['callLog', claimId] as const,
  calls: () => ['calls'] as const,
};

/** Options every read shares: the screens show a failure at once (no retries) and reload on events, not on focus. */
const READ = { retry: false, refetchOnWindowFocus: false } as const;

/**
 * A read through a data-provider method, cached under `key`. `error` is the failure's message;
 * `reload` refetches.
 */
export function useAppQuery<T>(
  key: QueryKey,
  load: (dp: AppDataProvider) => Promise<T>,
  options: Omit<UseQueryOptions<T, Error, T, QueryKey>, 'queryKey' | 'queryFn'> = {},
) {
  const dp = useAppData();
  const query = useQuery<T, Error, T, QueryKey>({ queryKey: key, queryFn: () => load(dp), ...READ, ...options });
  return {
    ...query,
    data: query.data ?? null,
    error: query.error ? query.error.message || 'Could not load' : null,
    failure: query.error,
    reload: () => void query.refetch(),
  };
}

/**
 * A change through a data-provider method; on success the queries under each of `invalidates`
 * are refetched.
 */
export function useAppMutation<A, R>(run: (dp: AppDataProvider, args: A) => Promise<R>, invalidates: QueryKey[] = []) {
  const dp = useAppData();
  const client = useQueryClient();
  return useMutation<R, unknown, A>({
    mutationFn: (args) => run(dp, args),
    onSuccess: () => Promise.all(invalidates.map((queryKey) => client.invalidateQueries({ queryKey }))),
  });
}

/**
 * A command on a case through the data provider: `run((dp) => dp.caseX(...))` resolves once the
 * given parts of the case (default: the case itself) are fetched again.
 */
export function useCaseCommand(caseId: number, parts: string[] = ['details']) {
  const client = useQueryClient();
  const mutation = useAppMutation(
    (dp, call: (dp: AppDataProvider) => Promise<unknown>) => call(dp),
    parts.map((p) => keys.case(caseId, p)),
  );
  return {
    run: <R,>(call: (dp: AppDataProvider) => Promise<R>) => mutation.mutateAsync(call) as Promise<R>,
    busy: mutation.isPending,
    /** Fetches the parts again (after a refused command, say). */
    refresh: () => Promise.all(parts.map((p) => client.invalidateQueries({ queryKey: keys.case(caseId, p) }))),
  };
}
