import { Body, Controller } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Sequelize } from 'sequelize-typescript';
import { caseReference, parseCaseReference } from '@crisis/forms';
import { ApiSchemaBody } from '../common/openapi';
import { Route } from '../common/route';
import { schema } from '../common/validation.pipe';
import { inTransaction } from '../db/sql';
import { ehrDeliveries } from './ehr-deliveries.repository';

/**
 * The ITP admin's retry of failed EHR claims (spec 01 §7 "retry of an EHR claim", 02 §7 "PUT
 * /retry"): each failed claim of the named cases starts a new round of its delivery workflow.
 */
@ApiTags('cases')
@Controller('api/cases')
export class EhrClaimsController {
  constructor(@InjectConnection() private readonly sequelize: Sequelize) {}

  @Route('PUT', 'retry', 'access', 'PastCaseBilling', 'Case.RetryEhrClaims')
  @ApiSchemaBody('ehrClaimRetry')
  @ApiOkResponse({ description: 'Per reference number: retried (a failed claim starts again), nothingToRetry (no failed claim), notFound (no such case)' })
  async retry(@Body(schema('ehrClaimRetry')) body: { referenceNumbers: string[] }) {
    const ids = [...new Set(body.referenceNumbers.map((r) => parseCaseReference(r)!))];
    return inTransaction(this.sequelize, async (db) => {
      const { rows } = await db.query<{ id: number }>('SELECT id FROM cases WHERE id = ANY($1::int[])', [ids]);
      const found = new Set(rows.map((r) => r.id));
      const retried = new Set(await ehrDeliveries.retryFailedClaims(db, [...found]));
      const refs = (pick: (id: number) => boolean) => ids.filter(pick).map(caseReference);
      return {
        retried: refs((id) => retried.has(id)),
        nothingToRetry: refs((id) => found.has(id) && !retried.has(id)),
        notFound: refs((id) => !found.has(id)),
      };
    });
  }
}
