/** `@crisis/forms`: all of it (the API); the browser imports ./core and, where it validates, ./validators. */
export * from './core';
export * from './validators';
