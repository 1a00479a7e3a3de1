import { Body, Controller } from '@nestjs/common';
import { ApiBadGatewayResponse, ApiConflictResponse, ApiOkResponse, ApiParam, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import type { FacilityEhrConnectionRecord, FacilityEhrKeyRecord, FacilityEhrTestRecord } from '@crisis/forms';
import { AuditAfterCommand } from '../audit/audit.interceptor';
import { IdParam } from '../common/id-param';
import { ApiSchemaBody } from '../common/openapi';
import { Route } from '../common/route';
import { schema } from '../common/validation.pipe';
import { EhrConnections, type EhrConnectionInput } from './ehr-connections.service';

const CONNECTION = {
  type: 'object',
  properties: {
    facilityId: { type: 'integer' },
    dialect: { type: 'string', nullable: true, enum: ['epic', 'athena'] },
    baseUrl: { type: 'string', nullable: true },
    tokenUrl: { type: 'string', nullable: true },
    clientId: { type: 'string', nullable: true },
    keyId: { type: 'string', nullable: true },
    hasPrivateKey: { type: 'boolean', description: 'the private key itself is never answered' },
    departmentId: { type: 'string', nullable: true },
    isIntegrated: { type: 'boolean' },
    updatedAt: { type: 'string', nullable: true },
  },
};

/** A facility's EHR connection (issue 16), on the facility edit page's evaluation forms tab: ITP admin only. */
@ApiTags('facilities')
@Controller('api/facilities/:id/ehr-connection')
@ApiParam({ name: 'id', type: Number, description: 'facility id' })
export class EhrConnectionController {
  constructor(private readonly connections: EhrConnections) {}

  @Route('GET', '', 'manage', 'EhrConnection')
  @ApiOkResponse({ description: 'The connection (dialect, URLs, client id, key id, hasPrivateKey); never the private key', schema: CONNECTION })
  get(@IdParam() id: number): Promise<FacilityEhrConnectionRecord> {
    return this.connections.get(id);
  }

  @Route('PUT', '', 'manage', 'EhrConnection', 'Facility.UpdateEhrConnection')
  @ApiSchemaBody('facilityEhrConnection')
  @ApiOkResponse({ description: 'The saved connection', schema: CONNECTION })
  save(@IdParam() id: number, @Body(schema('facilityEhrConnection')) body: EhrConnectionInput): Promise<FacilityEhrConnectionRecord> {
    return this.connections.save(id, body);
  }

  @Route('POST', 'key', 'manage', 'EhrConnection', 'Facility.GenerateEhrKey')
  @ApiOkResponse({
    description: 'A new RS384 key: the private key is stored, the public JWK / JWKS is answered, to register with the EHR',
    schema: { type: 'object', properties: { keyId: { type: 'string' }, publicJwk: { type: 'object' }, jwks: { type: 'object' } } },
  })
  generateKey(@IdParam() id: number): Promise<FacilityEhrKeyRecord> {
    return this.connections.generateKey(id);
  }

  @Route('POST', 'test', 'manage', 'EhrConnection', 'Facility.TestEhrConnection')
  // The EHR may take seconds: no request transaction is held open meanwhile.
  @AuditAfterCommand()
  @ApiOkResponse({ description: 'The EHR accepted the key: its FHIR version and software', schema: { type: 'object', properties: { ok: { type: 'boolean' }, fhirVersion: { type: 'string' }, software: { type: 'string', nullable: true } } } })
  @ApiConflictResponse({ description: 'INV.EHR.NOT.CONFIGURED: the connection is incomplete' })
  @ApiUnprocessableEntityResponse({ description: 'INV.EHR.KEY.REFUSED: the EHR refused the client assertion (message says what to check)' })
  @ApiBadGatewayResponse({ description: 'INV.EHR.UNAVAILABLE: the EHR could not be reached or answered 5xx / 429' })
  test(@IdParam() id: number): Promise<FacilityEhrTestRecord> {
    return this.connections.test(id);
  }
}
