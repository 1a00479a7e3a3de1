import { Body, Controller, HttpCode, Inject, Param, Req, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiConflictResponse, ApiConsumes, ApiNotFoundResponse, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'crypto';
import {
  ErrorCode,
  UPLOAD_MAX_BYTES,
  type InsuranceInput,
  type InsuranceListInput,
  type InsuranceOrderInput,
  type InsuranceUninsuredInput,
  type UserContext,
} from '@crisis/forms';
import { CurrentUser } from '../auth/current-user.decorator';
import { notFound } from '../common/coded-error';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { FILE_STORAGE, sendStored, type FileStorage } from '../files/storage';
import { CasesService } from '../cases/cases.service';
import { fileError, peekUpload, singleFile, storeUpload } from '../files/upload';
import { sniffImage } from '../users/avatar.controller';
import { CaseInsuranceService, INSURANCE_CARD_AREA, type CardSide } from './case-insurance.service';
import { Route } from '../common/route';
import { ScopedCase, SourceSideCase, type CaseRef } from '../auth/scoped-case';
import { IdParam } from '../common/id-param';

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
@ApiParam({ name: 'id', type: Number })
export class CaseInsuranceController {
  constructor(
    private readonly cases: CasesService,
    private readonly insurances: CaseInsuranceService,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  @Route('GET', '', 'read', 'CaseInsurance')
  @ApiOkResponse(LIST)
  async list(@ScopedCase() { id: caseId }: CaseRef) {
    return this.insurances.list(caseId);
  }

  @Route('GET', 'payers', 'read', 'CaseInsurance')
  @ApiOkResponse({ description: "Payers the insurance form offers: active ones, plus inactive ones this case's insurances still use" })
  async payers(@ScopedCase() { id: caseId }: CaseRef) {
    return this.insurances.payerChoices(caseId);
  }

  @Route('PUT', '', 'update', 'CaseInsurance', 'CaseInsurance.ReplaceAll')
  @ApiSchemaBody('insuranceList')
  @ApiOkResponse(LIST)
  @ApiConflictResponse({ description: ErrorCode.CaseIsClosed })
  async replaceAll(@SourceSideCase() { id: caseId }: CaseRef, @Body(schema('insuranceList')) body: InsuranceListInput) {
    return this.insurances.replaceAll(caseId, body);
  }

  @Route('POST', '', 'update', 'CaseInsurance', 'CaseInsurance.Add')
  @HttpCode(200)
  @ApiSchemaBody('insurance')
  @ApiOkResponse({ description: 'The new insurance (last in the order)' })
  @ApiConflictResponse({ description: 'INV.MAX.INSURANCES (a 4th insurance), INV.CASE.IS.CLOSED' })
  async add(@CurrentUser() user: UserContext, @SourceSideCase() { id: caseId }: CaseRef, @Body(schema('insurance')) body: InsuranceInput) {
    return this.insurances.add(user, caseId, body);
  }

  @Route('PUT', 'uninsured', 'update', 'CaseUninsured', 'CaseInsurance.SetUninsured')
  @ApiSchemaBody('insuranceUninsured')
  @ApiOkResponse(LIST)
  async uninsured(@SourceSideCase() { id: caseId }: CaseRef, @Body(schema('insuranceUninsured')) body: InsuranceUninsuredInput) {
    return this.insurances.setUninsured(caseId, body.uninsured);
  }

  @Route('PUT', 'order', 'update', 'CaseInsurance', 'CaseInsurance.Reorder')
  @ApiSchemaBody('insuranceOrder')
  @ApiOkResponse(LIST)
  async order(@SourceSideCase() { id: caseId }: CaseRef, @Body(schema('insuranceOrder')) body: InsuranceOrderInput) {
    return this.insurances.reorder(caseId, body.ids);
  }

  @Route('PUT', ':insuranceId', 'update', 'CaseInsurance', 'CaseInsurance.Update')
  @ApiSchemaBody('insurance')
  @ApiOkResponse({ description: 'The saved insurance' })
  async update(@SourceSideCase() { id: caseId }: CaseRef, @IdParam('insuranceId') insuranceId: number, @Body(schema('insurance')) body: InsuranceInput) {
    return this.insurances.update(caseId, insuranceId, body);
  }

  @Route('DELETE', ':insuranceId', 'update', 'CaseInsurance', 'CaseInsurance.Delete')
  @ApiOkResponse(LIST)
  async remove(@SourceSideCase() { id: caseId }: CaseRef, @IdParam('insuranceId') insuranceId: number) {
    return this.insurances.remove(caseId, insuranceId);
  }

  @Route('PUT', ':insuranceId/verify', 'update', 'CaseInsurance', 'CaseInsurance.ToggleVerified')
  @ApiOkResponse({ description: 'The insurance, verified toggled (Unverified ⇄ Verified)' })
  async verify(@SourceSideCase() { id: caseId }: CaseRef, @IdParam('insuranceId') insuranceId: number) {
    return this.insurances.toggleVerified(caseId, insuranceId);
  }

  @Route('POST', ':insuranceId/images/:side', 'update', 'CaseInsurance', 'CaseInsurance.StoreCardImage')
  @HttpCode(200)
  @ApiParam({ name: 'side', enum: ['front', 'back'] })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } } })
  @ApiOkResponse({ description: '{ side, stored: true }' })
  @ApiBadRequestResponse({ description: 'INV: no file, empty, not a JPEG or PNG by content, or over 20,971,520 bytes' })
  async storeImage(
    @Req() req: FastifyRequest,
    @SourceSideCase() { id: caseId }: CaseRef,
    @IdParam('insuranceId') insuranceId: number,
    @Param('side') sideRaw: string,
  ) {
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

  @Route('GET', ':insuranceId/images/:side', 'read', 'CaseInsurance')
  @ApiParam({ name: 'side', enum: ['front', 'back'] })
  @ApiOkResponse({ description: 'The card image (image/jpeg or image/png)' })
  @ApiNotFoundResponse({ description: 'NTFND: no such insurance or no image on that side' })
  async image(
    @ScopedCase() { id: caseId }: CaseRef,
    @IdParam('insuranceId') insuranceId: number,
    @Param('side') sideRaw: string,
    @Res() reply: FastifyReply,
  ) {
    const side = parseSide(sideRaw);
    const key = await this.insurances.imageKey(caseId, insuranceId, side);
    if (!key || !CARD_KEY.test(key)) throw notFound();
    const file = await this.storage.get(INSURANCE_CARD_AREA, key);
    if (!file) throw notFound();
    const ext = key.split('.').pop() as keyof typeof CONTENT_TYPES;
    return sendStored(reply, file, CONTENT_TYPES[ext]);
  }
}
