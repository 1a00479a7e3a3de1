export * from './questionnaire';
export * from './schemas';
export * from './answer-validation';
