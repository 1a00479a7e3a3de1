import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Req, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiConflictResponse, ApiConsumes, ApiNotFoundResponse, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'crypto';
import {
  UPLOAD_MAX_BYTES,
  type InsuranceInput,
  type InsuranceListInput,
  type InsuranceOrderInput,
  type InsuranceUninsuredInput,
  type UserContext,
} from '@crisis/forms';
import { CheckAbility } from '../auth/abilities.guard';
import { CurrentUser } from '../auth/current-user.decorator';
import { AuditAction } from '../audit/audit.interceptor';
import { notFound } from '../common/coded-error';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { parseId } from '../facilities/list-params';
import { FILE_STORAGE, type FileStorage } from '../files/storage';
import { CasesService } from '../cases/cases.service';
import { fileError, peekUpload, singleFile, storeUpload } from '../files/upload';
import { sniffImage } from '../users/avatar.controller';
import { CaseInsuranceService, INSURANCE_CARD_AREA, type CardSide } from './case-insurance.service';

const CONTENT_TYPES = { png: 'image/png', jpg: 'image/jpeg' } as const;
const CARD_KEY = /^ins-\d+-(front|back)-[0-9a-f-]{36}\.(png|jpg)$/;

const parseSide = (raw: string): CardSide => {
  if (raw !== 'front' && raw !== 'back') throw notFound();
  return raw;
};

const LIST = { description: '{ caseId, uninsured, status (Uninsured | NotProvided | null), maxInsurances, insurances[] } in order' };

