// How jest compiles TypeScript for every suite (unit and integration): swc, with the NestJS and
// sequelize-typescript decorators as tsc compiles them.
module.exports = {
  '^.+\\.(t|j)sx?$': ['@swc/jest', {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  }],
};
