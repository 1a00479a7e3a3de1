import { lazy, type ComponentType } from 'react';

/**
 * A page loaded with its route (route-level code splitting): its code, and the libraries only it
 * uses (the questionnaire renderer, the PDF and CSV tools…), are fetched the first time the page
 * opens, not with the app. The layout's Suspense shows a spinner meanwhile.
 */
export function lazyPage<P extends object = any>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  return lazy(async () => ({ default: await load() })) as unknown as ComponentType<P>;
}