/** Insurances of a case (spec 01 §7 /api/cases/{id}/insurances). */
@ApiTags('insurances')
@Controller('api/cases/:id/insurances')
export class CaseInsuranceController {
  constructor(
    private readonly cases: CasesService,
    private readonly insurances: CaseInsuranceService,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  private async caseId(user: UserContext, id: string) {
    const caseId = parseId(id);
    await this.cases.findInScope(user, caseId);
    return caseId;
  }

  @Get()
  @CheckAbility('read', 'CaseInsurance')
  @ApiParam({ name: 'id', type: Number })
  @ApiOkResponse(LIST)
  async list(@CurrentUser() user: UserContext, @Param('id') id: string) {
    return this.insurances.list(await this.caseId(user, id));
  }

  @Get('payers')
  @CheckAbility('read', 'CaseInsurance')
  @ApiParam({ name: 'id', type: Number })
  @ApiOkResponse({ description: "Payers the insurance form offers: active ones, plus inactive ones this case's insurances still use" })
  async payers(@CurrentUser() user: UserContext, @Param('id') id: string) {
    return this.insurances.payerChoices(await this.caseId(user, id));
  }

  @Put()
  @CheckAbility('update', 'CaseInsurance')
  @AuditAction('CaseInsurance.ReplaceAll')
  @ApiParam({ name: 'id', type: Number })
  @ApiSchemaBody('insuranceList')
  @ApiOkResponse(LIST)
  @ApiConflictResponse({ description: 'INV.CASE.IS.CLOSED' })
  async replaceAll(@CurrentUser() user: UserContext, @Param('id') id: string, @Body(schema('insuranceList')) body: InsuranceListInput) {
    return this.insurances.replaceAll(await this.caseId(user, id), body);
  }

  @Post()
  @HttpCode(200)
  @CheckAbility('update', 'CaseInsurance')
  @AuditAction('CaseInsurance.Add')
  @ApiParam({ name: 'id', type: Number })
  @ApiSchemaBody('insurance')
  @ApiOkResponse({ description: 'The new insurance (last in the order)' })
  @ApiConflictResponse({ description: 'INV.MAX.INSURANCES (a 4th insurance), INV.CASE.IS.CLOSED' })
  async add(@CurrentUser() user: UserContext, @Param('id') id: string, @Body(schema('insurance')) body: InsuranceInput) {
    return this.insurances.add(user, await this.caseId(user, id), body);
  }

  @Put('uninsured')
  @CheckAbility('update', 'CaseUninsured')
  @AuditAction('CaseInsurance.SetUninsured')
  @ApiParam({ name: 'id', type: Number })
  @ApiSchemaBody('insuranceUninsured')
  @ApiOkResponse(LIST)
  async uninsured(@CurrentUser() user: UserContext, @Param('id') id: string, @Body(schema('insuranceUninsured')) body: InsuranceUninsuredInput) {
    return this.insurances.setUninsured(await this.caseId(user, id), body.uninsured);
  }

  @Put('order')
  @CheckAbility('update', 'CaseInsurance')
  @AuditAction('CaseInsurance.Reorder')
  @ApiParam({ name: 'id', type: Number })
  @ApiSchemaBody('insuranceOrder')
  @ApiOkResponse(LIST)
  async order(@CurrentUser() user: UserContext, @Param('id') id: string, @Body(schema('insuranceOrder')) body: InsuranceOrderInput) {
    return this.insurances.reorder(await this.caseId(user, id), body.ids);
  }

  @Put(':insuranceId')
  @CheckAbility('update', 'CaseInsurance')
  @AuditAction('CaseInsurance.Update')
  @ApiParam({ name: 'id', type: Number })
  @ApiParam({ name: 'insuranceId', type: Number })
  @ApiSchemaBody('insurance')
  @ApiOkResponse({ description: 'The saved insurance' })
  async update(@CurrentUser() user: UserContext, @Param('id') id: string, @Param('insuranceId') insuranceId: string, @Body(schema('insurance')) body: InsuranceInput) {
    const caseId = await this.caseId(user, id);
    return this.insurances.update(caseId, parseId(insuranceId), body);
  }

  @Delete(':insuranceId')
  @CheckAbility('update', 'CaseInsurance')
  @AuditAction('CaseInsurance.Delete')
  @ApiParam({ name: 'id', type: Number })
  @ApiParam({ name: 'insuranceId', type: Number })
  @ApiOkResponse(LIST)
  async remove(@CurrentUser() user: UserContext, @Param('id') id: string, @Param('insuranceId') insuranceId: string) {
    const caseId = await this.caseId(user, id);
    return this.insurances.remove(caseId, parseId(insuranceId));
  }

  @Put(':insuranceId/verify')
  @CheckAbility('update', 'CaseInsurance')
  @AuditAction('CaseInsurance.ToggleVerified')
  @ApiParam({ name: 'id', type: Number })
  @ApiParam({ name: 'insuranceId', type: Number })
  @ApiOkResponse({ description: 'The insurance, verified toggled (Unverified ⇄ Verified)' })
  async verify(@CurrentUser() user: UserContext, @Param('id') id: string, @Param('insuranceId') insuranceId: string) {
    const caseId = await this.caseId(user, id);
    return this.insurances.toggleVerified(caseId, parseId(insuranceId));
  }

  @Post(':insuranceId/images/:side')
  @HttpCode(200)
  @CheckAbility('update', 'CaseInsurance')
  @AuditAction('CaseInsurance.StoreCardImage')
  @ApiParam({ name: 'id', type: Number })
  @ApiParam({ name: 'insuranceId', type: Number })
  @ApiParam({ name: 'side', enum: ['front', 'back'] })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } } })
  @ApiOkResponse({ description: '{ side, stored: true }' })
  @ApiBadRequestResponse({ description: 'INV: no file, empty, not a JPEG or PNG by content, or over 20,971,520 bytes' })
  async storeImage(
    @Req() req: FastifyRequest,
    @CurrentUser() user: UserContext,
    @Param('id') id: string,
    @Param('insuranceId') insuranceIdRaw: string,
    @Param('side') sideRaw: string,
  ) {
    const caseId = await this.caseId(user, id);
    const insuranceId = parseId(insuranceIdRaw);
    const side = parseSide(sideRaw);
    await this.insurances.assertWritable(caseId, insuranceId);
    const part = await singleFile(req);
    const { head, source } = await peekUpload(part, 12);
    const ext = sniffImage(head);
    if (ext !== 'png' && ext !== 'jpg') {
      part.file.resume();
      throw fileError('imageType', 'Card images must be JPEG or PNG');
    }
    const key = `ins-${insuranceId}-${side}-${randomUUID()}.${ext}`;
    await storeUpload(this.storage, INSURANCE_CARD_AREA, key, part, source, UPLOAD_MAX_BYTES);
    try {
      await this.insurances.setImage(caseId, insuranceId, side, key);
    } catch (err) {
      await this.storage.remove(INSURANCE_CARD_AREA, key);
      throw err;
    }
    return { side, stored: true };
  }

  @Get(':insuranceId/images/:side')
  @CheckAbility('read', 'CaseInsurance')
  @ApiParam({ name: 'id', type: Number })
  @ApiParam({ name: 'insuranceId', type: Number })
  @ApiParam({ name: 'side', enum: ['front', 'back'] })
  @ApiOkResponse({ description: 'The card image (image/jpeg or image/png)' })
  @ApiNotFoundResponse({ description: 'NTFND: no such insurance or no image on that side' })
  async image(
    @CurrentUser() user: UserContext,
    @Param('id') id: string,
    @Param('insuranceId') insuranceIdRaw: string,
    @Param('side') sideRaw: string,
    @Res() reply: FastifyReply,
  ) {
    const caseId = await this.caseId(user, id);
    const insuranceId = parseId(insuranceIdRaw);
    const side = parseSide(sideRaw);
    const key = await this.insurances.imageKey(caseId, insuranceId, side);
    if (!key || !CARD_KEY.test(key)) throw notFound();
    const file = await this.storage.get(INSURANCE_CARD_AREA, key);
    if (!file) throw notFound();
    const ext = key.split('.').pop() as keyof typeof CONTENT_TYPES;
    return reply
      .header('Content-Type', CONTENT_TYPES[ext])
      .header('Content-Length', String(file.size))
      .header('Cache-Control', 'private, no-store')
      .header('X-Content-Type-Options', 'nosniff')
      .send(file.stream);
  }
}
