import { LoggingModule } from './logging/logging.module';
import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { SequelizeModule } from '@nestjs/sequelize';
import { AbilitiesGuard } from './auth/abilities.guard';
import { AuthGuard } from './auth/auth.guard';
import { AuditInterceptor } from './audit/audit.interceptor';
import { AuditEntry } from './audit/audit-entry.model';
import { CodedErrorFilter } from './common/error.filter';
import { RequestContextInterceptor } from './common/request-context.interceptor';
import { DatabaseModule } from './db/database.module';
import { Division } from './facilities/division.model';
import { Facility } from './facilities/facility.model';
import { LiveModule } from './live/live.module';
import { GroupOrganization } from './organizations/group-organization.model';
import { ItpOrganization } from './organizations/itp-organization.model';
import { OutboxMessage } from './outbox/outbox-message.model';
import { OutboxModule } from './outbox/outbox.module';
import { SettingsController } from './settings/settings.controller';
import { UserContextController } from './users/user-context.controller';
import { UserDivision } from './users/user-division.model';
import { User } from './users/user.model';
import { CoreModule } from './core.module';
import { FacilitiesModule } from './facilities/facilities.module';
import { EvaluationsModule } from './evaluations/evaluations.module';
import { OnlineMeetingsModule } from './online-meetings/online-meetings.module';
import { ClaimsModule } from './claims/claims.module';
import { IdentityModule } from './identity/identity.module';
import { ReferenceModule } from './reference/reference.module';
import { UsersModule } from './users/users.module';
import { AuditLogModule } from './audit/audit-log.module';
import { OrganizationsModule } from './organizations/organizations.module';
import { SecurityModule } from './security/security.module';
import { IpAllowListGuard } from './security/ip-allow-list.guard';
import { CasesModule } from './cases/cases.module';
import { DashboardsModule } from './dashboards/dashboards.module';
import { PlacementModule } from './placement/placement.module';
import { PatientsModule } from './patients/patients.module';
import { CaseInsuranceModule } from './case-insurance/case-insurance.module';
import { CasePageModule } from './case-page/case-page.module';
import { CaseExportsModule } from './case-exports/case-exports.module';
import { PastCasesModule } from './past-cases/past-cases.module';
import { CaseRecordsModule } from './case-records/case-records.module';
import { MedicalInformationModule } from './medical-information/medical-information.module';
import { AddressModule } from './address/address.module';
import { NotificationsModule } from './notifications/notifications.module';
import { MessagingModule } from './messaging/messaging.module';
import { HousekeepingModule } from './housekeeping/housekeeping.module';
import { EhrRoutesModule } from './ehr/ehr.module';

@Module({
  imports: [
    LoggingModule,
    DatabaseModule,
    SequelizeModule.forFeature([User, UserDivision, Facility, Division, ItpOrganization, GroupOrganization, AuditEntry, OutboxMessage]),
    CoreModule,
    OutboxModule,
    LiveModule,
    IdentityModule,
    FacilitiesModule,
    EvaluationsModule,
    OnlineMeetingsModule,
    ClaimsModule,
    ReferenceModule,
    UsersModule,
    AuditLogModule,
    SecurityModule,
    OrganizationsModule,
    CasesModule,
    DashboardsModule,
    PlacementModule,
    PatientsModule,
    CaseInsuranceModule,
    CasePageModule,
    CaseExportsModule,
    PastCasesModule,
    CaseRecordsModule,
    MedicalInformationModule,
    AddressModule,
    NotificationsModule,
    MessagingModule,
    HousekeepingModule,
    EhrRoutesModule,
  ],
  controllers: [SettingsController, UserContextController],
  providers: [
    { provide: APP_FILTER, useClass: CodedErrorFilter },
    { provide: APP_GUARD, useClass: AuthGuard },
    { provide: APP_GUARD, useClass: IpAllowListGuard },
    { provide: APP_GUARD, useClass: AbilitiesGuard },
    { provide: APP_INTERCEPTOR, useClass: RequestContextInterceptor },
    { provide: APP_INTERCEPTOR, useClass: AuditInterceptor },
  ],
})
export class AppModule {}
