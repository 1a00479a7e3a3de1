import { Body, Controller, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { billingCodeRecordSchema, type BillingCodeRecord } from '@crisis/forms';
import { schema } from '../../common/validation.pipe';
import { parseCheckedList } from '../../facilities/list-params';
import { asOpenApi } from '../list-decorators';
import { BILLING_CODE_SORTABLE, BillingCodesService, type BillingCodeInput, type BillingCodeListFilter } from './billing-codes.service';
import { CreateRecord, ReadRecord, UpdateRecord, type RecordKind } from '../../common/record-routes';
import { IdParam } from '../../common/id-param';
import { ListRoute, sendPage } from '../../common/list-route';

const CODE = asOpenApi(billingCodeRecordSchema);
const KIND: RecordKind = { subject: 'BillingCode', noun: 'billing code', schema: CODE, body: 'billingCode', conflict: 'INV.NOT.UNIQ: the code is taken (field code)' };

/** Billing codes (spec 03 §7 Billing codes), ITP admin only. */
@ApiTags('billing-codes')
@Controller('api/billing-codes')
export class BillingCodesController {
  constructor(private readonly codes: BillingCodesService) {}

  @ListRoute('manage', 'BillingCode', { sortable: BILLING_CODE_SORTABLE, filter: 'q (code or description contains), showActiveOnly, sourceDivisionType, requestType, id[]', description: 'A page of billing codes, default sort code ascending; total in Content-Range', items: CODE })
  async list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<BillingCodeRecord[]> {
    const q = parseCheckedList<BillingCodeListFilter>(query, { sortable: BILLING_CODE_SORTABLE, defaultSort: ['code', 'ASC'], schema: 'billingCodeListFilter' });
    return sendPage(reply, 'billing-codes', q, await this.codes.list(q));
  }

  @ReadRecord(KIND)
  get(@IdParam() id: number): Promise<BillingCodeRecord> {
    return this.codes.get(id);
  }

  @CreateRecord(KIND)
  create(@Body(schema('billingCode')) body: BillingCodeInput): Promise<BillingCodeRecord> {
    return this.codes.create(body);
  }

  @UpdateRecord(KIND)
  update(@IdParam() id: number, @Body(schema('billingCode')) body: BillingCodeInput): Promise<BillingCodeRecord> {
    return this.codes.update(id, body);
  }
}
