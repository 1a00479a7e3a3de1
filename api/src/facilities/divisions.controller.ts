import { Body, Controller, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { FastifyReply } from 'fastify';
import {
  REQUEST_TYPES,
  divisionLookupSchema,
  divisionRecordSchema,
  type AppAbility,
  type CredentialedProviderLookup,
  type DivisionLookup,
  type DivisionRecord,
  type RequestType,
} from '@crisis/forms';
import { assertCan } from '../auth/abilities.guard';
import { CurrentAbility } from '../auth/current-user.decorator';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { DIVISION_SORTABLE, DivisionsService, type DivisionInput, type DivisionListFilter } from './divisions.service';
import { ApiListQuery } from './facilities.controller';
import { parseCheckedList, parseLookupFilter } from './list-params';
import { FacilityRoute, Route } from '../common/route';
import { IdParam } from '../common/id-param';
import { sendPage } from '../common/list-route';

const DIVISION = divisionRecordSchema as unknown as SchemaObject;
const DIVISION_LOOKUP = divisionLookupSchema as unknown as SchemaObject;

/**
 * Divisions of a facility (spec 03 §7). Reading is open to the ITP admin and to a facility admin
 * for her own facility; adding and editing to the ITP admin only.
 */
@ApiTags('facilities')
@Controller('api/facilities/:id/divisions')
@ApiParam({ name: 'id', type: Number, description: 'facility id' })
export class DivisionsController {
  constructor(private readonly divisions: DivisionsService) {}

  @Route('GET', '', 'read', 'Facility')
  @ApiListQuery(DIVISION_SORTABLE, 'q (name contains), type (Source | Referring), showActiveOnly, id[]')
  @ApiOkResponse({
    description: 'A page of the facility\'s divisions, default sort name ascending; total in Content-Range ("divisions 0-9/12")',
    schema: { type: 'array', items: DIVISION },
  })
  @ApiNotFoundResponse({ description: 'NTFND: no such facility' })
  async list(
    @IdParam() facilityId: number,
    @Query() query: Record<string, unknown>,
    @CurrentAbility() ability: AppAbility,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<DivisionRecord[]> {
    this.assertReadable(facilityId, ability);
    const q = parseCheckedList<DivisionListFilter>(query, { sortable: DIVISION_SORTABLE, defaultSort: ['name', 'ASC'], schema: 'divisionListFilter' });
    return sendPage(reply, 'divisions', q, await this.divisions.list(facilityId, q));
  }

  @Route('GET', 'lookups', 'read', 'Facility')
  @ApiQuery({ name: 'filter', required: false, description: 'JSON object: q, type, showActiveOnly, id[] (or the same keys as plain query parameters)' })
  @ApiBadRequestResponse({ description: 'INV: a bad filter; `fields` names each problem' })
  @ApiOkResponse({ description: 'The facility\'s divisions (id, name, isActive, type), sorted by name', schema: { type: 'array', items: DIVISION_LOOKUP } })
  @ApiNotFoundResponse({ description: 'NTFND: no such facility' })
  lookups(@IdParam() facilityId: number, @Query() query: Record<string, unknown>, @CurrentAbility() ability: AppAbility): Promise<DivisionLookup[]> {
    this.assertReadable(facilityId, ability);
    return this.divisions.lookups(facilityId, parseLookupFilter<DivisionListFilter>(query, 'divisionListFilter', ['id']));
  }

  @Route('GET', ':divisionId/credentialed-providers/lookups', 'read', 'Facility')
  @ApiOkResponse({
    description: 'The enabled providers credentialed to the division (id, fullName, providerType), sorted by name',
    schema: {
      type: 'array',
      items: { type: 'object', properties: { id: { type: 'integer' }, fullName: { type: 'string' }, providerType: { type: 'string', nullable: true } } },
    },
  })
  @ApiNotFoundResponse({ description: 'NTFND: no such division in this facility' })
  credentialedProviderLookups(
    @IdParam() facilityId: number,
    @IdParam('divisionId') divisionId: number,
    @CurrentAbility() ability: AppAbility,
  ): Promise<CredentialedProviderLookup[]> {
    this.assertReadable(facilityId, ability);
    return this.divisions.credentialedProviderLookups(facilityId, divisionId);
  }

  @Route('GET', ':divisionId/request-types/lookups', 'read', 'Facility')
  @ApiOkResponse({
    description: "The request types the division offers (a Source division's requestTypes, none for a Referring one), in the enumeration's order",
    schema: { type: 'array', items: { type: 'string', enum: [...REQUEST_TYPES] } },
  })
  @ApiNotFoundResponse({ description: 'NTFND: no such division in this facility' })
  requestTypeLookups(@IdParam() facilityId: number, @IdParam('divisionId') divisionId: number, @CurrentAbility() ability: AppAbility): Promise<RequestType[]> {
    this.assertReadable(facilityId, ability);
    return this.divisions.requestTypeLookups(facilityId, divisionId);
  }

  @FacilityRoute('POST', '', 'Division.Create')
  @ApiSchemaBody('division')
  @ApiCreatedResponse({ description: 'The created division', schema: DIVISION })
  @ApiConflictResponse({ description: 'INV.NOT.UNIQ: the facility has a division of this name (field name)' })
  create(@IdParam() id: number, @Body(schema('division')) body: DivisionInput): Promise<DivisionRecord> {
    return this.divisions.create(id, body);
  }

  @Route('GET', ':divisionId', 'read', 'Facility')
  @ApiOkResponse({ description: 'The division', schema: DIVISION })
  @ApiNotFoundResponse({ description: 'NTFND: no such division in this facility' })
  get(@IdParam() facilityId: number, @IdParam('divisionId') divisionId: number, @CurrentAbility() ability: AppAbility): Promise<DivisionRecord> {
    this.assertReadable(facilityId, ability);
    return this.divisions.get(facilityId, divisionId);
  }

  @Route('PUT', ':divisionId', 'manage', 'Facility', 'Division.Update')
  @ApiSchemaBody('division')
  @ApiOkResponse({ description: 'The updated division (type and subtype cannot change: 400 INV naming the field)', schema: DIVISION })
  @ApiNotFoundResponse({ description: 'NTFND: no such division in this facility' })
  @ApiConflictResponse({ description: 'INV.NOT.UNIQ: the facility has another division of this name (field name)' })
  update(@IdParam() id: number, @IdParam('divisionId') divisionId: number, @Body(schema('division')) body: DivisionInput): Promise<DivisionRecord> {
    return this.divisions.update(id, divisionId, body);
  }

  /** FRBD unless the user may read the route's facility (a facility admin: her own). */
  private assertReadable(facilityId: number, ability: AppAbility) {
    assertCan(ability, 'read', 'Facility', { id: facilityId });
  }
}
