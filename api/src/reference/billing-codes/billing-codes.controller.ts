import { Body, Controller, Query, Res } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ErrorCode, billingCodeRecordSchema, type BillingCodeRecord } from '@crisis/forms';
import { ApiSchemaBody } from '../../common/openapi';
import { schema } from '../../common/validation.pipe';
import { parseCheckedList } from '../../facilities/list-params';
import { asOpenApi } from '../list-decorators';
import { BILLING_CODE_SORTABLE, BillingCodesService, type BillingCodeInput, type BillingCodeListFilter } from './billing-codes.service';
import { Route } from '../../common/route';
import { IdParam } from '../../common/id-param';
import { ListRoute, sendPage } from '../../common/list-route';

const CODE = asOpenApi(billingCodeRecordSchema);

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

  @Route('GET', ':id', 'manage', 'BillingCode')
  @ApiOkResponse({ description: 'The billing code', schema: CODE })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  get(@IdParam() id: number): Promise<BillingCodeRecord> {
    return this.codes.get(id);
  }

  @Route('POST', '', 'manage', 'BillingCode', 'BillingCode.Create')
  @ApiSchemaBody('billingCode')
  @ApiCreatedResponse({ description: 'The created billing code', schema: CODE })
  @ApiConflictResponse({ description: 'INV.NOT.UNIQ: the code is taken (field code)' })
  create(@Body(schema('billingCode')) body: BillingCodeInput): Promise<BillingCodeRecord> {
    return this.codes.create(body);
  }

  @Route('PUT', ':id', 'manage', 'BillingCode', 'BillingCode.Update')
  @ApiSchemaBody('billingCode')
  @ApiOkResponse({ description: 'The updated billing code', schema: CODE })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  @ApiConflictResponse({ description: 'INV.NOT.UNIQ: the code is taken (field code)' })
  update(@IdParam() id: number, @Body(schema('billingCode')) body: BillingCodeInput): Promise<BillingCodeRecord> {
    return this.codes.update(id, body);
  }
}
