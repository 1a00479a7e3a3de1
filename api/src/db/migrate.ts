import path from 'path';
import { Sequelize } from 'sequelize';
import { SequelizeStorage, Umzug } from 'umzug';
import { config } from '../config';

/** Runs pending migrations (files in ./migrations, applied in name order, each recorded once). */
export async function migrate(databaseUrl = config.databaseUrl): Promise<string[]> {
  const sequelize = new Sequelize(databaseUrl, { dialect: 'postgres', logging: false });
  try {
    const umzug = new Umzug({
      migrations: {
        glob: ['migrations/*.js', { cwd: __dirname, ignore: ['**/*.d.ts', '**/*.map'] }],
        resolve: ({ name, path: file, context }) => {
          const m = require(file!);
          return { name: path.basename(name, '.js'), up: () => m.up({ context }), down: () => m.down({ context }) };
        },
      },
      context: sequelize.getQueryInterface(),
      storage: new SequelizeStorage({ sequelize, tableName: 'schema_migrations' }),
      logger: undefined,
    });
    const done = await umzug.up();
    return done.map((m) => m.name);
  } finally {
    await sequelize.close();
  }
}

if (require.main === module) {
  migrate()
    .then((names) => {
      console.log(names.length ? `Applied migrations: ${names.join(', ')}` : 'Database schema is up to date');
    })
    .catch((err) => {
      console.error('Migration failed:', err);
      process.exit(1);
    });
}
