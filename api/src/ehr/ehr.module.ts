import { Module } from '@nestjs/common';
import { CasesModule } from '../cases/cases.module';
import { EhrConnections } from './ehr-connections.service';
import { FhirEhrAdapter } from './fhir-ehr.adapter';
import { EHR_PORT } from './ehr.port';
import { EhrConnectionController } from './ehr-connection.controller';
import { EhrEncounterController, EhrLookupsController, EhrPeriodicInformationController, PayerEhrSearchController } from './ehr-lookups.controller';
import { EhrClaimsController } from './ehr-claims.controller';

/**
 * The EHR port (FHIR R4 adapter) and the facilities' connections: what the API's routes and the
 * worker's activities inject (`@Inject(EHR_PORT)`, `EhrConnections`).
 */
@Module({
  providers: [FhirEhrAdapter, { provide: EHR_PORT, useExisting: FhirEhrAdapter }, EhrConnections],
  exports: [EHR_PORT, EhrConnections],
})
export class EhrModule {}

/** The API's EHR routes: facility connection settings, case-creation look-ups, payer search, the claims retry. */
@Module({
  imports: [EhrModule, CasesModule],
  controllers: [EhrConnectionController, EhrLookupsController, EhrPeriodicInformationController, EhrEncounterController, PayerEhrSearchController, EhrClaimsController],
})
export class EhrRoutesModule {}
