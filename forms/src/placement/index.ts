export * from './calls';
export * from './matching';
export * from './schemas';
