import { Global, Module } from '@nestjs/common';
import { SequelizeModule } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import { config } from '../config';
import { createTransactionNamespace } from './transaction-context';

// Every query inside sequelize.transaction(cb) joins that transaction without passing it around,
// so a request's changes and its audit entry commit or roll back together.
Sequelize.useCLS(createTransactionNamespace());

@Global()
@Module({
  imports: [
    SequelizeModule.forRoot({
      dialect: 'postgres',
      uri: config.databaseUrl,
      logging: false,
      autoLoadModels: true,
      // The schema is owned by migrations only (api/src/db/migrations): never sync().
      synchronize: false,
      pool: { max: config.dbPoolMax, min: 2, idle: 10_000 },
      define: { underscored: true, timestamps: true },
    }),
  ],
})
export class DatabaseModule {}
