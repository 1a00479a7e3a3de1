export * from './questionnaire';
export * from './schemas';
