import { Body, Controller, Param, PipeTransform, Query, HttpCode, Injectable } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { CLAIM_OBJECT_TYPES, type UserContext } from '@crisis/forms';
import { CurrentUser } from '../auth/current-user.decorator';
import { SkipAudit } from '../audit/audit.interceptor';
import { invalid } from '../common/coded-error';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { ClaimDto } from './claim.dto';
import { ClaimsService, type ClaimInput } from './claims.service';
import { Route } from '../common/route';

/** A claim id in the path: a positive bigint, else 400 INV naming the field (never a 500). */
@Injectable()
class ClaimIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!/^[1-9]\d{0,17}$/.test(value ?? '')) throw invalid([{ field: 'id', key: 'type', message: 'Must be a positive integer' }]);
    return value;
  }
}

const CLAIM_ID = new ClaimIdPipe();
const ID_PARAM = ApiParam({ name: 'id', description: 'Claim id', schema: { type: 'integer', minimum: 1 } });

/**
 * Claims (spec 03 §7): an object claimed for editing. The UI claims on opening an edit form,
 * extends periodically (medical information every 30 s), polls `actual` every 10 s to show who
 * holds it, and releases on leaving. A claim lapses `extendBy` seconds (default 60, at most
 * CLAIM_MAX_SECONDS) after its last extension; a Temporal workflow per claim marks it released
 * then. What may be claimed, and by whom, is the claim rules' (forms/src/claims.ts).
 */
@ApiTags('claims')
@Controller('api/claims')
export class ClaimsController {
  constructor(private readonly claims: ClaimsService) {}

  @Route('GET', 'actual', 'read', 'Claim')
  @ApiOperation({ summary: 'The active claim of an object; an empty body means none (null). Only for users who may see the object (the claim rules)' })
  @ApiQuery({ name: 'objectId', required: true, type: String })
  @ApiQuery({ name: 'objectType', required: true, enum: CLAIM_OBJECT_TYPES })
  @ApiOkResponse({ type: ClaimDto, description: 'The active claim, or an empty body when the object is free' })
  @ApiBadRequestResponse({ description: 'INV: objectId or objectType missing or malformed; `fields` names each problem' })
  @ApiNotFoundResponse({ description: 'NTFND: no such object (case, referring division)' })
  async actual(@CurrentUser() user: UserContext, @Query() query: Record<string, unknown>): Promise<ClaimDto | undefined> {
    const q = schema('claimActualQuery').transform({ ...query }) as { objectId: string; objectType: string };
    return (await this.claims.actual(user, q.objectType, q.objectId)) ?? undefined;
  }

  @Route('POST', '', 'create', 'Claim', 'Claim.Create')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Claim an object for extendBy seconds (default 60, at most CLAIM_MAX_SECONDS); idempotent for the holder, who gets the claim extended. ' +
      'Only objects the claim rules let the caller edit: a case\'s medical information (ITP roles), a referring division\'s placement tasks (ITP admin and user)',
  })
  @ApiSchemaBody('claimCreate')
  @ApiOkResponse({ type: ClaimDto })
  @ApiNotFoundResponse({ description: 'NTFND: no such object (case, referring division)' })
  @ApiConflictResponse({ description: 'INV.OBJECT.ALREADY.HAS.BEEN.CLAIMED: another user holds it; payload { objectId, objectType, subjectId, subjectName }' })
  claim(@CurrentUser() user: UserContext, @Body(schema('claimCreate')) body: ClaimInput): Promise<ClaimDto> {
    return this.claims.claim(user, body);
  }

  @Route('PUT', ':id/extend', 'update', 'Claim')
  @SkipAudit() // renewals every few seconds would flood the audit log
  @ApiOperation({
    summary: "Extend the caller's active claim to now + extendBy seconds (default 60, at most CLAIM_MAX_SECONDS); another user's claim, or an object she may no longer edit, is FRBD",
  })
  @ID_PARAM
  @ApiBody({ required: false, schema: { $ref: '#/components/schemas/claimExtend' } })
  @ApiOkResponse({ type: ClaimDto })
  @ApiBadRequestResponse({ description: 'INV: bad id or extendBy; `fields` names each problem' })
  @ApiNotFoundResponse({ description: 'NTFND: no claim with this id' })
  @ApiConflictResponse({ description: 'INV.CLAIM.IS.OVERDUE.OR.INACTIVE: the claim expired or was released; stop extending' })
  extend(
    @CurrentUser() user: UserContext,
    @Param('id', CLAIM_ID) id: string,
    @Body(schema('claimExtend')) body: { extendBy?: number | null } | null,
  ): Promise<ClaimDto> {
    return this.claims.extend(user, id, body?.extendBy);
  }

  @Route('PUT', ':id/release', 'update', 'Claim', 'Claim.Release')
  @ApiOperation({
    summary: "Release the caller's claim; idempotent (an already released or expired claim answers 200 with its final state); another user's claim is FRBD",
  })
  @ID_PARAM
  @ApiOkResponse({ type: ClaimDto })
  @ApiBadRequestResponse({ description: 'INV: the id is not a positive integer' })
  @ApiNotFoundResponse({ description: 'NTFND: no claim with this id' })
  release(@CurrentUser() user: UserContext, @Param('id', CLAIM_ID) id: string): Promise<ClaimDto> {
    return this.claims.release(user, id);
  }
}
