import { AsyncLocalStorage } from 'async_hooks';

/**
 * The continuation-local "namespace" Sequelize v6 uses to find the current transaction
 * (`Sequelize.useCLS`), on AsyncLocalStorage instead of cls-hooked: cls-hooked is unmaintained and
 * its async hooks cost measurable CPU on every request. Sequelize calls only run, bind, get and
 * set; a nested run starts from a copy of the outer context, as cls-hooked does.
 */
export function createTransactionNamespace() {
  const storage = new AsyncLocalStorage<Map<string, unknown>>();
  return {
    run<T>(fn: (ctx: Map<string, unknown>) => T): T {
      const ctx = new Map(storage.getStore());
      return storage.run(ctx, () => fn(ctx));
    },
    bind<F extends (...args: any[]) => any>(fn: F): F {
      const ctx = storage.getStore();
      return ((...args: any[]) => (ctx ? storage.run(ctx, () => fn(...args)) : fn(...args))) as F;
    },
    get(key: string): any {
      return storage.getStore()?.get(key);
    },
    set(key: string, value: unknown): void {
      storage.getStore()?.set(key, value);
    },
  };
}
