import { Body, Controller, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { payerInsuranceRecordSchema, payerRecordSchema, type PayerInsuranceRecord, type PayerRecord } from '@crisis/forms';
import { queryValue } from '../../common/list-query';
import { schema } from '../../common/validation.pipe';
import { checkFilter, parseCheckedList } from '../../facilities/list-params';
import { asOpenApi } from '../list-decorators';
import { PAYER_SORTABLE, PayersService, type PayerInput, type PayerListFilter } from './payers.service';
import { Route } from '../../common/route';
import { CreateRecord, ReadRecord, UpdateRecord, type RecordKind } from '../../common/record-routes';
import { IdParam } from '../../common/id-param';
import { ListRoute, sendPage } from '../../common/list-route';

const PAYER = asOpenApi(payerRecordSchema);
const KIND: RecordKind = { subject: 'Payer', noun: 'payer', schema: PAYER, body: 'payer', conflict: 'INV.NOT.UNIQ: a payer with this name exists (field name)' };
const LOOKUP = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, code: { type: ['string', 'null'] }, planName: { type: ['string', 'null'] }, isActive: { type: 'boolean' } } };

/** Payers (spec 03 §7 Payers), ITP admin only. */
@ApiTags('payers')
@Controller('api/payers')
export class PayersController {
  constructor(private readonly payers: PayersService) {}

  @ListRoute('manage', 'Payer', { sortable: PAYER_SORTABLE, filter: 'q (name, code or plan name contains), showActiveOnly, id[]', description: 'A page of payers, default sort name ascending; total in Content-Range', items: PAYER })
  async list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<PayerRecord[]> {
    const q = parseCheckedList<PayerListFilter>(query, { sortable: PAYER_SORTABLE, defaultSort: ['name', 'ASC'], schema: 'payerListFilter' });
    return sendPage(reply, 'payers', q, await this.payers.list(q));
  }

  // The insurance form's payer look-up by plan name (spec 01 §5 Insurance): for whoever edits a case's insurances.
  @Route('GET', 'insurance', 'update', 'CaseInsurance')
  @ApiQuery({ name: 'planName', required: true, description: 'plan name (contains); missing → INV "Plan Name is required"' })
  @ApiQuery({ name: 'payerId', required: false, description: 'only this payer' })
  @ApiBadRequestResponse({ description: 'INV: Plan Name is required (field planName)' })
  @ApiOkResponse({ description: 'Plan and address fields of matching active payers', schema: { type: 'array', items: asOpenApi(payerInsuranceRecordSchema) } })
  insurance(@Query() query: Record<string, unknown>): Promise<PayerInsuranceRecord[]> {
    const plain = Object.fromEntries(Object.entries(query).map(([k, v]) => [k, queryValue(v)]));
    const f = checkFilter<{ planName: string; payerId?: string | null }>(plain, 'payerInsuranceQuery');
    return this.payers.insurance(f.planName, f.payerId ? Number(f.payerId) : undefined);
  }

  @Route('GET', 'lookups', 'read', 'Payer')
  @ApiQuery({ name: 'showActiveOnly', required: false, description: 'true: active only (the default)' })
  @ApiOkResponse({ description: 'Payers sorted by name (id, name, code, planName, isActive); cached 3600 s', schema: { type: 'array', items: asOpenApi(LOOKUP) } })
  lookups(@Query('showActiveOnly') showActiveOnly: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    reply.header('Cache-Control', 'private, max-age=3600');
    return this.payers.lookups(showActiveOnly !== 'false');
  }

  @ReadRecord(KIND)
  get(@IdParam() id: number): Promise<PayerRecord> {
    return this.payers.get(id);
  }

  @CreateRecord(KIND)
  create(@Body(schema('payer')) body: PayerInput): Promise<PayerRecord> {
    return this.payers.create(body);
  }

  @UpdateRecord({
    ...KIND,
    conflict:
      'INV.NOT.UNIQ (field name); INV.DEACTIVATE.PAYER.USED.IN.PATIENTS, INV.EDIT.PAYER.USED.IN.PATIENTS, INV.DEACTIVATE.AND.EDIT.PAYER.USED.IN.PATIENTS: confirm, then resubmit with forceUpdate: true',
  })
  update(@IdParam() id: number, @Body(schema('payer')) body: PayerInput): Promise<PayerRecord> {
    return this.payers.update(id, body);
  }
}
