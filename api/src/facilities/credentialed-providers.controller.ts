import { Body, Controller, Query, Res } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { CredentialedProviderRecord, ProviderChoice } from '@crisis/forms';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { CREDENTIALED_PROVIDER_SORTABLE, CredentialedProvidersService, type CredentialedProviderInput, type CredentialedProviderListFilter } from './credentialed-providers.service';
import { ApiListQuery } from './facilities.controller';
import { parseCheckedList, parseId } from './list-params';
import { FacilityRoute, Route } from '../common/route';
import { IdParam } from '../common/id-param';
import { sendPage } from '../common/list-route';

const RECORD = {
  type: 'object',
  properties: {
    id: { type: 'integer', description: 'the provider user id' },
    provider: { type: 'object', properties: { id: { type: 'integer' }, fullName: { type: 'string' }, providerType: { type: 'string', nullable: true } } },
    divisions: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } },
    addToNewDivisions: { type: 'boolean' },
    acceptedPatients: { type: 'object' },
  },
};

/** Credentialed providers of a facility (spec 03 §2, §7): ITP admin only. */
@ApiTags('facilities')
@Controller('api/facilities/:id/credentialed-providers')
@ApiParam({ name: 'id', type: Number, description: 'facility id' })
export class CredentialedProvidersController {
  constructor(private readonly providers: CredentialedProvidersService) {}

  @FacilityRoute('GET', '')
  @ApiListQuery(CREDENTIALED_PROVIDER_SORTABLE, 'q (provider name contains), divisionsIds[] (credentialed for any of them), id[]')
  @ApiOkResponse({ description: 'A page of the facility\'s credentialed providers sorted by name; total in Content-Range', schema: { type: 'array', items: RECORD } })
  async list(
    @IdParam() facilityId: number,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CredentialedProviderRecord[]> {
    const q = parseCheckedList<CredentialedProviderListFilter>(query, {
      sortable: CREDENTIALED_PROVIDER_SORTABLE,
      defaultSort: ['name', 'ASC'],
      schema: 'credentialedProviderListFilter',
    });
    return sendPage(reply, 'credentialed-providers', q, await this.providers.list(facilityId, q));
  }

  @FacilityRoute('GET', 'available-providers')
  @ApiQuery({ name: 'exceptProviderId', required: false, description: 'the provider being edited (kept in the choices)' })
  @ApiOkResponse({ description: 'Active ITP providers not yet credentialed at this facility, sorted by name' })
  available(@IdParam() id: number, @Query('exceptProviderId') rawExcept?: string): Promise<ProviderChoice[]> {
    const except = rawExcept === undefined || rawExcept === '' ? null : parseId(rawExcept);
    return this.providers.availableProviders(id, except);
  }

  @Route('GET', ':providerId', 'manage', 'Facility')
  @ApiOkResponse({ description: 'The credentialed provider', schema: RECORD })
  @ApiNotFoundResponse({ description: 'NTFND: the provider is not credentialed at this facility' })
  get(@IdParam() id: number, @IdParam('providerId') providerId: number): Promise<CredentialedProviderRecord> {
    return this.providers.get(id, providerId);
  }

  @FacilityRoute('POST', '', 'CredentialedProvider.Create')
  @ApiSchemaBody('credentialedProvider')
  @ApiCreatedResponse({ description: 'The credentialed provider', schema: RECORD })
  @ApiConflictResponse({ description: 'INV.NOT.UNIQ: the provider is already credentialed here (field providerId)' })
  create(@IdParam() id: number, @Body(schema('credentialedProvider')) body: CredentialedProviderInput): Promise<CredentialedProviderRecord> {
    return this.providers.create(id, body);
  }

  @Route('PUT', ':providerId', 'manage', 'Facility', 'CredentialedProvider.Update')
  @ApiSchemaBody('credentialedProvider')
  @ApiOkResponse({ description: 'The credentialed provider after the change', schema: RECORD })
  @ApiNotFoundResponse({ description: 'NTFND: the provider is not credentialed at this facility' })
  update(
    @IdParam() id: number,
    @IdParam('providerId') providerId: number,
    @Body(schema('credentialedProvider')) body: CredentialedProviderInput,
  ): Promise<CredentialedProviderRecord> {
    return this.providers.update(id, providerId, body);
  }

  @Route('DELETE', ':providerId', 'manage', 'Facility', 'CredentialedProvider.Delete')
  @ApiOkResponse({ description: '{ id } of the removed provider' })
  @ApiNotFoundResponse({ description: 'NTFND: the provider is not credentialed at this facility' })
  remove(@IdParam() id: number, @IdParam('providerId') providerId: number): Promise<{ id: number }> {
    return this.providers.remove(id, providerId);
  }
}
